package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// chOld is a fake 2024-11-05 HTTP+SSE server: GET /mcp is the event
// stream, whose first event names the endpoint; POSTs to the endpoint are
// accepted with 202 and answered on the stream. A POST to /mcp itself is
// refused as a server without Streamable HTTP refuses it.
type chOld struct {
	ts       *httptest.Server
	rec      *chRecorder
	events   chan string
	endpoint string // the endpoint event's data
	postTo   int    // the status of POSTs to the endpoint (0: 202)
	refuse   int    // the status of a POST to /mcp (0: 405)
	body     string // its body
}

// newChOld starts a fake; adjust fields before the first request.
func newChOld(t *testing.T) *chOld {
	o := &chOld{events: make(chan string, 16), endpoint: "/messages?sessionId=abc"}
	o.ts, o.rec = chServe(t, http.HandlerFunc(o.serve))
	return o
}

func (o *chOld) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/mcp":
		send := startEvents(w)
		send("event: endpoint\ndata: " + o.endpoint + "\n\n")
		for {
			select {
			case ev, ok := <-o.events:
				if !ok {
					return
				}
				send(ev)
			case <-r.Context().Done():
				return
			}
		}
	case r.Method == http.MethodPost && r.URL.Path == "/messages":
		if r.URL.Query().Get("sessionId") != "abc" {
			http.Error(w, "unknown session", http.StatusNotFound)
			return
		}
		if o.postTo != 0 {
			http.Error(w, "refused", o.postTo)
			return
		}
		m := readFakeMsg(r)
		w.WriteHeader(http.StatusAccepted)
		if m.ID == nil {
			return
		}
		answer := `{"jsonrpc":"2.0","id":` + string(m.ID) + `,"error":{"code":-32601,"message":"Method not found"}}`
		switch m.Method {
		case "initialize":
			answer = chResult(m.ID, `{"protocolVersion":"2024-11-05","capabilities":{"tools":{}},"serverInfo":{"name":"old","version":"1"}}`)
		case "tools/list":
			answer = chResult(m.ID, `{"tools":[{"name":"t","inputSchema":{"type":"object"}}]}`)
		case "ping":
			answer = chResult(m.ID, `{}`)
		}
		o.events <- "event: message\ndata: " + answer + "\n\n"
	default:
		status, body := o.refuse, o.body
		if status == 0 {
			status, body = http.StatusMethodNotAllowed, "Method Not Allowed"
		}
		w.Header().Set("Content-Type", "text/plain")
		if strings.HasPrefix(body, "{") {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
}

// initialize sends initialize at 2024-11-05 and returns the result's
// version.
func (c *chLinked) initialize2024(t *testing.T) (string, error) {
	res, err := c.call(t, "initialize", chInitParams(mcp.Version20241105))
	if err != nil {
		return "", err
	}
	var got struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(t, json.Unmarshal(res, &got))
	return got.ProtocolVersion, nil
}

func TestStreamableHTTPClientFallsBackToHTTPPlusSSE(t *testing.T) {
	for _, status := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusMethodNotAllowed} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			old := newChOld(t)
			old.refuse, old.body = status, "no such thing here"
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: old.ts.URL + "/mcp"}, nil)
			v, err := c.initialize2024(t)
			require.NoError(t, err)
			assert.Equal(t, mcp.Version20241105, v)
			require.NoError(t, c.conn.Notify(chCtx(t), "notifications/initialized", nil))
			res, err := c.call(t, "tools/list", nil)
			require.NoError(t, err)
			assert.Contains(t, string(res), `"name":"t"`)
			assert.Equal(t, "http://"+old.ts.Listener.Addr().String()+"/mcp", c.link.Key(), "the era cache still names the URL given")

			var posts []string
			for _, s := range old.rec.all() {
				if s.Method == http.MethodPost {
					posts = append(posts, s.RPC)
				}
			}
			assert.Equal(t, []string{"initialize", "initialize", "notifications/initialized", "tools/list"}, posts,
				"initialize is sent again over HTTP+SSE, and everything after it")
			assert.Equal(t, 1, old.rec.count(http.MethodGet))
		})
	}
}

