package rpc

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A connection whose replies go to a reply function holds no write
// coalescer until it writes to its transport: a server holding many idle
// sessions over HTTP holds none for them.
func TestAConnectionMakesItsWriterOnFirstUse(t *testing.T) {
	a, b := NewPipe()
	defer b.Close()
	c := NewConn(a, WithPushedInput(), WithHandler(HandlerFunc(func(context.Context, *Request) (any, error) { return "ok", nil })))
	defer c.Close()

	var reply []byte
	require.NoError(t, c.ServeFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), func(m []byte) { reply = m }))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"ok"}`, string(reply))
	assert.Nil(t, c.out.Load(), "a reply that went to the reply function made a writer")

	require.NoError(t, c.Notify(context.Background(), "note", nil))
	got, err := b.Read(context.Background())
	require.NoError(t, err)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"note"}`, string(got))
	assert.NotNil(t, c.out.Load())
}

// A connection makes the channel Done returns when it is first asked for:
// one asked for after the end is closed already, one asked for before is
// closed at the end. An idle connection nobody waits on holds none.
func TestAConnectionMakesItsDoneChannelWhenAskedFor(t *testing.T) {
	for _, askBefore := range []bool{false, true} {
		a, b := NewPipe()
		defer b.Close()
		c := NewConn(a, WithPushedInput())
		assert.Nil(t, c.done, "an idle connection made its Done channel")
		var before <-chan struct{}
		if askBefore {
			before = c.Done()
		}
		ended := make(chan struct{})
		c.OnDone(func() { close(ended) })
		require.NoError(t, c.Close())
		select {
		case <-ended:
		case <-time.After(10 * time.Second):
			t.Fatal("the connection did not end")
		}
		if askBefore {
			assert.Equal(t, before, c.Done(), "Done returned another channel")
		}
		select {
		case <-c.Done():
		default:
			t.Fatalf("Done is open after the end (asked before: %v)", askBefore)
		}
	}
}
