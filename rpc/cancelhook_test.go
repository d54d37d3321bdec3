package rpc_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// The cancel hook runs once the contexts of the connection's calls have
// ended, whatever ended them: a Close, or calls outliving a shutdown's
// grace period. A handler that runs calls in contexts of its own cancels
// them from it.
func TestTheCancelHookRunsWhenTheConnectionsContextEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		end  func(*rpc.Conn)
	}{
		{"close", func(c *rpc.Conn) { c.Close() }},
		{"shutdown past its grace", func(c *rpc.Conn) {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			c.Shutdown(ctx)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			running := make(chan context.Context, 1)
			h := rpc.HandlerFunc(func(ctx context.Context, _ *rpc.Request) (any, error) {
				running <- ctx
				<-ctx.Done()
				return nil, ctx.Err()
			})
			hooked := make(chan error, 4)
			var call context.Context
			c := rpc.NewConn(&pushedTransport{t: t, out: make(chan []byte, 4)}, rpc.WithHandler(h), rpc.WithPushedInput(),
				rpc.WithCancelHook(func() { hooked <- call.Err() }))
			require.NoError(t, c.StartFrame(context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"m"}`), func([]byte) {}))
			select {
			case call = <-running:
			case <-time.After(10 * time.Second):
				t.Fatal("the call did not start")
			}
			tc.end(c)
			select {
			case err := <-hooked:
				assert.ErrorIs(t, err, context.Canceled, "the hook ran before the call's context ended")
			case <-time.After(10 * time.Second):
				t.Fatal("the hook did not run")
			}
			waitDone(t, c)
		})
	}
}
