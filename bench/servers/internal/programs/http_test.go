package programs_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/gosdk"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}`

// reply is the part of a JSON-RPC reply the tests read.
type reply struct {
	ID     int `json:"id"`
	Result struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
		ResultType        string         `json:"resultType"`
		IsError           bool           `json:"isError"`
		ProtocolVersion   string         `json:"protocolVersion"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// served is a program serving Streamable HTTP on a loopback port.
type served struct {
	url  string
	stop context.CancelFunc
	done chan error
}

func serveProgram(t *testing.T, p serve.Program, f serve.Flags) *served {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{url: "http://" + ln.Addr().String() + serve.Path, stop: cancel, done: make(chan error, 1)}
	go func() { s.done <- serve.ServeHTTP(ctx, ln, p, f) }()
	return s
}

// shutdown stops the server and checks that it ends cleanly.
func (s *served) shutdown(t *testing.T) {
	t.Helper()
	s.stop()
	select {
	case err := <-s.done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not shut down")
	}
}

// post sends one message with headers (name, value pairs) and returns the
// response and, for a request, its JSON-RPC reply, read from a JSON body
// or from the SSE stream.
func post(t *testing.T, url, body string, headers ...string) (*http.Response, *reply) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	client := &http.Client{Timeout: 10 * time.Second}
	resp, err := client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusAccepted {
		return resp, nil
	}
	var msg []byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			data, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
			if ok && bytes.Contains(data, []byte(`"id"`)) {
				msg = bytes.Clone(bytes.TrimSpace(data))
				break
			}
		}
	} else {
		var buf bytes.Buffer
		_, err := buf.ReadFrom(resp.Body)
		require.NoError(t, err)
		msg = buf.Bytes()
	}
	var r reply
	require.NoError(t, json.Unmarshal(msg, &r), "status %d, body %q", resp.StatusCode, msg)
	return resp, &r
}

// callLines are the two tools/call of the surface and their expected text.
var calls = []struct {
	tool, args, text string
	sum              any
}{
	{"add", `{"a":1.5,"b":2}`, "3.5", 3.5},
	{"echo", `{"text":"héllo \"x\""}`, `héllo "x"`, nil},
}

func callBody(id, tool, args, meta string) string {
	if meta != "" {
		meta = "," + meta
	}
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + meta + `}}`
}

func checkCall(t *testing.T, r *reply, id int, text string, sum any) {
	t.Helper()
	require.NotNil(t, r)
	require.Nil(t, r.Error)
	assert.Equal(t, id, r.ID)
	assert.False(t, r.Result.IsError)
	require.Len(t, r.Result.Content, 1)
	assert.Equal(t, "text", r.Result.Content[0].Type)
	assert.Equal(t, text, r.Result.Content[0].Text)
	if sum != nil {
		assert.Equal(t, map[string]any{"sum": sum}, r.Result.StructuredContent)
	}
}

func TestEveryProgramServesTheHandshakeEraOverHTTP(t *testing.T) {
	for _, p := range all {
		t.Run(p.Name, func(t *testing.T) {
			s := serveProgram(t, p, serve.Flags{HTTP: "127.0.0.1:0"})
			defer s.shutdown(t)
			resp, r := post(t, s.url, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			require.Nil(t, r.Error)
			assert.Equal(t, "2025-11-25", r.Result.ProtocolVersion)
			sid := resp.Header.Get("Mcp-Session-Id")
			require.NotEmpty(t, sid, "initialize must open a session")
			session := []string{"Mcp-Session-Id", sid, "Mcp-Protocol-Version", "2025-11-25"}
			resp, _ = post(t, s.url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, session...)
			assert.Equal(t, http.StatusAccepted, resp.StatusCode)
			for i, c := range calls {
				resp, r := post(t, s.url, callBody(strconv.Itoa(i+2), c.tool, c.args, ""), session...)
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				checkCall(t, r, i+2, c.text, c.sum)
			}
		})
	}
}

func TestEveryProgramServesStatelessRequestsOverHTTP(t *testing.T) {
	for _, p := range all {
		t.Run(p.Name, func(t *testing.T) {
			s := serveProgram(t, p, serve.Flags{HTTP: "127.0.0.1:0", Stateless: true})
			defer s.shutdown(t)
			for i, c := range calls {
				resp, r := post(t, s.url, callBody(strconv.Itoa(i+1), c.tool, c.args, statelessMeta),
					"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", c.tool)
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				assert.Empty(t, resp.Header.Get("Mcp-Session-Id"), "a stateless reply opens no session")
				checkCall(t, r, i+1, c.text, c.sum)
				assert.Equal(t, "complete", r.Result.ResultType)
			}
		})
	}
}

func TestGoSDKRefusesStatelessRequestsWithoutTheStatelessFlag(t *testing.T) {
	s := serveProgram(t, gosdk.Program, serve.Flags{HTTP: "127.0.0.1:0"})
	defer s.shutdown(t)
	req, err := http.NewRequest(http.MethodPost, s.url, strings.NewReader(callBody("1", "echo", `{"text":"x"}`, statelessMeta)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "echo")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
}
