package rpc_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestMiddlewareRunsAroundEveryCall(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	record := func(tag string) rpc.Middleware {
		return func(next rpc.Handler) rpc.Handler {
			return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
				mu.Lock()
				seen = append(seen, tag+":"+req.Method)
				mu.Unlock()
				return next.Handle(ctx, req)
			})
		}
	}
	r := testService(t)
	r.Use(record("outer"), record("inner"))
	forEachTransport(t, r, func(t *testing.T, p peer) {
		mu.Lock()
		seen = nil
		mu.Unlock()
		p.call(t, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`)
		p.call(t, `{"jsonrpc":"2.0","method":"nope","id":2}`)
		p.silent(t, `{"jsonrpc":"2.0","method":"tick"}`)
		ours := func() []string {
			mu.Lock()
			defer mu.Unlock()
			var out []string
			for _, s := range seen {
				if s != "outer:probe" && s != "inner:probe" {
					out = append(out, s)
				}
			}
			return out
		}
		// A notification runs concurrently with what follows it, so its
		// record may land after the probes' replies.
		want := []string{"outer:add", "inner:add", "outer:nope", "inner:nope", "outer:tick", "inner:tick"}
		assert.Eventually(t, func() bool { return len(ours()) >= len(want) }, 10*time.Second, time.Millisecond)
		assert.Equal(t, want, ours())
	})
}

func TestMiddlewareCanAnswerInsteadOfTheMethod(t *testing.T) {
	deny := func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			if req.Method == "add" {
				return nil, rpc.NewError(-32001, "denied")
			}
			return next.Handle(ctx, req)
		})
	}
	r := rpc.NewRouter(rpc.WithMiddleware(deny))
	r.Register("add", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return 1, nil }})
	forEachTransport(t, r, func(t *testing.T, p peer) {
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"denied"}}`, p.call(t, `{"jsonrpc":"2.0","method":"add","id":1}`))
	})
}

func TestRegisterPanicsOnProgrammingErrors(t *testing.T) {
	h := func(ctx context.Context, req *rpc.Request) (any, error) { return nil, nil }
	r := rpc.NewRouter()
	r.Register("x", rpc.Method{Handler: h})
	assert.PanicsWithValue(t, `rpc: method "x" registered twice`, func() { r.Register("x", rpc.Method{Handler: h}) })
	assert.Panics(t, func() { r.Register("", rpc.Method{Handler: h}) })
	assert.Panics(t, func() { r.Register("y", rpc.Method{}) })
	assert.Panics(t, func() { r.Register("z", rpc.Method{Handler: h, ParamStructure: rpc.ByPosition}) })
	assert.Equal(t, []string{"x"}, r.Methods())
}

func TestByPositionOnlyRefusesNamedParams(t *testing.T) {
	r := rpc.NewRouter()
	r.Register("pos", rpc.Method{ParamStructure: rpc.ByPosition, ParamNames: []string{"a"},
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return string(req.Params), nil }})
	forEachTransport(t, r, func(t *testing.T, p peer) {
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"{\"a\":7}"}`, p.call(t, `{"jsonrpc":"2.0","method":"pos","params":[7],"id":1}`))
		assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"{\"a\":\"<&>\"}"}`, p.call(t, `{"jsonrpc":"2.0","method":"pos","params":["<&>"],"id":1}`),
			"by-position params become an object without HTML escaping")
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"pos","params":{"a":7},"id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, rpc.CodeInvalidParams, r.Error.Code)
	})
}

func TestHandlersCalledDirectlyStillValidate(t *testing.T) {
	r := testService(t)
	_, err := r.Handle(context.Background(), &rpc.Request{Method: "add", ID: rpc.Int64ID(1), Params: []byte(`{"a":1}`)})
	assert.ErrorIs(t, err, rpc.InvalidParams(""))
	res, err := r.Handle(context.Background(), &rpc.Request{Method: "add", ID: rpc.Int64ID(1), Params: []byte(`[2,3]`)})
	require.NoError(t, err)
	assert.Equal(t, 5.0, res)
	_, err = r.Handle(context.Background(), &rpc.Request{Method: "add", ID: rpc.Int64ID(1), Params: []byte(`{"a":`)})
	assert.ErrorIs(t, err, rpc.InvalidParams(""))
}

func TestAbsentParamsAreCheckedAsEmptyParams(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/absent.json": `{"$defs": {
		"named": {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]},
		"list": {"type": "array", "minItems": 1}}}`})
	h := func(ctx context.Context, req *rpc.Request) (any, error) { return true, nil }
	r := rpc.NewRouter()
	r.Register("pos", rpc.Method{Params: set.Schema("https://schemarpc.dev/test/absent.json#/$defs/named"),
		ParamStructure: rpc.ByPosition, ParamNames: []string{"key"}, Handler: h})
	r.Register("list", rpc.Method{Params: set.Schema("https://schemarpc.dev/test/absent.json#/$defs/list"), Handler: h})
	forEachTransport(t, r, func(t *testing.T, p peer) {
		r := decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"pos","id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, "invalid params: missing required member \"key\"", r.Error.Message)
		r = decodeReply(t, p.call(t, `{"jsonrpc":"2.0","method":"list","id":1}`))
		require.NotNil(t, r.Error)
		assert.Equal(t, "invalid params: has 0 elements, fewer than 1", r.Error.Message)
	})
}
