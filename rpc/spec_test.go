package rpc_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// specService registers the methods used by the examples of the JSON-RPC
// 2.0 specification.
func specService(t *testing.T) *rpc.Router {
	t.Helper()
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/spec.json": `{
		"$defs": {
			"subtract": {"type": "object", "properties": {"minuend": {"type": "number"}, "subtrahend": {"type": "number"}},
				"required": ["minuend", "subtrahend"], "additionalProperties": false},
			"numbers": {"type": "array", "items": {"type": "number"}}
		}}`})
	r := rpc.NewRouter()
	r.Register("subtract", rpc.Method{
		Params:         set.Schema("https://schemarpc.dev/test/spec.json#/$defs/subtract"),
		ParamStructure: rpc.Either,
		ParamNames:     []string{"minuend", "subtrahend"},
		Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
			var p struct {
				Minuend    float64 `json:"minuend"`
				Subtrahend float64 `json:"subtrahend"`
			}
			if err := req.DecodeParams(&p); err != nil {
				return nil, err
			}
			return p.Minuend - p.Subtrahend, nil
		},
	})
	sumLike := func(ctx context.Context, req *rpc.Request) (any, error) {
		var ns []float64
		if err := req.DecodeParams(&ns); err != nil {
			return nil, err
		}
		s := 0.0
		for _, n := range ns {
			s += n
		}
		return s, nil
	}
	numbers := set.Schema("https://schemarpc.dev/test/spec.json#/$defs/numbers")
	r.Register("sum", rpc.Method{Params: numbers, Handler: sumLike})
	r.Register("update", rpc.Method{Params: numbers, Notification: true, Handler: sumLike})
	r.Register("notify_hello", rpc.Method{Params: numbers, Notification: true, Handler: sumLike})
	r.Register("get_data", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return []any{"hello", 5}, nil
	}})
	return r
}

func TestSpecExamples(t *testing.T) {
	forEachTransport(t, specService(t), func(t *testing.T, p peer) {
		t.Run("positional params", func(t *testing.T) {
			assert.JSONEq(t, `{"jsonrpc":"2.0","result":19,"id":1}`,
				p.call(t, `{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}`))
			assert.JSONEq(t, `{"jsonrpc":"2.0","result":-19,"id":2}`,
				p.call(t, `{"jsonrpc": "2.0", "method": "subtract", "params": [23, 42], "id": 2}`))
		})
		t.Run("named params", func(t *testing.T) {
			assert.JSONEq(t, `{"jsonrpc":"2.0","result":19,"id":3}`,
				p.call(t, `{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}`))
			assert.JSONEq(t, `{"jsonrpc":"2.0","result":19,"id":4}`,
				p.call(t, `{"jsonrpc": "2.0", "method": "subtract", "params": {"minuend": 42, "subtrahend": 23}, "id": 4}`))
		})
		t.Run("notifications", func(t *testing.T) {
			p.silent(t, `{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}`)
			p.silent(t, `{"jsonrpc": "2.0", "method": "foobar"}`)
		})
		t.Run("non-existent method", func(t *testing.T) {
			r := decodeReply(t, p.call(t, `{"jsonrpc": "2.0", "method": "foobar", "id": "1"}`))
			assert.Equal(t, `"1"`, string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeMethodNotFound, r.Error.Code)
		})
		t.Run("invalid JSON", func(t *testing.T) {
			r := decodeReply(t, p.call(t, `{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]`))
			assert.Equal(t, "null", string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeParseError, r.Error.Code)
		})
		t.Run("invalid request object", func(t *testing.T) {
			r := decodeReply(t, p.call(t, `{"jsonrpc": "2.0", "method": 1, "params": "bar"}`))
			assert.Equal(t, "null", string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
		})
		t.Run("batch, invalid JSON", func(t *testing.T) {
			r := decodeReply(t, p.call(t, `[
  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
  {"jsonrpc": "2.0", "method"
]`))
			assert.Equal(t, "null", string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeParseError, r.Error.Code)
		})
		t.Run("empty array", func(t *testing.T) {
			r := decodeReply(t, p.call(t, `[]`))
			assert.Equal(t, "null", string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
		})
		t.Run("invalid batch of one", func(t *testing.T) {
			rs := decodeBatchReply(t, p.call(t, `[1]`))
			require.Len(t, rs, 1)
			assert.Equal(t, "null", string(rs[0].ID))
			assert.Equal(t, rpc.CodeInvalidRequest, rs[0].Error.Code)
		})
		t.Run("invalid batch", func(t *testing.T) {
			rs := decodeBatchReply(t, p.call(t, `[1,2,3]`))
			require.Len(t, rs, 3)
			for _, r := range rs {
				assert.Equal(t, "null", string(r.ID))
				assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
			}
		})
		t.Run("mixed batch", func(t *testing.T) {
			rs := decodeBatchReply(t, p.call(t, `[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]`))
			require.Len(t, rs, 5)
			assert.Equal(t, `"1"`, string(rs[0].ID))
			assert.JSONEq(t, `7`, string(rs[0].Result))
			assert.Equal(t, `"2"`, string(rs[1].ID))
			assert.JSONEq(t, `19`, string(rs[1].Result))
			assert.Equal(t, `null`, string(rs[2].ID))
			assert.Equal(t, rpc.CodeInvalidRequest, rs[2].Error.Code)
			assert.Equal(t, `"5"`, string(rs[3].ID))
			assert.Equal(t, rpc.CodeMethodNotFound, rs[3].Error.Code)
			assert.Equal(t, `"9"`, string(rs[4].ID))
			assert.JSONEq(t, `["hello", 5]`, string(rs[4].Result))
		})
		t.Run("all-notification batch", func(t *testing.T) {
			p.silent(t, `[
        {"jsonrpc": "2.0", "method": "notify_sum", "params": [1,2,4]},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}
    ]`)
		})
	})
}
