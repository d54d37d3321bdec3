package rpc_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// transferParams is shaped like a generated params struct: a required
// param, then optional ones.
type transferParams struct {
	To    string          `json:"to"`
	Value *int64          `json:"value,omitempty"`
	Memo  string          `json:"memo,omitempty"`
	Tags  []string        `json:"tags,omitzero"`
	Extra json.RawMessage `json:"extra,omitempty"`
}

var transferNames = []string{"to", "value", "memo", "tags"}

func encoded(t *testing.T, v any) string {
	t.Helper()
	if v == nil {
		return "<nil>"
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

func TestEncodeParamsByPosition(t *testing.T) {
	seven := int64(7)
	tests := []struct {
		name     string
		params   any
		nullable []bool
		want     string
	}{
		{"every param", &transferParams{To: "bob", Value: &seven, Memo: "rent", Tags: []string{"a"}}, nil, `["bob",7,"rent",["a"]]`},
		{"trailing absent params are left out", &transferParams{To: "bob", Value: &seven}, nil, `["bob",7]`},
		{"only the required param", &transferParams{To: "bob"}, nil, `["bob"]`},
		{"a zero value that was set is kept", &transferParams{To: "", Value: new(int64), Tags: []string{}}, []bool{false, false, true, false}, `["",0,null,[]]`},
		{"a gap the schema allows null for is null", &transferParams{To: "bob", Memo: "rent"}, []bool{false, true}, `["bob",null,"rent"]`},
		{"a map works like a struct", map[string]any{"memo": "x", "to": "bob", "value": 1}, nil, `["bob",1,"x"]`},
		{"nil params stay absent", (*transferParams)(nil), nil, "<nil>"},
		{"numbers keep their text", json.RawMessage(`{"to":"a","value":1.50}`), nil, `["a",1.50]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := rpc.EncodeParams(tt.params, rpc.ByPosition, transferNames, tt.nullable)
			require.NoError(t, err)
			assert.Equal(t, tt.want, encoded(t, got))
		})
	}
}

func TestEncodeParamsByPositionRefusesWhatAnArrayCannotSay(t *testing.T) {
	_, err := rpc.EncodeParams(&transferParams{To: "bob", Memo: "rent"}, rpc.ByPosition, transferNames, nil)
	assert.EqualError(t, err, "rpc: by-position params: value is absent but memo after it is present, and value cannot be null")

	_, err = rpc.EncodeParams(&transferParams{To: "bob", Extra: json.RawMessage(`1`)}, rpc.ByPosition, transferNames, nil)
	assert.EqualError(t, err, `rpc: by-position params: "extra" is not a positional param (want one of ["to" "value" "memo" "tags"])`)

	_, err = rpc.EncodeParams([]int{1}, rpc.ByPosition, transferNames, nil)
	assert.ErrorContains(t, err, "rpc: positional params must encode as a JSON object")

	_, err = rpc.EncodeParams(func() {}, rpc.ByPosition, transferNames, nil)
	assert.Error(t, err)
}

func TestEncodeParamsEitherFallsBackToByName(t *testing.T) {
	seven := int64(7)
	got, err := rpc.EncodeParams(&transferParams{To: "bob", Value: &seven}, rpc.Either, transferNames, nil)
	require.NoError(t, err)
	assert.Equal(t, `["bob",7]`, encoded(t, got), "by position when the array says it all")

	got, err = rpc.EncodeParams(&transferParams{To: "bob", Memo: "rent"}, rpc.Either, transferNames, []bool{false, true})
	require.NoError(t, err)
	assert.Equal(t, `{"to":"bob","memo":"rent"}`, encoded(t, got), "by name rather than turning absent into null")

	got, err = rpc.EncodeParams(&transferParams{To: "bob", Extra: json.RawMessage(`1`)}, rpc.Either, transferNames, nil)
	require.NoError(t, err)
	assert.Equal(t, `{"to":"bob","extra":1}`, encoded(t, got))
}

func TestEncodeParamsByNameIsTheIdentity(t *testing.T) {
	p := &transferParams{To: "bob"}
	got, err := rpc.EncodeParams(p, rpc.ByName, transferNames, nil)
	require.NoError(t, err)
	assert.Same(t, p, got)
}

// The router turns the arrays EncodeParams makes back into the object.
func TestEncodedPositionalParamsRoundTripThroughTheRouter(t *testing.T) {
	r := rpc.NewRouter()
	var got transferParams
	r.Register("transfer", rpc.Method{ParamStructure: rpc.ByPosition, ParamNames: transferNames, Handler: func(_ context.Context, req *rpc.Request) (any, error) {
		return nil, req.DecodeParams(&got)
	}})
	seven := int64(7)
	sent := transferParams{To: "bob", Value: &seven, Memo: "rent"}
	p, err := rpc.EncodeParams(&sent, rpc.ByPosition, transferNames, nil)
	require.NoError(t, err)
	_, err = r.Handle(context.Background(), &rpc.Request{Method: "transfer", Params: p.(json.RawMessage)})
	require.NoError(t, err)
	assert.Equal(t, sent, got)
}
