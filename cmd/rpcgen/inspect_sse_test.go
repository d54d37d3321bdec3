package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// oldServer is a 2024-11-05 HTTP+SSE server: GET /sse is the event stream,
// whose first event names the endpoint to POST to; each POST is accepted
// and answered on the stream. A POST to /sse is refused, as a server
// without Streamable HTTP refuses it. It returns the stream's URL.
func oldServer(t *testing.T) string {
	events := make(chan string, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			fmt.Fprint(w, "event: endpoint\ndata: /messages\n\n")
			w.(http.Flusher).Flush()
			for {
				select {
				case ev := <-events:
					fmt.Fprint(w, ev)
					w.(http.Flusher).Flush()
				case <-r.Context().Done():
					return
				}
			}
		case r.Method == http.MethodPost && r.URL.Path == "/messages":
			var m struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			json.NewDecoder(r.Body).Decode(&m)
			w.WriteHeader(http.StatusAccepted)
			if m.ID == nil {
				return
			}
			result := `{}`
			switch m.Method {
			case "initialize":
				result = `{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`
			case "tools/list":
				result = `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
			}
			events <- `event: message` + "\ndata: " + `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"result":` + result + "}\n\n"
		default:
			http.Error(w, "Method Not Allowed", http.StatusMethodNotAllowed)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/sse"
}

func TestInspectSpeaksTheOldHTTPPlusSSETransport(t *testing.T) {
	for _, args := range [][]string{{"--sse"}, nil} {
		t.Run(fmt.Sprint(args), func(t *testing.T) {
			p := startInspect(t, append(args, oldServer(t))...)
			var s struct {
				ProtocolVersion string
				ServerInfo      struct{ Name string }
			}
			require.NoError(t, json.Unmarshal(p.api(t, "GET", "/api/session", ""), &s))
			assert.Equal(t, "2024-11-05", s.ProtocolVersion)
			assert.Equal(t, "old", s.ServerInfo.Name)
			assert.Contains(t, string(p.api(t, "GET", "/api/tools", "")), `"name":"t"`)
		})
	}
}
