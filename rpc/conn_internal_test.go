package rpc

import (
	"context"
	"testing"

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
