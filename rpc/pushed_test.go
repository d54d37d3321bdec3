package rpc_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// pushedTransport is the transport of a connection whose input is pushed:
// Read must never be called; writes are collected.
type pushedTransport struct {
	t      *testing.T
	reads  atomic.Int32
	closed atomic.Bool
	out    chan []byte
}

func (p *pushedTransport) Read(ctx context.Context) ([]byte, error) {
	p.reads.Add(1)
	<-ctx.Done()
	return nil, ctx.Err()
}

func (p *pushedTransport) Write(_ context.Context, msg []byte) error {
	p.out <- append([]byte(nil), msg...)
	return nil
}

func (p *pushedTransport) Close() error { p.closed.Store(true); return nil }

func waitDone(t *testing.T, c *rpc.Conn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the connection did not end")
	}
}

func TestAConnectionWithPushedInputServesFramesWithoutReading(t *testing.T) {
	tr := &pushedTransport{t: t, out: make(chan []byte, 4)}
	r := rpc.NewRouter()
	r.Register("echo", rpc.Method{Handler: func(_ context.Context, req *rpc.Request) (any, error) { return req.Params, nil }})
	c := rpc.NewConn(tr, rpc.WithHandler(r), rpc.WithPushedInput())
	var got []byte
	require.NoError(t, c.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]}`), func(b []byte) { got = b }))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":[1]}`, string(got))

	// A call of ours waits for the peer's response, which comes pushed too.
	answered := make(chan error, 1)
	go func() { answered <- c.Call(context.Background(), "ping", nil, nil) }()
	var sent []byte
	select {
	case sent = <-tr.out:
	case <-time.After(10 * time.Second):
		t.Fatal("the call was not sent")
	}
	assert.Contains(t, string(sent), `"method":"ping"`)
	require.NoError(t, c.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), nil))
	select {
	case err := <-answered:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the pushed response did not reach the call")
	}

	// The end of input fails calls still waiting, and ends the connection.
	go func() { answered <- c.Call(context.Background(), "ping", nil, nil) }()
	<-tr.out
	c.EndInput(nil)
	assert.ErrorIs(t, c.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","method":"note"}`), nil), rpc.ErrClosed,
		"a frame pushed after the end of input is refused at once")
	select {
	case err := <-answered:
		require.Error(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting call did not fail")
	}
	waitDone(t, c)
	assert.True(t, tr.closed.Load(), "the transport is closed at the end")
	assert.Zero(t, tr.reads.Load(), "nothing read the transport")
	assert.ErrorIs(t, c.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":2,"method":"echo"}`), nil), rpc.ErrClosed)
	c.EndInput(errors.New("again")) // a second end changes nothing
}

func TestAConnectionWithPushedInputEndsOnCloseAndOnShutdown(t *testing.T) {
	for name, end := range map[string]func(*rpc.Conn){
		"Close":    func(c *rpc.Conn) { require.NoError(t, c.Close()) },
		"Shutdown": func(c *rpc.Conn) { require.NoError(t, c.Shutdown(context.Background())) },
	} {
		t.Run(name, func(t *testing.T) {
			tr := &pushedTransport{t: t, out: make(chan []byte, 4)}
			c := rpc.NewConn(tr, rpc.WithPushedInput())
			ended := make(chan struct{})
			c.OnDone(func() { close(ended) })
			end(c)
			waitDone(t, c)
			<-ended
			assert.Zero(t, tr.reads.Load())
		})
	}
}

func TestEndInputDoesNothingOnAConnectionThatReads(t *testing.T) {
	a, b := rpc.NewPipe()
	c := rpc.NewConn(a)
	defer c.Close()
	peer := rpc.NewConn(b, rpc.WithHandler(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return "pong", nil })))
	defer peer.Close()
	c.EndInput(nil)
	var res string
	require.NoError(t, c.Call(context.Background(), "ping", nil, &res))
	assert.Equal(t, "pong", res)
	select {
	case <-c.Done():
		t.Fatal("EndInput ended a connection that reads its transport")
	default:
	}
}
