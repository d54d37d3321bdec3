package rpc_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenRequest is what a handler learned about the HTTP request its message
// arrived on.
type seenRequest struct {
	Header, Remote string
}

// requestEcho answers with what HTTPRequestFromContext tells, or an empty
// answer when there is no HTTP request.
var requestEcho = rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
	r := rpc.HTTPRequestFromContext(ctx)
	if r == nil {
		return seenRequest{}, nil
	}
	return seenRequest{Header: r.Header.Get("X-Probe"), Remote: r.RemoteAddr}, nil
})

func TestHTTPHandlerPutsTheRequestInTheContext(t *testing.T) {
	srv := httptest.NewServer(rpc.NewHTTPHandler(requestEcho))
	defer srv.Close()
	c := rpc.NewHTTPClient(srv.URL, srv.Client(), rpc.WithHeader("X-Probe", "over-http"))
	var got seenRequest
	require.NoError(t, c.Call(context.Background(), "probe", nil, &got))
	assert.Equal(t, "over-http", got.Header)
	assert.True(t, strings.HasPrefix(got.Remote, "127.0.0.1:"), got.Remote)
}

func TestWebSocketHandlersSeeTheUpgradeRequest(t *testing.T) {
	srv := httptest.NewServer(rpc.NewWebSocketHandler(requestEcho, nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := rpc.DialWebSocket(ctx, "ws"+strings.TrimPrefix(srv.URL, "http"), &websocket.DialOptions{HTTPHeader: http.Header{"X-Probe": {"upgrade"}}})
	require.NoError(t, err)
	defer c.Close()
	for range 2 { // every message of the connection sees it
		var got seenRequest
		require.NoError(t, c.Call(ctx, "probe", nil, &got))
		assert.Equal(t, "upgrade", got.Header)
		assert.True(t, strings.HasPrefix(got.Remote, "127.0.0.1:"), got.Remote)
	}
}

func TestStreamsHaveNoHTTPRequest(t *testing.T) {
	a, b := rpc.NewPipe()
	srv := rpc.NewConn(a, rpc.WithHandler(requestEcho))
	defer srv.Close()
	c := rpc.NewConn(b)
	defer c.Close()
	var got seenRequest
	require.NoError(t, c.Call(context.Background(), "probe", nil, &got))
	assert.Equal(t, seenRequest{}, got)
}

type probeKey struct{}

// taggedTransport gives each message it reads a context of its own: a
// value naming the message's turn, already cancelled, so that a handler
// that obeyed it would fail.
type taggedTransport struct {
	rpc.Transport
	n int
}

func (t *taggedTransport) ReadContext(ctx context.Context) (context.Context, []byte, error) {
	msg, err := t.Read(ctx)
	t.n++
	mctx, cancel := context.WithCancel(context.WithValue(context.Background(), probeKey{}, t.n))
	cancel()
	if t.n == 2 {
		return nil, msg, err // no context: nothing added
	}
	return mctx, msg, err
}

func TestContextReaderValuesReachHandlersButNotTheirCancellation(t *testing.T) {
	a, b := rpc.NewPipe()
	handler := rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		return map[string]any{"turn": ctx.Value(probeKey{}), "conn": rpc.ConnFromContext(ctx) != nil}, nil
	})
	srv := rpc.NewConn(&taggedTransport{Transport: a}, rpc.WithHandler(handler))
	defer srv.Close()
	c := rpc.NewConn(b)
	defer c.Close()
	for _, want := range []any{1.0, nil, 3.0} {
		var got map[string]any
		require.NoError(t, c.Call(context.Background(), "probe", nil, &got))
		assert.Equal(t, map[string]any{"turn": want, "conn": true}, got)
	}
}

func TestBaseContextValuesWithoutItsCancellation(t *testing.T) {
	base, cancel := context.WithCancel(context.WithValue(context.Background(), probeKey{}, "base"))
	cancel()
	a, b := rpc.NewPipe()
	srv := rpc.NewConn(a, rpc.WithBaseContext(base), rpc.WithHandler(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return ctx.Value(probeKey{}), ctx.Err()
	})))
	defer srv.Close()
	c := rpc.NewConn(b)
	defer c.Close()
	var got string
	require.NoError(t, c.Call(context.Background(), "probe", nil, &got))
	assert.Equal(t, "base", got)
}

// tenantKey names a value a transport's own context carries beside the
// request.
type tenantKey struct{}

// tenantContext is a transport's context per HTTP request that carries the
// request in its own allocation, as HTTPRequestContext is meant to be used.
type tenantContext struct {
	rpc.HTTPRequestContext
	tenant string
}

func (c *tenantContext) Value(key any) any {
	if key == (tenantKey{}) {
		return c.tenant
	}
	return c.HTTPRequestContext.Value(key)
}

func TestAContextEmbeddingHTTPRequestContextCarriesTheRequestAndPassesTheRestOn(t *testing.T) {
	type outerKey struct{}
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
	parent := context.WithValue(context.Background(), outerKey{}, "outer")
	ctx := &tenantContext{HTTPRequestContext: rpc.HTTPRequestContext{Context: parent, Request: r}, tenant: "t1"}

	assert.Same(t, r, rpc.HTTPRequestFromContext(ctx))
	assert.Equal(t, "t1", ctx.Value(tenantKey{}))
	assert.Equal(t, "outer", ctx.Value(outerKey{}), "the parent's values pass through")
	assert.Nil(t, rpc.HTTPRequestFromContext(parent))
	assert.Same(t, r, rpc.HTTPRequestFromContext(rpc.WithHTTPRequest(parent, r)), "WithHTTPRequest is the same thing, alone")
	derived, cancel := context.WithCancel(ctx)
	defer cancel()
	assert.Same(t, r, rpc.HTTPRequestFromContext(derived), "a context derived from it finds the request too")
}
