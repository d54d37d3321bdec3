package rpc_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

type ctxKey struct{}

func TestServeFrameAnswersInTheCallersGoroutine(t *testing.T) {
	h := rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return map[string]any{"method": req.Method, "value": ctx.Value(ctxKey{})}, nil
	})
	_, server := connPair(t, h, nil)
	var got [][]byte
	mctx := context.WithValue(context.Background(), ctxKey{}, "from the message")
	require.NoError(t, server.ServeFrame(mctx, []byte(`{"jsonrpc":"2.0","id":7,"method":"hello"}`), func(b []byte) { got = append(got, b) }))
	require.Len(t, got, 1, "the reply is passed on before ServeFrame returns")
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":7,"result":{"method":"hello","value":"from the message"}}`, string(got[0]))
}

func TestServeFrameAnswersABatchInOneReply(t *testing.T) {
	h := rpc.HandlerFunc(func(_ context.Context, req *rpc.Request) (any, error) { return req.Method, nil })
	_, server := connPair(t, h, nil)
	var got [][]byte
	frame := `[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":2,"method":"b"}]`
	require.NoError(t, server.ServeFrame(context.Background(), []byte(frame), func(b []byte) { got = append(got, b) }))
	require.Len(t, got, 1)
	assert.JSONEq(t, `[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]`, string(got[0]))
}

func TestServeFrameRepliesToUnreadableInputWithIDNull(t *testing.T) {
	_, server := connPair(t, rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return nil, nil }), nil)
	var got [][]byte
	require.NoError(t, server.ServeFrame(context.Background(), []byte(`{"jsonrpc":`), func(b []byte) { got = append(got, b) }))
	require.Len(t, got, 1)
	assert.Contains(t, string(got[0]), `"id":null`)
	assert.Contains(t, string(got[0]), `-32700`)
}

func TestServeFrameWithoutReplyWritesToTheTransport(t *testing.T) {
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return "ok", nil })))
	t.Cleanup(func() { a.Close(); server.Close(); <-server.Done() })
	done := make(chan error, 1)
	go func() {
		done <- server.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":"x","method":"m"}`), nil)
	}()
	msg, err := a.Read(context.Background())
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":"x","result":"ok"}`, string(msg))
	require.NoError(t, <-done)
}

func TestServeFrameDeliversResponsesToWaitingCalls(t *testing.T) {
	// The peer's response to a call of ours may come in by ServeFrame.
	a, b := rpc.NewPipe()
	conn := rpc.NewConn(b)
	t.Cleanup(func() { a.Close(); conn.Close(); <-conn.Done() })
	result := make(chan string, 1)
	go func() {
		var s string
		if err := conn.Call(context.Background(), "ask", nil, &s); err == nil {
			result <- s
		}
	}()
	req, err := a.Read(context.Background())
	require.NoError(t, err)
	assert.Contains(t, string(req), `"id":1`)
	require.NoError(t, conn.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"result":"answer"}`), func([]byte) { t.Error("a response is not answered") }))
	select {
	case s := <-result:
		assert.Equal(t, "answer", s)
	case <-time.After(5 * time.Second):
		t.Fatal("the call never got the response served by ServeFrame")
	}
}

func TestServeFrameRefusesRequestsDuringShutdownAndCountsItsCalls(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	_, server := connPair(t, blocking(started, release, nil), nil)
	served := make(chan []byte, 1)
	go func() {
		_ = server.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"block"}`), func(b []byte) { served <- b })
	}()
	<-started
	shut := make(chan error, 1)
	go func() { shut <- server.Shutdown(context.Background()) }()
	select {
	case <-shut:
		t.Fatal("Shutdown returned while a call served by ServeFrame was running")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"released"}`, string(<-served))
	require.NoError(t, <-shut)
	assert.ErrorIs(t, server.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"block"}`), nil), rpc.ErrClosed)
}