func TestStreamableHTTPClientFallsBackOnlyWhenItShould(t *testing.T) {
	tests := []struct {
		name    string
		refuse  int
		body    string
		disable bool
	}{
		{"fallback disabled", http.StatusMethodNotAllowed, "Method Not Allowed", true},
		{"a JSON-RPC error body is a Streamable HTTP server's answer", http.StatusBadRequest,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`, false},
		{"other statuses", http.StatusInternalServerError, "boom", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			old := newChOld(t)
			old.refuse, old.body = tt.refuse, tt.body
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: old.ts.URL + "/mcp", DisableSSEFallback: tt.disable}, nil)
			_, err := c.initialize2024(t)
			var herr *mcp.HTTPStatusError
			require.ErrorAs(t, err, &herr)
			assert.Equal(t, tt.refuse, herr.StatusCode)
			assert.Zero(t, old.rec.count(http.MethodGet))
		})
	}
}

func TestStreamableHTTPClientReportsAFailedFallback(t *testing.T) {
	old := newChOld(t)
	old.endpoint = "http://elsewhere.example:1/messages"
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: old.ts.URL + "/mcp"}, nil)
	_, err := c.initialize2024(t)
	var herr *mcp.HTTPStatusError
	require.ErrorAs(t, err, &herr, "the original refusal stays reachable")
	assert.Equal(t, http.StatusMethodNotAllowed, herr.StatusCode)
	assert.Contains(t, err.Error(), "HTTP+SSE transport failed too")
	assert.Contains(t, err.Error(), "not on the stream's origin")
}

func TestSSETransportTalksToAnHTTPPlusSSEServer(t *testing.T) {
	old := newChOld(t)
	old.endpoint = "messages?sessionId=abc" // relative to /mcp
	c := chConnect(t, &mcp.SSETransport{URL: old.ts.URL + "/mcp"}, nil)
	v, err := c.initialize2024(t)
	require.NoError(t, err)
	assert.Equal(t, mcp.Version20241105, v)
	_, err = c.call(t, "ping", nil)
	require.NoError(t, err)
	assert.False(t, c.link.Cancel(rpc.Int64ID(1)), "HTTP+SSE cancels with notifications/cancelled")
	assert.True(t, c.link.IsHTTP())
	get := old.rec.all()[0]
	assert.Equal(t, http.MethodGet, get.Method)
	assert.Equal(t, "text/event-stream", get.Header.Get("Accept"))
	for _, s := range old.rec.all()[1:] {
		assert.Equal(t, http.MethodPost, s.Method)
	}

	// The end of the stream is the end of the link.
	close(old.events)
	select {
	case <-c.conn.Done():
	case <-time.After(chTimeout):
		t.Fatal("the connection did not end with the stream")
	}
}

func TestSSETransportFailsACallTheEndpointRefuses(t *testing.T) {
	old := newChOld(t)
	old.postTo = http.StatusServiceUnavailable
	c := chConnect(t, &mcp.SSETransport{URL: old.ts.URL + "/mcp"}, nil)
	_, err := c.call(t, "ping", nil)
	var herr *mcp.HTTPStatusError
	require.ErrorAs(t, err, &herr)
	assert.Equal(t, http.StatusServiceUnavailable, herr.StatusCode)
	err = c.conn.Notify(chCtx(t), "notifications/initialized", nil)
	require.ErrorAs(t, err, &herr)
}

func TestSSETransportRefusesStreamsWithoutAUsableEndpoint(t *testing.T) {
	tests := []struct {
		name  string
		serve func(w http.ResponseWriter)
		want  string
	}{
		{"an endpoint on another origin", func(w http.ResponseWriter) {
			startEvents(w)("event: endpoint\ndata: http://127.0.0.2:9/x\n\n")
		}, "not on the stream's origin"},
		{"another scheme", func(w http.ResponseWriter) {
			startEvents(w)("event: endpoint\ndata: https://127.0.0.1/x\n\n")
		}, "not on the stream's origin"},
		{"no endpoint before the end", func(w http.ResponseWriter) {
			startEvents(w)("event: other\ndata: x\n\n")
		}, "ended before its endpoint event"},
		{"an empty endpoint", func(w http.ResponseWriter) { startEvents(w)("event: endpoint\ndata:\n\n") }, "not a URI"},
		{"not an event stream", func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, "{}") }, "not text/event-stream"},
		{"an HTTP error", func(w http.ResponseWriter) { http.Error(w, "gone", http.StatusGone) }, "HTTP 410"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.serve(w) }))
			_, err := mcp.DialHTTPLinkForTest(chCtx(t), &mcp.SSETransport{URL: ts.URL}, nil)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestSSETransportDialEndsWithItsContext(t *testing.T) {
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		startEvents(w)(": no endpoint yet\n\n")
		<-r.Context().Done()
	}))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := mcp.DialHTTPLinkForTest(ctx, &mcp.SSETransport{URL: ts.URL}, nil)
	require.Error(t, err)
}
