package rpc_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestErrorConstructorsUseTheReservedCodes(t *testing.T) {
	cases := map[int]*rpc.Error{
		-32700: rpc.ParseError("x"),
		-32600: rpc.InvalidRequest("x"),
		-32601: rpc.MethodNotFound("x"),
		-32602: rpc.InvalidParams("x"),
		-32603: rpc.InternalError(),
		-32042: rpc.ServerError(-32042, "x"),
		-32000: rpc.ServerError(7, "out of range codes are clamped"),
		42:     rpc.NewError(42, "x"),
		43:     rpc.Errorf(43, "n=%d", 1),
	}
	for code, e := range cases {
		assert.Equal(t, code, e.Code)
	}
	assert.Equal(t, "jsonrpc error 43: n=1", rpc.Errorf(43, "n=%d", 1).Error())
}

func TestErrorsWorkWithErrorsIsAndAs(t *testing.T) {
	wrapped := fmt.Errorf("context: %w", rpc.NewError(42, "deliberate"))
	assert.ErrorIs(t, wrapped, rpc.NewError(42, "any message"))
	assert.NotErrorIs(t, wrapped, rpc.NewError(43, "deliberate"))
	var e *rpc.Error
	require.True(t, errors.As(wrapped, &e))
	assert.Equal(t, "deliberate", e.Message)
}

func TestErrorDataIsACopy(t *testing.T) {
	base := rpc.NewError(42, "x")
	withData := base.WithData(map[string]int{"n": 1})
	assert.Nil(t, base.Data)
	b, err := json.Marshal(withData)
	require.NoError(t, err)
	assert.Equal(t, `{"code":42,"message":"x","data":{"n":1}}`, string(b))
	assert.Equal(t, `[1]`, string(base.WithRawData(json.RawMessage(`[1]`)).Data))
}

func TestIDs(t *testing.T) {
	assert.Equal(t, "7", rpc.Int64ID(7).String())
	assert.Equal(t, `"a\"b"`, rpc.StringID(`a"b`).String())
	assert.True(t, rpc.NullID().IsNull())
	assert.True(t, rpc.ID{}.IsZero())
	assert.Equal(t, rpc.Int64ID(7), rpc.Int64ID(7), "ids are comparable")

	for _, raw := range []string{`1e3`, `-0`, `"\u00e9"`, `null`, `9007199254740993`} {
		var id rpc.ID
		require.NoError(t, json.Unmarshal([]byte(raw), &id), raw)
		b, err := json.Marshal(id)
		require.NoError(t, err)
		assert.Equal(t, raw, string(b))
	}
	for _, raw := range []string{`{}`, `[]`, `true`, `"unterminated`, `1.`} {
		var id rpc.ID
		assert.Error(t, json.Unmarshal([]byte(raw), &id), raw)
	}
}

func TestEncodeErrorRendersTheResponseForAnIDOrNull(t *testing.T) {
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad"}}`,
		string(rpc.EncodeError(rpc.NullID(), rpc.NewError(rpc.CodeInvalidRequest, "bad"))))
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":"a<b","error":{"code":-32602,"message":"no"}}`,
		string(rpc.EncodeError(rpc.StringID("a<b"), rpc.NewError(rpc.CodeInvalidParams, "no"))))
	// Raw data that is not JSON cannot be encoded; the response is -32603.
	got := string(rpc.EncodeError(rpc.Int64ID(7), rpc.NewError(1, "x").WithRawData([]byte("{not json"))))
	assert.Contains(t, got, `"id":7`)
	assert.Contains(t, got, `"code":-32603`)
}
