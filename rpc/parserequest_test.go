package rpc_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestParseRequest(t *testing.T) {
	req, id, rerr := rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","id":"a","method":"m","params":{"x":1}}`))
	require.Nil(t, rerr)
	assert.Equal(t, "m", req.Method)
	assert.Equal(t, `"a"`, id.String())
	assert.JSONEq(t, `{"x":1}`, string(req.Params))

	req, _, rerr = rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","method":"n"}`))
	require.Nil(t, rerr)
	assert.True(t, req.IsNotification())

	cases := []struct {
		name, body string
		code       int
		id         string
	}{
		{"not JSON", `{"jsonrpc":`, rpc.CodeParseError, "null"},
		{"two texts", `{} {}`, rpc.CodeParseError, "null"},
		{"a batch", `[{"jsonrpc":"2.0","method":"m"}]`, rpc.CodeInvalidRequest, "null"},
		{"not an object", `42`, rpc.CodeInvalidRequest, "null"},
		{"wrong version, id kept", `{"jsonrpc":"1.0","id":7,"method":"m"}`, rpc.CodeInvalidRequest, "7"},
		{"params not structured", `{"jsonrpc":"2.0","id":7,"method":"m","params":3}`, rpc.CodeInvalidRequest, "7"},
		{"a response, its id kept", `{"jsonrpc":"2.0","id":7,"result":{}}`, rpc.CodeInvalidRequest, "7"},
		{"a malformed response", `{"jsonrpc":"2.0","id":7,"result":{},"error":{}}`, rpc.CodeInvalidRequest, "null"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, id, rerr := rpc.ParseRequest([]byte(c.body))
			assert.Nil(t, req)
			require.NotNil(t, rerr)
			assert.Equal(t, c.code, rerr.Code, rerr.Message)
			assert.Equal(t, c.id, id.String())
		})
	}
}

// DropParams forgets the params of a request: decoding them afterwards
// leaves the value untouched.
func TestDropParamsForgetsTheParams(t *testing.T) {
	req, _, rerr := rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`))
	require.Nil(t, rerr)
	require.NotNil(t, req.Params)
	req.DropParams()
	assert.Nil(t, req.Params)
	v := map[string]int{"kept": 2}
	require.NoError(t, req.DecodeParams(&v))
	assert.Equal(t, map[string]int{"kept": 2}, v)
}

// IndexedParams lists the params' top-level members as the reader found
// them checking the message, for as long as Params are those bytes.
func TestIndexedParamsListsTheMembersTheReaderFound(t *testing.T) {
	req, _, rerr := rpc.ParseRequest([]byte(`{"jsonrpc":"2.0","id":1,"method":"m","params":{ "a" : 1, "b":{"c":[2,3]},"d\u0065":"x" }}`))
	require.Nil(t, rerr)
	n, ok := req.IndexedParams()
	require.True(t, ok)
	var got []string
	for i := range n {
		k, v := req.ParamsMember(i)
		got = append(got, string(k)+"="+string(v))
		off := len(req.Params) - cap(v) // a slice of Params that ends where Params does
		assert.Equal(t, string(req.Params[off:off+len(v)]), string(v))
	}
	assert.Equal(t, []string{"a=1", `b={"c":[2,3]}`, `d\u0065="x"`}, got)

	req.Params = json.RawMessage(`{"a":1}`)
	_, ok = req.IndexedParams()
	assert.False(t, ok, "params replaced")
}

func TestIndexedParamsIsFalseWithoutAList(t *testing.T) {
	parsed := func(body string) *rpc.Request {
		req, _, rerr := rpc.ParseRequest([]byte(body))
		require.Nil(t, rerr)
		return req
	}
	dropped := parsed(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}`)
	dropped.DropParams()
	for name, req := range map[string]*rpc.Request{
		"by position":   parsed(`{"jsonrpc":"2.0","id":1,"method":"m","params":[1,2]}`),
		"no params":     parsed(`{"jsonrpc":"2.0","id":1,"method":"m"}`),
		"nine members":  parsed(`{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9}}`),
		"dropped":       dropped,
		"made by hand":  {Method: "m", Params: json.RawMessage(`{"a":1}`)},
		"a nil request": nil,
	} {
		_, ok := req.IndexedParams()
		assert.False(t, ok, name)
	}
}
