package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// recorder is middleware that notes each message it wraps: its method,
// whether a session was in the context, and the error code of the answer.
type recorder struct {
	mu   sync.Mutex
	seen []string
}

func (r *recorder) middleware(next rpc.Handler) rpc.Handler {
	return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		res, err := next.Handle(ctx, req)
		entry := req.Method
		if mcp.SessionFromContext(ctx) != nil {
			entry += " (session)"
		}
		var rerr *rpc.Error
		if errorsAs(err, &rerr) {
			entry += fmt.Sprintf(" %d", rerr.Code)
		}
		r.mu.Lock()
		r.seen = append(r.seen, entry)
		r.mu.Unlock()
		return res, err
	})
}

func (r *recorder) entries() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

func errorsAs(err error, target **rpc.Error) bool {
	if err == nil {
		return false
	}
	e, ok := err.(*rpc.Error)
	if ok {
		*target = e
	}
	return ok
}

// appEcho is a custom method whose params schema allows the 2026-07-28
// _meta beside its own member.
func appEcho(t *testing.T, s *mcp.Server) {
	t.Helper()
	require.NoError(t, s.Register("app/echo", rpc.Method{
		Params: compileSchema(t, `{"type":"object","properties":{"say":{"type":"string"},"_meta":{"type":"object"}},"required":["say"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			var p struct {
				Say string `json:"say"`
			}
			if err := req.DecodeParams(&p); err != nil {
				return nil, err
			}
			return map[string]string{"heard": p.Say}, nil
		},
	}))
}

func TestMiddlewareWrapsEveryIncomingMessageOfASession(t *testing.T) {
	in := &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Middleware: []rpc.Middleware{in.middleware}})
	echoTool(t, s)
	appEcho(t, s)
	// A plain connection: the harness's schema checker knows MCP only.
	c := plainSession(t, s)
	_, rerr := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}})
	require.Nil(t, rerr)
	_, rerr = c.call(t, "no/such", nil)
	require.NotNil(t, rerr)
	res, rerr := c.call(t, "app/echo", map[string]any{"say": "custom"})
	require.Nil(t, rerr)
	assert.JSONEq(t, `{"heard":"custom"}`, string(res))
	_, rerr = c.call(t, "app/echo", map[string]any{"shout": 1})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code, "a custom method's params are validated")

	// Notifications run beside requests, so neither the order nor the
	// moment notifications/initialized is recorded is pinned.
	require.Eventually(t, func() bool { return len(in.entries()) == 6 }, 5*time.Second, time.Millisecond)
	assert.ElementsMatch(t, []string{
		"initialize (session)", "notifications/initialized (session)", "tools/call (session)",
		"no/such (session) -32601", "app/echo (session)", "app/echo (session) -32602",
	}, in.entries())
}

func TestOutgoingMiddlewareWrapsWhatTheServerSends(t *testing.T) {
	out := &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Outgoing: []rpc.Middleware{out.middleware}})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "steps", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Progress(ctx, 1, 1, ""); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
		}))
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "tools/call", map[string]any{"name": "steps", "arguments": map[string]any{}, "_meta": map[string]any{"progressToken": 7}})
	require.Nil(t, rerr)
	assert.Contains(t, out.entries(), "notifications/progress (session)", "the progress notification went through the outgoing middleware")
}

func TestMiddlewareAndCustomMethodsOnStatelessHTTP(t *testing.T) {
	in, out := &recorder{}, &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{
		Middleware: []rpc.Middleware{in.middleware}, Outgoing: []rpc.Middleware{out.middleware}})
	appEcho(t, s)
	f := newServerFixture(t, s, &mcp.HTTPOptions{JSONResponse: true})

	resp := f.post("", statelessBody(t, 1, "app/echo", map[string]any{"say": "stateless"}, nil), mirrored("app/echo", "")...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	msg := answer(t, resp)
	assert.Equal(t, "stateless", msg.Result["heard"])

	resp = f.post("", statelessBody(t, 2, "tools/list", nil, nil), mirrored("tools/list", "")...)
	msg = answer(t, resp)
	require.NotNil(t, msg.Error, "no tools capability: -32601")

	assert.Equal(t, []string{"app/echo", fmt.Sprintf("tools/list %d", msg.Error.Code)}, in.entries())
}

func TestRegisterRefusesProtocolNamesAndDuplicates(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := func(ctx context.Context, req *rpc.Request) (any, error) { return "ok", nil }
	for _, name := range []string{"tools/call", "initialize", "ping", "notifications/custom", "server/discover", "subscriptions/listen"} {
		assert.Error(t, s.Register(name, rpc.Method{Handler: h}), name)
	}
	assert.Error(t, s.Register("", rpc.Method{Handler: h}))
	assert.Error(t, s.Register("app/x", rpc.Method{}))
	require.NoError(t, s.Register("app/x", rpc.Method{Handler: h}))
	assert.Error(t, s.Register("app/x", rpc.Method{Handler: h}), "a second registration")
}

// compileSchema compiles a JSON Schema given as text.
func compileSchema(t *testing.T, text string) *rpc.Schema {
	t.Helper()
	s, err := rpc.NewSchemaSet(map[string]string{"https://example.test/custom.json": text}).Compile("https://example.test/custom.json")
	require.NoError(t, err)
	return s
}

// plain is a client connection with no schema checker in the way.
type plain struct{ conn *rpc.Conn }

func (p plain) call(t *testing.T, method string, params any) (json.RawMessage, *rpc.Error) {
	t.Helper()
	var res json.RawMessage
	err := p.conn.Call(context.Background(), method, params, &res)
	if err == nil {
		return res, nil
	}
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	return nil, rerr
}

// plainSession serves a session of s over a pipe and initializes it.
func plainSession(t *testing.T, s *mcp.Server) plain {
	t.Helper()
	srvEnd, cliEnd := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, srvEnd) }()
	conn := rpc.NewConn(cliEnd)
	t.Cleanup(func() {
		conn.Close()
		cancel()
		<-served
	})
	require.NoError(t, conn.Call(context.Background(), "initialize", json.RawMessage(fmt.Sprintf(
		`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}`, mcp.Version20251125)), nil))
	require.NoError(t, conn.Notify(context.Background(), "notifications/initialized", nil))
	return plain{conn}
}

func TestClientMiddlewareWrapsBothDirectionsInBothEras(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			echoTool(t, s)
			f := newServerFixture(t, s, nil)
			in, out := &recorder{}, &recorder{}
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
				ProtocolVersions: []string{version},
				Middleware:       []rpc.Middleware{in.middleware},
				Outgoing:         []rpc.Middleware{out.middleware},
			})
			cs, err := c.Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: f.ts.URL})
			require.NoError(t, err)
			defer cs.Close()
			res, err := cs.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
			require.NoError(t, err)
			require.Len(t, res.Content, 1)
			assert.Contains(t, out.entries(), "tools/call", "the call went through the outgoing middleware")
			if version == mcp.Version20251125 {
				assert.Contains(t, out.entries(), "initialize")
				// A change the server announces reaches the incoming middleware.
				require.NoError(t, s.AddTool(&mcp.Tool{Name: "later", InputSchema: json.RawMessage(`{"type":"object"}`)},
					func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return &mcp.CallToolResult{}, nil
					}))
				require.Eventually(t, func() bool {
					for _, e := range in.entries() {
						if e == "notifications/tools/list_changed" {
							return true
						}
					}
					return false
				}, 5*time.Second, 10*time.Millisecond, "incoming: %v", in.entries())
			}
		})
	}
}

func TestErrorDetailPolicyInBothEras(t *testing.T) {
	for _, detail := range []bool{false, true} {
		s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{ErrorDetail: detail})
		require.NoError(t, s.Register("app/fail", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			return nil, fmt.Errorf("reading /etc/app/secret.conf: permission denied")
		}}))
		require.NoError(t, s.Register("app/panic", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			panic("kaboom")
		}}))
		check := func(t *testing.T, rerr *rpc.Error, cause string) {
			t.Helper()
			require.NotNil(t, rerr)
			assert.Equal(t, rpc.CodeInternalError, rerr.Code)
			if !detail {
				assert.Nil(t, rerr.Data, "the default policy sends no internals")
				return
			}
			assert.JSONEq(t, fmt.Sprintf(`{"cause":%q}`, cause), string(rerr.Data))
		}

		// A handshake session on stdio.
		c := plainSession(t, s)
		_, rerr := c.call(t, "app/fail", nil)
		check(t, rerr, "reading /etc/app/secret.conf: permission denied")
		_, rerr = c.call(t, "app/panic", nil)
		check(t, rerr, "panic: kaboom")

		// A 2026-07-28 request over HTTP.
		f := newServerFixture(t, s, &mcp.HTTPOptions{JSONResponse: true})
		msg := answer(t, f.post("", statelessBody(t, 1, "app/fail", map[string]any{}, nil), mirrored("app/fail", "")...))
		check(t, msg.Error, "reading /etc/app/secret.conf: permission denied")
		msg = answer(t, f.post("", statelessBody(t, 2, "app/panic", map[string]any{}, nil), mirrored("app/panic", "")...))
		check(t, msg.Error, "panic: kaboom")
	}
}

func TestOutgoingMiddlewareWrapsStatelessHTTPNotifications(t *testing.T) {
	out := &recorder{}
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Outgoing: []rpc.Middleware{out.middleware}})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "steps", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Progress(ctx, 1, 1, ""); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
		}))
	f := newServerFixture(t, s, nil)
	body := statelessBody(t, 1, "tools/call", map[string]any{"name": "steps", "arguments": map[string]any{}}, map[string]any{"progressToken": "p1"})
	resp := f.post("", body, mirrored("tools/call", "steps")...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	events := newSSE(t, resp).all(t)
	require.Len(t, events, 2, "the progress notification, then the result")
	assert.Contains(t, events[0].Data, `"notifications/progress"`)
	assert.Equal(t, []string{"notifications/progress"}, out.entries())
}
