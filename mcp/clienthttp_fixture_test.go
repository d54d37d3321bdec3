package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The client transports are tested through an rpc.Conn over the link they
// dial, the way the Client runs them; servers are our own handler or
// httptest fakes on 127.0.0.1.

// chTimeout bounds every call of these tests.
const chTimeout = 5 * time.Second

// chCtx returns a context bounded by chTimeout.
func chCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), chTimeout)
	t.Cleanup(cancel)
	return ctx
}

// chLinked is a connection over a client HTTP link.
type chLinked struct {
	conn *rpc.Conn
	link *mcp.HTTPLinkForTest
	// cancelled receives what link.Cancel answered for each call whose
	// context ended.
	cancelled chan bool
}

// chConnect dials tr and runs a connection over it; h serves what the
// server sends (nil: nothing). A call whose context ends is cancelled on
// the link, as the Client does.
func chConnect(t *testing.T, tr mcp.ClientTransport, h rpc.Handler) *chLinked {
	t.Helper()
	link, err := mcp.DialHTTPLinkForTest(chCtx(t), tr, nil)
	require.NoError(t, err)
	c := &chLinked{link: link, cancelled: make(chan bool, 16)}
	opts := []rpc.Option{rpc.WithAbandonHook(func(_ context.Context, id rpc.ID, method string) { c.cancelled <- link.Cancel(id) })}
	if h != nil {
		opts = append(opts, rpc.WithHandler(h))
	}
	c.conn = rpc.NewConn(link, opts...)
	link.SetFail(func(id rpc.ID, err error) { c.conn.Fail(id, err) })
	t.Cleanup(func() { c.conn.Close() })
	return c
}

// call makes a call bounded by chTimeout.
func (c *chLinked) call(t *testing.T, method string, params any) (json.RawMessage, error) {
	t.Helper()
	var res json.RawMessage
	err := c.conn.Call(chCtx(t), method, params, &res)
	return res, err
}

// chInitParams are the params of an initialize at version v declaring
// sampling and roots.
func chInitParams(v string) map[string]any {
	return map[string]any{
		"protocolVersion": v,
		"capabilities":    map[string]any{"sampling": map[string]any{}, "roots": map[string]any{}},
		"clientInfo":      map[string]any{"name": "chttp-test", "version": "1"},
	}
}

// handshake initializes a session at version v and sends initialized.
func (c *chLinked) handshake(t *testing.T, v string) {
	t.Helper()
	res, err := c.call(t, "initialize", chInitParams(v))
	require.NoError(t, err)
	var got struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	require.NoError(t, json.Unmarshal(res, &got))
	require.Equal(t, v, got.ProtocolVersion)
	require.NoError(t, c.conn.Notify(chCtx(t), "notifications/initialized", map[string]any{}))
}

// chStateless returns params for a 2026-07-28 request: p with the _meta a
// stateless request carries.
func chStateless(p map[string]any) map[string]any {
	if p == nil {
		p = map[string]any{}
	}
	p["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "chttp-test", "version": "1"},
	}
	return p
}

// chRecorder keeps the method and headers of every HTTP request a server
// got.
type chRecorder struct {
	mu   sync.Mutex
	reqs []chSeen
}

// chSeen is one request a server got.
type chSeen struct {
	Method string // the HTTP method
	RPC    string // the JSON-RPC method of a POST, "" for a response
	Header http.Header
	At     time.Time
}

// wrap records what reaches next.
func (rec *chRecorder) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen := chSeen{Method: r.Method, Header: r.Header.Clone(), At: time.Now()}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m struct {
				Method string `json:"method"`
			}
			json.Unmarshal(body, &m)
			seen.RPC = m.Method
		}
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen)
		rec.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}

// all returns what was recorded so far.
func (rec *chRecorder) all() []chSeen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]chSeen(nil), rec.reqs...)
}

// last returns the last POST of a JSON-RPC method.
func (rec *chRecorder) last(t *testing.T, method string) chSeen {
	t.Helper()
	all := rec.all()
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].RPC == method {
			return all[i]
		}
	}
	t.Fatalf("no POST of %s", method)
	return chSeen{}
}

// count counts the requests of an HTTP method.
func (rec *chRecorder) count(method string) int {
	n := 0
	for _, s := range rec.all() {
		if s.Method == method {
			n++
		}
	}
	return n
}

// chServe starts h on 127.0.0.1 behind a recorder.
func chServe(t *testing.T, h http.Handler) (*httptest.Server, *chRecorder) {
	rec := &chRecorder{}
	ts := httptest.NewServer(rec.wrap(h))
	t.Cleanup(ts.Close)
	return ts, rec
}

// chFakeMsg is the JSON-RPC message a fake server got.
type chFakeMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// readFakeMsg decodes a POST body.
func readFakeMsg(r *http.Request) chFakeMsg {
	var m chFakeMsg
	json.NewDecoder(r.Body).Decode(&m)
	return m
}

// chResult is a JSON-RPC result response.
func chResult(id json.RawMessage, result string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":%s}`, id, result)
}

// writeJSON answers with a JSON body.
func writeJSON(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	io.WriteString(w, body)
}

// startEvents answers with an event stream and returns a function writing
// and flushing raw event text.
func startEvents(w http.ResponseWriter) func(string) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	rc.Flush()
	return func(s string) {
		io.WriteString(w, s)
		rc.Flush()
	}
}
