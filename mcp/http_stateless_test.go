package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// The 2026-07-28 side of the Streamable HTTP handler, driven with raw HTTP
// as the conformance suite drives it: one POST per request, the mirrored
// headers set by hand.

// newServerFixture puts a configured server behind a handler.
func newServerFixture(t *testing.T, s *mcp.Server, opts *mcp.HTTPOptions) *fixture {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(s, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		s.CloseSubscriptions()
		h.Close()
		ts.Close()
	})
	return &fixture{t: t, srv: s, h: h, ts: ts}
}

// geoSchema has one header param of each type.
const geoSchema = `{"type":"object","properties":{
	"region":{"type":"string","x-mcp-header":"Region"},
	"count":{"type":"integer","x-mcp-header":"Count"},
	"dry":{"type":"boolean","x-mcp-header":"Dry"},
	"note":{"type":"string"}}}`

// newStatelessFixture serves both eras with a few tools, a prompt and a
// resource.
func newStatelessFixture(t *testing.T, sopts *mcp.ServerOptions, hopts *mcp.HTTPOptions) *fixture {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, sopts)
	echoTool(t, s)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "geo", InputSchema: json.RawMessage(geoSchema)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("ok")}}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "steps", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i := range 3 {
				if err := req.Progress(ctx, float64(i+1), 3, ""); err != nil {
					return nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
		}))
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "greet"},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: mcp.Text("hi")}}}, nil
		}))
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://one", Name: "one"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", "x")}}, nil
		}))
	return newServerFixture(t, s, hopts)
}

// statelessBody is a 2026-07-28 request with the stateless _meta, declaring
// every client capability.
func statelessBody(t *testing.T, id any, method string, params map[string]any, meta map[string]any) string {
	t.Helper()
	return statelessBodyCaps(t, id, method, params, fullCaps, meta)
}

// statelessBodyCaps is statelessBody with the client capabilities given as JSON.
func statelessBodyCaps(t *testing.T, id any, method string, params map[string]any, caps string, meta map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method,
		"params": statelessParams(params, caps, meta)})
	require.NoError(t, err)
	return string(b)
}

// mirrored returns the headers a client mirrors for a request: the
// version, Mcp-Method and, when name is not empty, Mcp-Name; then extra
// header/value pairs.
func mirrored(method, name string, extra ...string) []string {
	out := []string{mcp.HeaderProtocolVersion, mcp.Version20260728, mcp.HeaderMethod, method}
	if name != "" {
		out = append(out, mcp.HeaderName, name)
	}
	return append(out, extra...)
}

// answer reads the response message of a 2026-07-28 answer: the one JSON
// message, or the last event of a one-request SSE stream (the default for
// results).
func answer(t *testing.T, resp *http.Response) message {
	t.Helper()
	if resp.Header.Get("Content-Type") == "text/event-stream" {
		r := newSSE(t, resp)
		var last string
		for {
			ev, err := r.next()
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			last = ev.Data
		}
		require.NotEmpty(t, last, "an SSE answer without events")
		return decode(t, last)
	}
	require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return decode(t, string(b))
}

