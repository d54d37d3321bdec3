package rpc_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// waitsForANotification serves "wait", which returns once the
// notification "release" has been handled, and "release".
func waitsForANotification() rpc.Handler {
	released := make(chan struct{})
	r := rpc.NewRouter()
	r.Register("wait", rpc.Method{Handler: func(ctx context.Context, _ *rpc.Request) (any, error) {
		select {
		case <-released:
			return "released", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}})
	r.Register("release", rpc.Method{Notification: true, Handler: func(context.Context, *rpc.Request) (any, error) {
		close(released)
		return nil, nil
	}})
	return r
}

func TestACallServedInTheReadLoopStillLetsTheConnectionRead(t *testing.T) {
	// The first call finds the connection idle and runs in its read loop;
	// what it waits for arrives after it and must still be read.
	for _, budget := range []time.Duration{0, time.Microsecond, -1} {
		t.Run(budget.String(), func(t *testing.T) {
			client, _ := connPair(t, waitsForANotification(), []rpc.Option{rpc.WithInlineBudget(budget)})
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			errc := make(chan error, 1)
			var got string
			go func() { errc <- client.Call(ctx, "wait", nil, &got) }()
			time.Sleep(5 * time.Millisecond) // the call is running
			require.NoError(t, client.Notify(ctx, "release", nil))
			require.NoError(t, <-errc)
			assert.Equal(t, "released", got)
		})
	}
}

func TestCallsArrivingTogetherStillRunTogether(t *testing.T) {
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	client, _ := connPair(t, blocking(started, release, nil), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errc := make(chan error, 2)
	for range 2 {
		go func() { errc <- client.Call(ctx, "block", nil, nil) }()
	}
	for range 2 {
		select {
		case <-started:
		case <-ctx.Done():
			t.Fatal("the second call never started while the first ran")
		}
	}
	close(release)
	require.NoError(t, <-errc)
	require.NoError(t, <-errc)
}

func TestAHandlerCanCallThePeerBackFromTheReadLoop(t *testing.T) {
	// The client answers "who"; the server's handler asks it during a call
	// that runs in the server's read loop.
	r := rpc.NewRouter()
	r.Register("greet", rpc.Method{Handler: func(ctx context.Context, _ *rpc.Request) (any, error) {
		var name string
		if err := rpc.ConnFromContext(ctx).Call(ctx, "who", nil, &name); err != nil {
			return nil, err
		}
		return "hello " + name, nil
	}})
	who := rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return "client", nil })
	client, _ := connPair(t, r, nil, rpc.WithHandler(who))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	var got string
	require.NoError(t, client.Call(ctx, "greet", nil, &got))
	assert.Equal(t, "hello client", got)
}

func TestStreamTransportReportsInputReadAhead(t *testing.T) {
	tr := rpc.NewStreamTransport(strings.NewReader("{\"a\":1}\n{\"b\":2}\n"), nil)
	assert.False(t, tr.InputPending(), "nothing read yet")
	msg, err := tr.Read(context.Background())
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(msg))
	assert.True(t, tr.InputPending(), "the second line came in with the first")
	_, err = tr.Read(context.Background())
	require.NoError(t, err)
	assert.False(t, tr.InputPending())
}

func TestACallServedInTheReadLoopIsAnsweredWhenTheInputEndsMeanwhile(t *testing.T) {
	// With the smallest budget another goroutine takes over the reading
	// at once and meets the end of input while the call is still being
	// decoded: the connection must wait for the call before it closes.
	r := rpc.NewRouter()
	r.Register("echo", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) { return "ok", nil }})
	for i := range 200 {
		in := strings.NewReader(`{"jsonrpc":"2.0","method":"echo","id":1}` + "\n")
		var out syncbuf.Buffer
		conn := rpc.NewConn(rpc.NewStreamTransport(in, &out), rpc.WithHandler(r), rpc.WithInlineBudget(time.Nanosecond))
		select {
		case <-conn.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the connection did not end at the end of its input")
		}
		require.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"ok"}`+"\n", out.String(), "run %d", i)
	}
}
