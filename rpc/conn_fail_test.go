package rpc_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// silentPeer reads what a client writes and never answers.
func silentPeer(t *testing.T, opts ...rpc.Option) (*rpc.Conn, <-chan []byte) {
	t.Helper()
	a, b := rpc.NewPipe()
	seen := make(chan []byte, 16)
	go func() {
		for {
			msg, err := b.Read(context.Background())
			if err != nil {
				return
			}
			seen <- msg
		}
	}()
	c := rpc.NewConn(a, opts...)
	t.Cleanup(func() {
		c.Close()
		b.Close()
		<-c.Done()
	})
	return c, seen
}

func TestFailEndsTheWaitingCallWithTheGivenError(t *testing.T) {
	c, seen := silentPeer(t)
	boom := errors.New("HTTP 404: session gone")
	done := make(chan error, 1)
	go func() { done <- c.Call(context.Background(), "slow", nil, nil) }()
	msg := <-seen
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"method":"slow"}`, string(msg))

	assert.True(t, c.Fail(rpc.Int64ID(1), boom))
	select {
	case err := <-done:
		assert.Same(t, boom, err)
	case <-time.After(5 * time.Second):
		t.Fatal("Call did not return after Fail")
	}
	// The call is over: failing it again, or an unknown id, finds nothing.
	assert.False(t, c.Fail(rpc.Int64ID(1), boom))
	assert.False(t, c.Fail(rpc.StringID("nobody"), boom))
	// The connection itself lives on.
	assert.NoError(t, c.Err())
}

// hookKey is a context key the abandon hook test looks for.
type hookKey struct{}

func TestAbandonHookNamesTheCallWhoseContextEnded(t *testing.T) {
	type abandoned struct {
		id     rpc.ID
		method string
		value  any
		err    error
	}
	got := make(chan abandoned, 1)
	c, seen := silentPeer(t, rpc.WithAbandonHook(func(ctx context.Context, id rpc.ID, method string) {
		got <- abandoned{id, method, ctx.Value(hookKey{}), ctx.Err()}
	}))
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), hookKey{}, "route"))
	done := make(chan error, 1)
	go func() { done <- c.Call(ctx, "tools/call", map[string]string{"name": "x"}, nil) }()
	<-seen
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	select {
	case a := <-got:
		assert.Equal(t, rpc.Int64ID(1), a.id)
		assert.Equal(t, "tools/call", a.method)
		// The hook gets the call's own context: ended, its values there.
		assert.Equal(t, "route", a.value)
		assert.ErrorIs(t, a.err, context.Canceled)
	default:
		t.Fatal("the abandon hook was not called before Call returned")
	}
}

func TestAbandonHookIsNotCalledForAnsweredCalls(t *testing.T) {
	called := false
	client, _ := connPair(t, testService(t), nil, rpc.WithAbandonHook(func(context.Context, rpc.ID, string) { called = true }))
	var sum float64
	require.NoError(t, client.Call(context.Background(), "add", []int{1, 2}, &sum))
	assert.False(t, called)
}