func TestServeFrameHonoursTheInFlightBound(t *testing.T) {
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(blocking(started, release, nil)), rpc.WithMaxInFlight(1), rpc.WithMaxQueued(0))
	t.Cleanup(func() { a.Close(); server.Close(); <-server.Done() })
	first := make(chan []byte, 1)
	go func() {
		_ = server.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"block"}`), func(b []byte) { first <- b })
	}()
	<-started
	var got []byte
	require.NoError(t, server.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"block"}`), func(b []byte) { got = b }))
	assert.Equal(t, `{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"server busy: too many calls in flight"}}`, string(got))
	close(release)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"released"}`, string(<-first))
}

func TestStartFrameRunsTheCallsOnTheWorkers(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	_, server := connPair(t, blocking(started, release, nil), nil)
	replies := make(chan []byte, 1)
	require.NoError(t, server.StartFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"block"}`), func(b []byte) { replies <- b }))
	<-started // StartFrame returned while the handler blocks
	select {
	case <-replies:
		t.Fatal("replied before the handler returned")
	default:
	}
	close(release)
	select {
	case b := <-replies:
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"released"}`, string(b))
	case <-time.After(5 * time.Second):
		t.Fatal("no reply")
	}
}

func TestStartFrameOnAClosedConnectionServesNothing(t *testing.T) {
	_, server := connPair(t, rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) {
		t.Error("a closed connection ran a handler")
		return nil, nil
	}), nil)
	require.NoError(t, server.Close())
	assert.ErrorIs(t, server.StartFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), nil), rpc.ErrClosed)
}

func TestServeParsedFrameServesTheRequestsTheParserRead(t *testing.T) {
	seen := make(chan *rpc.Request, 8)
	h := rpc.HandlerFunc(func(_ context.Context, req *rpc.Request) (any, error) {
		seen <- req
		return req.Method, nil
	})
	_, server := connPair(t, h, nil)
	for name, tc := range map[string]struct{ frame, want string }{
		"one request": {`{"jsonrpc":"2.0","id":1,"method":"a"}`, `{"jsonrpc":"2.0","id":1,"result":"a"}`},
		"a batch": {`[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"note"},{"jsonrpc":"2.0","id":2,"method":"b"}]`,
			`[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":2,"result":"b"}]`},
	} {
		t.Run(name, func(t *testing.T) {
			f, perr := rpc.ParseFrame([]byte(tc.frame))
			require.Nil(t, perr)
			var got [][]byte
			require.NoError(t, server.ServeParsedFrame(context.Background(), f, func(b []byte) { got = append(got, b) }))
			require.Len(t, got, 1, "the reply is passed on before ServeParsedFrame returns")
			assert.JSONEq(t, tc.want, string(got[0]))
			// Every call of the frame, the notification's included, reached
			// its handler as parsed, not read again (in any order).
			var handled []*rpc.Request
			for range f.Messages {
				select {
				case req := <-seen:
					handled = append(handled, req)
				case <-time.After(10 * time.Second):
					t.Fatal("a call of the frame was not handled")
				}
			}
			for _, m := range f.Messages {
				assert.True(t, slices.Contains(handled, m.Request), "%s was handled as parsed", m.Request.Method)
			}
		})
	}
}

func TestServeParsedFrameReadsTheFrameAgainUnderTheConnectionsNestingLimit(t *testing.T) {
	_, server := connPair(t, rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) {
		t.Error("a message nested past the connection's limit ran a handler")
		return nil, nil
	}), []rpc.Option{rpc.WithMaxDepth(3)})
	f, perr := rpc.ParseFrame([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":{"b":{"c":[1]}}}}`))
	require.Nil(t, perr, "ParseFrame's own limit is the default one")
	var got []byte
	require.NoError(t, server.ServeParsedFrame(context.Background(), f, func(b []byte) { got = b }))
	assert.Contains(t, string(got), `"code":-32700`)
}

func TestStartParsedFrameRunsTheCallsOnTheWorkers(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	_, server := connPair(t, blocking(started, release, nil), nil)
	f, perr := rpc.ParseFrame([]byte(`{"jsonrpc":"2.0","id":1,"method":"block"}`))
	require.Nil(t, perr)
	replies := make(chan []byte, 1)
	require.NoError(t, server.StartParsedFrame(context.Background(), f, func(b []byte) { replies <- b }))
	<-started // StartParsedFrame returned while the handler blocks
	close(release)
	select {
	case b := <-replies:
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"released"}`, string(b))
	case <-time.After(10 * time.Second):
		t.Fatal("no reply")
	}
	require.NoError(t, server.Close())
	assert.ErrorIs(t, server.StartParsedFrame(context.Background(), f, nil), rpc.ErrClosed, "a closed connection serves nothing")
}