func TestStatelessRequestsMintNoSession(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	resp := f.post("", statelessBody(t, 1, "tools/list", nil, nil), mirrored("tools/list", "")...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Empty(t, resp.Header.Get(mcp.HeaderSessionID), "no session is ever minted")
	m := answer(t, resp)
	assert.Equal(t, "1", string(m.ID))
	require.NotNil(t, m.Result)
	assert.Equal(t, "complete", m.Result["resultType"])
	assert.Len(t, m.Result["tools"], 3)
	assert.Equal(t, 0, mcp.SessionCountForTest(f.h))
}

func TestStatelessRoutingPerRequest(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	session := f.initialize(mcp.Version20251125)
	list := statelessBody(t, 2, "tools/list", nil, nil)
	tests := []struct {
		name   string
		body   string
		hdr    []string
		status int
		code   int // 0: a result
	}{
		{name: "2026 header and _meta: stateless", body: list, hdr: mirrored("tools/list", ""), status: 200},
		{name: "an unknown header version reaches the stateless validator",
			body: statelessBody(t, 2, "tools/list", nil, map[string]any{"io.modelcontextprotocol/protocolVersion": "v999.0.0"}),
			hdr:  []string{mcp.HeaderProtocolVersion, "v999.0.0", mcp.HeaderMethod, "tools/list"}, status: 400, code: -32022},
		{name: "initialize with the 2026 header is not found",
			body: statelessBody(t, 2, "initialize", map[string]any{"protocolVersion": mcp.Version20251125, "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "t", "version": "1"}}, nil),
			hdr: mirrored("initialize", ""), status: 404, code: -32601},
		{name: "a removed method with the 2026 header is not found",
			body: statelessBody(t, 2, "ping", nil, nil), hdr: mirrored("ping", ""), status: 404, code: -32601},
		{name: "_meta without the header",
			body: list, hdr: []string{mcp.HeaderMethod, "tools/list"}, status: 400, code: -32020},
		{name: "the 2026 header without _meta", body: `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			hdr: mirrored("tools/list", ""), status: 400, code: -32602},
		{name: "a session id on a stateless request is ignored", body: list,
			hdr: append(mirrored("tools/list", ""), mcp.HeaderSessionID, "no-such-session"), status: 200},
		{name: "a dated header with a session: handshake", body: `{"jsonrpc":"2.0","id":2,"method":"ping"}`,
			hdr: []string{mcp.HeaderSessionID, session, mcp.HeaderProtocolVersion, mcp.Version20251125}, status: 200},
		{name: "a session without a header: handshake", body: `{"jsonrpc":"2.0","id":3,"method":"ping"}`,
			hdr: []string{mcp.HeaderSessionID, session}, status: 200},
		{name: "neither: handshake, which wants a session", body: `{"jsonrpc":"2.0","id":2,"method":"ping"}`, status: 400, code: -32600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := f.post("", tt.body, tt.hdr...)
			assert.Equal(t, tt.status, resp.StatusCode)
			msgs := messages(t, resp)
			require.Len(t, msgs, 1)
			if tt.code == 0 {
				assert.Nil(t, msgs[0].Error)
				return
			}
			require.NotNil(t, msgs[0].Error)
			assert.Equal(t, tt.code, msgs[0].Error.Code, msgs[0].Error.Message)
		})
	}
	t.Run("initialize without a header starts a handshake session", func(t *testing.T) {
		assert.NotEmpty(t, f.initialize(mcp.Version20250618))
	})
}

func TestStatelessErrorsEchoTheRequestID(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	for _, tc := range []struct {
		name string
		hdr  []string
	}{
		{"-32020", []string{mcp.HeaderProtocolVersion, mcp.Version20260728}},
		{"-32601", mirrored("nope/nope", "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := answer(t, f.post("", statelessBody(t, "req-7", "nope/nope", nil, nil), tc.hdr...))
			assert.Equal(t, `"req-7"`, string(m.ID))
			require.NotNil(t, m.Error)
		})
	}
}

func TestStatelessGETAndDELETEAreNotAllowed(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	for _, method := range []string{http.MethodGet, http.MethodDelete, http.MethodPut} {
		t.Run(method, func(t *testing.T) {
			resp := f.request(method, "", map[string]string{mcp.HeaderProtocolVersion: mcp.Version20260728, "Accept": "text/event-stream"})
			assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
			assert.Equal(t, http.MethodPost, resp.Header.Get("Allow"))
			errorBody(t, resp)
		})
	}
}

func TestAStatelessOnlyServer(t *testing.T) {
	f := newStatelessFixture(t, &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20260728}}, nil)
	t.Run("GET and DELETE are not allowed, with or without a session", func(t *testing.T) {
		for _, hdr := range []map[string]string{
			{"Accept": "text/event-stream"},
			{"Accept": "text/event-stream", mcp.HeaderSessionID: "abc"},
			{"Accept": "text/event-stream", mcp.HeaderProtocolVersion: mcp.Version20251125},
		} {
			for _, method := range []string{http.MethodGet, http.MethodDelete} {
				resp := f.request(method, "", hdr)
				assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "%s %v", method, hdr)
			}
		}
	})
	t.Run("initialize is refused with the served versions", func(t *testing.T) {
		msgs := messages(t, f.post("", fmt.Sprintf(initMessage, mcp.Version20251125)))
		require.Len(t, msgs, 1)
		require.NotNil(t, msgs[0].Error)
		assert.Equal(t, mcp.CodeUnsupportedVersion, msgs[0].Error.Code)
		assert.JSONEq(t, `{"supported":["2026-07-28"],"requested":"2025-11-25"}`, string(msgs[0].Error.Data))
		assert.Equal(t, 0, mcp.SessionCountForTest(f.h), "the failed initialize leaves no session")
	})
	t.Run("a request without header or _meta lacks the header", func(t *testing.T) {
		resp := f.post("", `{"jsonrpc":"2.0","id":5,"method":"ping"}`)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		m := answer(t, resp)
		require.NotNil(t, m.Error)
		assert.Equal(t, mcp.CodeHeaderMismatch, m.Error.Code)
		assert.Equal(t, "5", string(m.ID))
	})
	t.Run("stateless requests are served", func(t *testing.T) {
		resp := f.post("", statelessBody(t, 1, "tools/list", nil, nil), mirrored("tools/list", "")...)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
	})
}

func TestStatelessPOSTHeadersAreChecked(t *testing.T) {
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{MaxBodyBytes: 1024})
	body := statelessBody(t, 1, "tools/list", nil, nil)
	send := func(hdr map[string]string, body string) *http.Response {
		for i := 0; i+1 < len(mirrored("tools/list", "")); i += 2 {
			hdr[mirrored("tools/list", "")[i]] = mirrored("tools/list", "")[i+1]
		}
		return f.request(http.MethodPost, body, hdr)
	}
	tests := []struct {
		name   string
		hdr    map[string]string
		body   string
		status int
	}{
		{"Accept without event-stream", map[string]string{"Content-Type": "application/json", "Accept": "application/json"}, body, 406},
		{"Accept without JSON", map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream"}, body, 406},
		{"no Accept", map[string]string{"Content-Type": "application/json"}, body, 406},
		{"wildcard Accept", map[string]string{"Content-Type": "application/json", "Accept": "*/*"}, body, 200},
		{"another Content-Type", map[string]string{"Content-Type": "text/plain", "Accept": acceptBoth}, body, 415},
		{"a body over the limit", map[string]string{"Content-Type": "application/json", "Accept": acceptBoth}, strings.Repeat(" ", 2000) + body, 413},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := send(tt.hdr, tt.body)
			assert.Equal(t, tt.status, resp.StatusCode)
			if tt.status != 200 {
				errorBody(t, resp)
			}
		})
	}
}

func TestStatelessBodyIsExactlyOneRequestOrNotification(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	tests := []struct {
		name, body string
		code       int
		id         string
	}{
		{"not JSON", `{"jsonrpc":`, -32700, "null"},
		{"a batch", "[" + statelessBody(t, 1, "tools/list", nil, nil) + "]", -32600, "null"},
		{"not an object", `"tools/list"`, -32600, "null"},
		{"a response", `{"jsonrpc":"2.0","id":1,"result":{}}`, -32600, "1"},
		{"a wrong jsonrpc version", `{"jsonrpc":"1.0","id":4,"method":"tools/list"}`, -32600, "4"},
		{"a null id", `{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, -32600, "null"},
		{"a method that is no string", `{"jsonrpc":"2.0","id":4,"method":7}`, -32600, "4"},
		{"scalar params", `{"jsonrpc":"2.0","id":4,"method":"tools/list","params":3}`, -32600, "4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := f.post("", tt.body, mirrored("tools/list", "")...)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			m := answer(t, resp)
			require.NotNil(t, m.Error)
			assert.Equal(t, tt.code, m.Error.Code)
			assert.Equal(t, tt.id, string(m.ID))
		})
	}
}

func TestAStatelessNotificationIsAccepted(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	body := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	resp := f.post("", body, mcp.HeaderProtocolVersion, mcp.Version20260728)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Empty(t, b)
}

func TestStatelessHeadersMustMirrorTheBody(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	geo := func(args map[string]any) string {
		return statelessBody(t, 9, "tools/call", map[string]any{"name": "geo", "arguments": args}, nil)
	}
	prompt := statelessBody(t, 9, "prompts/get", map[string]any{"name": "greet"}, nil)
	read := statelessBody(t, 9, "resources/read", map[string]any{"uri": "test://one"}, nil)
	list := statelessBody(t, 9, "tools/list", nil, nil)
	tests := []struct {
		name string
		body string
		hdr  map[string]string // set verbatim, names as written
		bad  string            // the header the error names; "" = accepted
	}{
		{name: "all mirrored", body: list, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}},
		{name: "names in any case", body: list, hdr: map[string]string{"mcp-protocol-version": "2026-07-28", "MCP-METHOD": "tools/list"}},
		{name: "whitespace around values", body: list, hdr: map[string]string{"MCP-Protocol-Version": " 2026-07-28", "Mcp-Method": "tools/list\t"}},
		{name: "Mcp-Method missing", body: list, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28"}, bad: "Mcp-Method"},
		{name: "Mcp-Method differs", body: list, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/list"}, bad: "Mcp-Method"},
		{name: "Mcp-Method in another case", body: list, hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "TOOLS/LIST"}, bad: "Mcp-Method"},
		{name: "header version differs from _meta", body: statelessBody(t, 9, "tools/list", nil, map[string]any{"io.modelcontextprotocol/protocolVersion": "v999.0.0"}),
			hdr: map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/list"}, bad: "Mcp-Protocol-Version"},
		{name: "prompt name mirrored", body: prompt, hdr: hdrs(mirrored("prompts/get", "greet"))},
		{name: "prompt name missing", body: prompt, hdr: hdrs(mirrored("prompts/get", "")), bad: "Mcp-Name"},
		{name: "prompt name differs", body: prompt, hdr: hdrs(mirrored("prompts/get", "greeting")), bad: "Mcp-Name"},
		{name: "resource URI mirrored", body: read, hdr: hdrs(mirrored("resources/read", "test://one"))},
		{name: "resource URI in base64", body: read, hdr: hdrs(mirrored("resources/read", "=?base64?dGVzdDovL29uZQ==?="))},
		{name: "resource URI differs", body: read, hdr: hdrs(mirrored("resources/read", "test://two")), bad: "Mcp-Name"},
		{name: "tool name differs", body: geo(nil), hdr: hdrs(mirrored("tools/call", "echo")), bad: "Mcp-Name"},
		{name: "tool params mirrored", body: geo(map[string]any{"region": "us-west1", "count": 3, "dry": false, "note": "n"}),
			hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "us-west1", "mcp-param-count", "3", "MCP-PARAM-DRY", "false"))},
		{name: "tool params absent need no header", body: geo(map[string]any{"note": "n"}), hdr: hdrs(mirrored("tools/call", "geo"))},
		{name: "a null tool param needs no header", body: geo(map[string]any{"region": nil}), hdr: hdrs(mirrored("tools/call", "geo"))},
		{name: "a string param missing", body: geo(map[string]any{"region": "eu"}), hdr: hdrs(mirrored("tools/call", "geo")), bad: "Mcp-Param-Region"},
		{name: "a string param differs", body: geo(map[string]any{"region": "eu"}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "us")), bad: "Mcp-Param-Region"},
		{name: "a string param in base64", body: geo(map[string]any{"region": "Zürich"}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "=?base64?WsO8cmljaA==?="))},
		{name: "leading spaces kept in base64", body: geo(map[string]any{"region": "  x"}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "=?base64?ICB4?="))},
		{name: "base64 with bad padding", body: geo(map[string]any{"region": "Zürich"}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "=?base64?WsO8cmljaA?=")), bad: "Mcp-Param-Region"},
		{name: "base64 with bad characters", body: geo(map[string]any{"region": "Zürich"}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "=?base64?WsO8c*ljaA==?=")), bad: "Mcp-Param-Region"},
		{name: "an incomplete wrapper is literal", body: geo(map[string]any{"region": "=?base64?YQ=="}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Region", "=?base64?YQ=="))},
		{name: "an integer param differs", body: geo(map[string]any{"count": 3}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Count", "4")), bad: "Mcp-Param-Count"},
		{name: "an integer compared numerically", body: `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"geo","arguments":{"count":3.0},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
			hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Count", "3"))},
		{name: "a boolean param differs", body: geo(map[string]any{"dry": true}), hdr: hdrs(mirrored("tools/call", "geo", "Mcp-Param-Dry", "false")), bad: "Mcp-Param-Dry"},
		{name: "a boolean param missing", body: geo(map[string]any{"dry": false}), hdr: hdrs(mirrored("tools/call", "geo")), bad: "Mcp-Param-Dry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL, strings.NewReader(tt.body))
			require.NoError(t, err)
			req.Header["Content-Type"] = []string{"application/json"}
			req.Header["Accept"] = []string{acceptBoth}
			for k, v := range tt.hdr {
				req.Header[k] = []string{v} // as written, not canonicalized
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			msgs := messages(t, resp)
			require.Len(t, msgs, 1)
			assert.Equal(t, "9", string(msgs[0].ID))
			if tt.bad == "" {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
				assert.Nil(t, msgs[0].Error)
				return
			}
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			require.NotNil(t, msgs[0].Error)
			assert.Equal(t, mcp.CodeHeaderMismatch, msgs[0].Error.Code)
			assert.Contains(t, msgs[0].Error.Message, tt.bad)
		})
	}
}

// hdrs turns header/value pairs into a map.
func hdrs(pairs []string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

func TestAStatelessAnswerIsJSONUntilANotificationMustGoFirst(t *testing.T) {
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{JSONResponse: true})
	t.Run("no notification: JSON", func(t *testing.T) {
		body := statelessBody(t, 1, "tools/call", map[string]any{"name": "steps"}, nil)
		resp := f.post("", body, mirrored("tools/call", "steps")...)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		m := answer(t, resp)
		assert.Equal(t, "complete", m.Result["resultType"])
	})
	t.Run("progress: SSE with the notifications before the response", func(t *testing.T) {
		body := statelessBody(t, 2, "tools/call", map[string]any{"name": "steps"}, map[string]any{"progressToken": "p1"})
		resp := f.post("", body, mirrored("tools/call", "steps")...)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))
		assert.Empty(t, resp.Header.Get(mcp.HeaderSessionID))
		evs := newSSE(t, resp).all(t)
		require.Len(t, evs, 4)
		for i, ev := range evs {
			assert.False(t, ev.HasID, "no event ids: the stream cannot be resumed")
			m := decode(t, ev.Data)
			if i < 3 {
				assert.Equal(t, "notifications/progress", m.Method)
				assert.Equal(t, "p1", m.Params["progressToken"])
				assert.EqualValues(t, i+1, m.Params["progress"])
				continue
			}
			assert.Equal(t, "2", string(m.ID))
			assert.Equal(t, "complete", m.Result["resultType"])
		}
	})
}

func TestConcurrentStatelessRequestsAreIndependent(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	done := make(chan int, 3)
	for id := 1000; id < 1003; id++ {
		go func() {
			resp := f.post("", statelessBody(t, id, "tools/list", nil, nil), mirrored("tools/list", "")...)
			if resp.StatusCode == http.StatusOK {
				done <- id
			} else {
				done <- -1
			}
		}()
	}
	for range 3 {
		select {
		case id := <-done:
			assert.Positive(t, id)
		case <-time.After(5 * time.Second):
			t.Fatal("a request was not answered")
		}
	}
}

func TestClosingTheResponseCancelsAStatelessRequest(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	for _, sse := range []bool{false, true} {
		t.Run(fmt.Sprintf("sse=%v", sse), func(t *testing.T) {
			// The tool reports progress first: with a progress token the
			// answer is an SSE stream by then, without one it is still to
			// be a JSON answer.
			name := fmt.Sprintf("wait_%v", sse)
			started, ended := make(chan struct{}), make(chan struct{})
			require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: name}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				_ = req.Progress(ctx, 1, 0, "waiting")
				close(started)
				select {
				case <-ctx.Done():
					close(ended)
					return nil, ctx.Err()
				case <-time.After(5 * time.Second):
					return &mcp.CallToolResult{}, nil
				}
			}))
			meta := map[string]any{}
			if sse {
				meta["progressToken"] = 1
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL,
				strings.NewReader(statelessBody(t, 1, "tools/call", map[string]any{"name": name}, meta)))
			require.NoError(t, err)
			req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {acceptBoth}}
			for k, v := range hdrs(mirrored("tools/call", name)) {
				req.Header.Set(k, v)
			}
			errc := make(chan error, 1)
			go func() {
				resp, err := http.DefaultClient.Do(req)
				if err == nil {
					if sse && resp.Header.Get("Content-Type") != "text/event-stream" {
						err = fmt.Errorf("want an SSE answer, have %q", resp.Header.Get("Content-Type"))
					}
					resp.Body.Close()
				}
				errc <- err
			}()
			select {
			case <-started:
			case <-time.After(5 * time.Second):
				t.Fatal("the tool did not start")
			}
			if sse {
				// The stream has begun: closing its body is the cancellation.
				select {
				case err := <-errc:
					require.NoError(t, err)
				case <-time.After(5 * time.Second):
					t.Fatal("no SSE answer")
				}
			} else {
				cancel()
			}
			select {
			case <-ended:
			case <-time.After(5 * time.Second):
				t.Fatal("closing the response did not cancel the request")
			}
		})
	}
}

func TestAStatelessListenStreamStaysOpen(t *testing.T) {
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{KeepAlive: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := statelessBody(t, "L1", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	resp, err := postStream(ctx, f.ts.URL, body, mirrored("subscriptions/listen", ""))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assert.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))

	lines := bufio.NewReader(resp.Body)
	// next returns the message of the next data line, skipping comments.
	next := func() message {
		t.Helper()
		for range 1000 {
			line, err := lines.ReadString('\n')
			require.NoError(t, err)
			assert.False(t, strings.HasPrefix(line, "id:"), "an event id on a 2026-07-28 stream: %q", line)
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				return decode(t, data)
			}
		}
		t.Fatal("no data")
		return message{}
	}
	ack := next()
	assert.Equal(t, "notifications/subscriptions/acknowledged", ack.Method)

	// Silence: keep-alive comments arrive (one per 20 ms).
	keepAlive := false
	for i := 0; i < 100 && !keepAlive; i++ {
		line, err := lines.ReadString('\n')
		require.NoError(t, err)
		keepAlive = line == ": keep-alive\n"
	}
	assert.True(t, keepAlive, "a keep-alive comment on a silent stream")

	// A change is announced on the stream, tagged with the listen's id.
	echoTool(t, f.srv)
	changed := next()
	assert.Equal(t, "notifications/tools/list_changed", changed.Method)
	assert.Equal(t, map[string]any{"io.modelcontextprotocol/subscriptionId": "L1"}, changed.Params["_meta"])

	// A graceful end: the listen result ends the stream.
	f.srv.CloseSubscriptions()
	result := next()
	assert.Equal(t, `"L1"`, string(result.ID))
	assert.Equal(t, "complete", result.Result["resultType"])
	_, err = io.ReadAll(lines)
	assert.NoError(t, err, "the stream ends after the result")
}

func TestClosingAListenStreamEndsTheListen(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	body := statelessBody(t, 1, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	resp, err := postStream(ctx, f.ts.URL, body, mirrored("subscriptions/listen", ""))
	require.NoError(t, err)
	ev, err := newSSE(t, resp).next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/subscriptions/acknowledged", decode(t, ev.Data).Method)
	cancel()
	resp.Body.Close()
	// The handler returns once the listen is over: the httptest server
	// then has no request in flight, and Close would otherwise block.
	closed := make(chan struct{})
	go func() {
		f.ts.Close()
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("the listen outlived its stream")
	}
}

func TestAHandshakeSessionAndStatelessRequestsShareTheEndpoint(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	session := f.initialize(mcp.Version20251125)
	for i := range 3 {
		m := answer(t, f.post("", statelessBody(t, 100+i, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}, nil),
			mirrored("tools/call", "echo")...))
		assert.Equal(t, "complete", m.Result["resultType"])

		msgs := messages(t, f.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, 200+i),
			mcp.HeaderProtocolVersion, mcp.Version20251125))
		require.Len(t, msgs, 1)
		require.NotNil(t, msgs[0].Result)
		assert.NotContains(t, msgs[0].Result, "resultType", "the session speaks 2025-11-25")
	}
	assert.Equal(t, 1, mcp.SessionCountForTest(f.h))
}

func TestStatelessErrorStatuses(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: "panics"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("deliberate")
	}))
	require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: "needs_sampling"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, mcp.MissingCapability(&mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}})
	}))
	tests := []struct {
		name   string
		body   string
		hdr    []string
		status int
		code   int
	}{
		{"an unknown tool is an ordinary error", statelessBody(t, 1, "tools/call", map[string]any{"name": "nope"}, nil), mirrored("tools/call", "nope"), 200, -32602},
		{"a missing capability", statelessBodyCaps(t, 1, "tools/call", map[string]any{"name": "needs_sampling"}, "{}", nil), mirrored("tools/call", "needs_sampling"), 400, -32021},
		{"an unknown method", statelessBody(t, 1, "nope", nil, nil), mirrored("nope", ""), 404, -32601},
		{"a handler that panics", statelessBody(t, 1, "tools/call", map[string]any{"name": "panics"}, nil), mirrored("tools/call", "panics"), 200, -32603},
		{"_meta without capabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			mirrored("tools/list", ""), 400, -32602},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := f.post("", tt.body, tt.hdr...)
			assert.Equal(t, tt.status, resp.StatusCode)
			m := answer(t, resp)
			require.NotNil(t, m.Error)
			assert.Equal(t, tt.code, m.Error.Code)
			assert.Equal(t, "1", string(m.ID))
		})
	}
}

func TestDNSRebindingIsRefusedOnStatelessRequests(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	discover := statelessBody(t, 1, "server/discover", nil, nil)
	for _, tc := range []struct {
		name   string
		hdr    []string
		status int
	}{
		{"the real host", nil, http.StatusOK},
		{"a foreign Origin", []string{"Origin", "http://evil.example.com"}, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.post("", discover, append(mirrored("server/discover", ""), tc.hdr...)...)
			assert.Equal(t, tc.status, resp.StatusCode)
		})
	}
	t.Run("a foreign Host", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL, strings.NewReader(discover))
		require.NoError(t, err)
		req.Host = "evil.example.com"
		req.Header = http.Header{"Content-Type": {"application/json"}, "Accept": {acceptBoth}}
		for k, v := range hdrs(mirrored("server/discover", "")) {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
	})
}

func TestJSONResponseModeLeavesStatelessStreamsAlone(t *testing.T) {
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{JSONResponse: true})
	body := statelessBody(t, 1, "tools/call", map[string]any{"name": "steps"}, map[string]any{"progressToken": 7})
	resp := f.post("", body, mirrored("tools/call", "steps")...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	msgs := messages(t, resp)
	require.Len(t, msgs, 4, "three progress notifications, then the result, on SSE")
	assert.Equal(t, "notifications/progress", msgs[0].Method)
	assert.Equal(t, "1", string(msgs[3].ID))
}

func TestAStatelessResultIsAnSSEStreamByDefault(t *testing.T) {
	f := newStatelessFixture(t, nil, nil)
	resp := f.post("", statelessBody(t, 1, "tools/list", nil, nil), mirrored("tools/list", "")...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	assert.Equal(t, "complete", answer(t, resp).Result["resultType"])

	t.Run("errors stay JSON with their status", func(t *testing.T) {
		resp := f.post("", statelessBody(t, 2, "tools/call", map[string]any{"name": "nope"}, nil), mirrored("tools/call", "nope")...)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
		assert.NotNil(t, answer(t, resp).Error)
	})
}
