package rpc_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// recorder is a type with its own UnmarshalJSON that keeps what it was
// handed and fails when told to.
type recorder struct {
	got   string
	calls int
	fail  error
}

func (r *recorder) UnmarshalJSON(b []byte) error {
	r.got = string(b)
	r.calls++
	return r.fail
}

func TestDecodeJSONCallsUnmarshalJSONOnceWithTheTrimmedValue(t *testing.T) {
	var r recorder
	require.NoError(t, rpc.DecodeJSON([]byte(" \n{\"a\": [1, 2]}\t "), &r))
	assert.Equal(t, `{"a": [1, 2]}`, r.got, "the value as written, without the whitespace around it, as the decoder hands it")
	assert.Equal(t, 1, r.calls)
}

func TestDecodeJSONChecksTheInputBeforeTheMethod(t *testing.T) {
	for _, in := range []string{`{"a":1,"a":2}`, "[\"\xff\"]", `{"a":`, `[1,]`, ``, `{"a":"\ud800"}`} {
		var r recorder
		err := rpc.DecodeJSON([]byte(in), &r)
		var serr *jsontext.SyntacticError
		require.ErrorAs(t, err, &serr, "%q", in)
		assert.Zero(t, r.calls, "%q: the method never sees invalid text", in)
		var want recorder
		wantErr := jsonv2.Unmarshal([]byte(in), &want)
		require.Error(t, wantErr)
		assert.Equal(t, wantErr.Error(), err.Error(), "%q: the decoder's own error", in)
	}
}

func TestDecodeJSONReportsMethodErrorsAsTheDecoderDoes(t *testing.T) {
	plain := errors.New("no thanks")
	tests := []struct {
		name string
		in   string
		fail func() error
	}{
		{"a plain error", ` {"a":1}`, func() error { return plain }},
		{"a semantic error", ` {"a":1}`, func() error {
			return &jsonv2.SemanticError{JSONPointer: "/a", ByteOffset: 5, Err: plain}
		}},
		{"a method error before trailing data", `{"a":1} x`, func() error { return plain }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recorder{fail: tt.fail()}
			err := rpc.DecodeJSON([]byte(tt.in), &got)
			want := recorder{fail: tt.fail()}
			wantErr := jsonv2.Unmarshal([]byte(tt.in), &want)
			require.Error(t, wantErr)
			require.Error(t, err)
			assert.Equal(t, wantErr.Error(), err.Error())
			assert.ErrorIs(t, err, plain)
			assert.Equal(t, 1, got.calls, "the method is called once, even when it fails")
		})
	}
}

func TestDecodeJSONReportsTrailingDataAfterASuccessfulMethod(t *testing.T) {
	var r recorder
	err := rpc.DecodeJSON([]byte(`{"a":1} x`), &r)
	var serr *jsontext.SyntacticError
	require.ErrorAs(t, err, &serr)
	assert.Equal(t, 1, r.calls, "the decoder calls the method before it finds the trailing data; so does DecodeJSON")
}

func TestDecodeJSONRefusesANilTarget(t *testing.T) {
	var r *recorder
	err := rpc.DecodeJSON([]byte(`{}`), r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "non-nil")
}

// fromDecoder has both methods: the decoder prefers UnmarshalJSONFrom.
type fromDecoder struct{ via string }

func (f *fromDecoder) UnmarshalJSON([]byte) error { f.via = "UnmarshalJSON"; return nil }

func (f *fromDecoder) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	_, err := d.ReadValue()
	f.via = "UnmarshalJSONFrom"
	return err
}

func TestDecodeJSONLeavesTypesWithUnmarshalJSONFromToTheDecoder(t *testing.T) {
	var f fromDecoder
	require.NoError(t, rpc.DecodeJSON([]byte(`{}`), &f))
	assert.Equal(t, "UnmarshalJSONFrom", f.via)
}

func TestDecodeJSONRawMessageKeepsTheValueAsWritten(t *testing.T) {
	var r json.RawMessage
	require.NoError(t, rpc.DecodeJSON([]byte(` [ 1 ,2 ] `), &r))
	assert.Equal(t, `[ 1 ,2 ]`, string(r))
	require.Error(t, rpc.DecodeJSON([]byte(`[`+strings.Repeat("[", 10000)+strings.Repeat("]", 10000)+`]`), &r), "past the nesting limit")
}

// checkedPoint is memberPoint marked as a CheckingUnmarshaler, as the generated
// structs that keep unknown members are.
type checkedPoint struct{ memberPoint }

func (p *checkedPoint) UnmarshalJSON(b []byte) error { return p.memberPoint.UnmarshalJSON(b) }

func (*checkedPoint) UnmarshalJSONChecksInput() {}

var _ rpc.CheckingUnmarshaler = (*checkedPoint)(nil)

func TestDecodeJSONGivesACheckingUnmarshalerWhatTheDecoderGives(t *testing.T) {
	inputs := append([]string{
		`{"x":1,"y":2}`, ` {"x":1} `, "\n{\"x\":1,\"z\":[true]}\t", `{"x":1.5}`, `{"x":"1"}`, `{"x":1,"x":2}`,
		`{"x":1} x`, `{"x":"bad"} x`, `{"x":"bad"} {"y":2}`, `{"x":1}}`, `{"x":1,}`, `{"x":"\ud800"}`, "{\"x\":\"\xff\"}",
		`{"z":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"z":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
	}, scalarInputs...)
	for _, in := range inputs {
		var got, want checkedPoint
		err := rpc.DecodeJSON([]byte(in), &got)
		wantErr := jsonv2.Unmarshal([]byte(in), &want)
		if wantErr != nil {
			require.Error(t, err, "%.60q", in)
			assert.Equal(t, wantErr.Error(), err.Error(), "%.60q", in)
			continue
		}
		require.NoError(t, err, "%.60q", in)
		assert.Equal(t, want, got, "%.60q", in)
	}
}
