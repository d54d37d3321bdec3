package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestOutgoingMiddlewareSeesAndShapesWhatAConnSends(t *testing.T) {
	var mu sync.Mutex
	var seen []string // what the server received
	server := rpc.NewRouter()
	server.Register("echo", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		mu.Lock()
		seen = append(seen, "echo "+string(req.Params))
		mu.Unlock()
		return req.Params, nil
	}})
	noted := make(chan string, 1)
	server.Register("note", rpc.Method{Notification: true, Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		noted <- string(req.Params)
		return nil, nil
	}})

	var order []string
	trace := func(name string) rpc.Middleware {
		return func(next rpc.Handler) rpc.Handler {
			return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
				kind := "call"
				if req.IsNotification() {
					kind = "notification"
				}
				order = append(order, name+" "+kind+" "+req.Method)
				return next.Handle(ctx, req)
			})
		}
	}
	// addMeta puts a _meta member into object params, as trace propagation does.
	addMeta := func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			var p map[string]any
			if err := json.Unmarshal(req.Params, &p); err == nil && p != nil {
				p["_meta"] = map[string]string{"traceparent": "00-x"}
				req.Params, _ = json.Marshal(p)
			}
			res, err := next.Handle(ctx, req)
			if raw, ok := res.(json.RawMessage); ok {
				order = append(order, "result "+string(raw))
			}
			return res, err
		})
	}
	refuse := func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			if req.Method == "forbidden" {
				return nil, errors.New("refused before sending")
			}
			return next.Handle(ctx, req)
		})
	}
	client, _ := connPair(t, server, nil, rpc.WithOutgoing(trace("outer"), trace("inner"), addMeta, refuse))

	var got map[string]any
	require.NoError(t, client.Call(context.Background(), "echo", map[string]int{"a": 1}, &got))
	assert.Equal(t, map[string]any{"a": 1.0, "_meta": map[string]any{"traceparent": "00-x"}}, got)
	require.NoError(t, client.Notify(context.Background(), "note", map[string]int{"b": 2}))
	assert.JSONEq(t, `{"b":2,"_meta":{"traceparent":"00-x"}}`, <-noted)
	assert.EqualError(t, client.Call(context.Background(), "forbidden", nil, nil), "refused before sending")
	require.NoError(t, client.Call(context.Background(), "echo", nil, nil), "a call without params")

	assert.Equal(t, []string{
		"outer call echo", "inner call echo", `result {"_meta":{"traceparent":"00-x"},"a":1}`,
		"outer notification note", "inner notification note",
		"outer call forbidden", "inner call forbidden",
		"outer call echo", "inner call echo", "result null",
	}, order)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{`echo {"_meta":{"traceparent":"00-x"},"a":1}`, "echo "}, seen, "nothing was sent for the refused call")
}

func TestOutgoingMiddlewareKeepsPeerErrors(t *testing.T) {
	server := rpc.NewRouter()
	server.Register("fail", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.NewError(-32001, "nope")
	}})
	var sawErr error
	client, _ := connPair(t, server, nil, rpc.WithOutgoing(func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			res, err := next.Handle(ctx, req)
			sawErr = err
			return res, err
		})
	}))
	err := client.Call(context.Background(), "fail", nil, nil)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, -32001, rerr.Code)
	assert.Equal(t, err, sawErr, "the middleware saw the peer's error")
}

func TestOutgoingMiddlewareResultsAreEncodedAndDecodedStrictly(t *testing.T) {
	server := rpc.NewRouter()
	server.Register("any", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return 1, nil }})
	replace := func(v any) rpc.Middleware {
		return func(next rpc.Handler) rpc.Handler {
			return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
				if _, err := next.Handle(ctx, req); err != nil {
					return nil, err
				}
				return v, nil
			})
		}
	}
	t.Run("a value of its own is encoded", func(t *testing.T) {
		client, _ := connPair(t, server, nil, rpc.WithOutgoing(replace(map[string]int{"n": 2})))
		var got struct {
			N int `json:"n"`
		}
		require.NoError(t, client.Call(context.Background(), "any", nil, &got))
		assert.Equal(t, 2, got.N)
	})
	t.Run("a value that cannot be encoded", func(t *testing.T) {
		client, _ := connPair(t, server, nil, rpc.WithOutgoing(replace(func() {})))
		var got any
		err := client.Call(context.Background(), "any", nil, &got)
		assert.ErrorContains(t, err, "encoding the result an outgoing middleware returned")
	})
	t.Run("a result that does not fit", func(t *testing.T) {
		client, _ := connPair(t, server, nil, rpc.WithOutgoing(replace(json.RawMessage(`"text"`))))
		var got int
		err := client.Call(context.Background(), "any", nil, &got)
		assert.ErrorContains(t, err, "decoding the result")
	})
	t.Run("params that cannot be encoded are never sent", func(t *testing.T) {
		client, _ := connPair(t, server, nil, rpc.WithOutgoing(replace(nil)))
		assert.Error(t, client.Call(context.Background(), "any", func() {}, nil))
	})
}
