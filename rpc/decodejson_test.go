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
		var derr *rpc.DecodeError
		require.ErrorAs(t, err, &derr, "%q", in)
		assert.True(t, derr.Syntactic(), "%q", in)
		assert.Zero(t, r.calls, "%q: the method never sees invalid text", in)
		var want recorder
		wantErr := jsonv2.Unmarshal([]byte(in), &want)
		require.Error(t, wantErr)
		assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err), "%q: the decoder's own error", in)
	}
}

func TestDecodeJSONReportsMethodErrorsAsTheDecoderDoes(t *testing.T) {
	plain := errors.New("no thanks")
	tests := []struct {
		name string
		in   string
	}{
		{"a plain error", ` {"a":1}`},
		{"a method error before trailing data", `{"a":1} x`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recorder{fail: plain}
			err := rpc.DecodeJSON([]byte(tt.in), &got)
			want := recorder{fail: plain}
			wantErr := jsonv2.Unmarshal([]byte(tt.in), &want)
			require.Error(t, wantErr)
			require.Error(t, err)
			assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err))
			assert.ErrorIs(t, err, plain)
			var derr *rpc.DecodeError
			require.ErrorAs(t, err, &derr)
			assert.Equal(t, "rpc_test.recorder", derr.GoType.String())
			assert.Equal(t, int64(strings.Index(tt.in, "{")), derr.Offset)
			assert.Equal(t, 1, got.calls, "the method is called once, even when it fails")
		})
	}
}

// placedFailure fails with a DecodeError about a member of its value.
type placedFailure struct{}

var errPlaced = errors.New("no thanks")

func (*placedFailure) UnmarshalJSON([]byte) error {
	return &rpc.DecodeError{Pointer: "/a", Offset: 5, Err: errPlaced}
}

func TestDecodeJSONPlacesADecodeErrorOfTheMethodInsideTheValue(t *testing.T) {
	plain := errPlaced
	err := rpc.DecodeJSON([]byte(`[ {"a":1}]`), new([]placedFailure))
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.Equal(t, "/0/a", derr.Pointer, "the method's pointer follows the element's")
	assert.Equal(t, int64(2+5), derr.Offset, "the method's offset counts from the element")
	assert.Same(t, plain, derr.Err, "merged into one error, not wrapped in another")
	assert.Equal(t, `no thanks at "/0/a"`, rpc.DecodeReason(err))
}

func TestDecodeJSONReportsTrailingDataAfterASuccessfulMethod(t *testing.T) {
	var r recorder
	err := rpc.DecodeJSON([]byte(`{"a":1} x`), &r)
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.True(t, derr.Syntactic())
	assert.Equal(t, 1, r.calls, "the decoder calls the method before it finds the trailing data; so does DecodeJSON")
}

func TestDecodeJSONRefusesANilTarget(t *testing.T) {
	var r *recorder
	err := rpc.DecodeJSON([]byte(`{}`), r)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "non-nil")
}

// fromDecoder has both methods: go-json-experiment's decoder would prefer
// UnmarshalJSONFrom, which DecodeJSON never calls.
type fromDecoder struct{ via string }

func (f *fromDecoder) UnmarshalJSON([]byte) error { f.via = "UnmarshalJSON"; return nil }

func (f *fromDecoder) UnmarshalJSONFrom(d *jsontext.Decoder) error {
	_, err := d.ReadValue()
	f.via = "UnmarshalJSONFrom"
	return err
}

func TestDecodeJSONCallsUnmarshalJSONNotUnmarshalJSONFrom(t *testing.T) {
	var f fromDecoder
	require.NoError(t, rpc.DecodeJSON([]byte(`{}`), &f))
	assert.Equal(t, "UnmarshalJSON", f.via)
	var in struct {
		F fromDecoder `json:"f"`
	}
	require.NoError(t, rpc.DecodeJSON([]byte(`{"f":{}}`), &in))
	assert.Equal(t, "UnmarshalJSON", in.F.via, "inside a value too")
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
			assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err), "%.60q", in)
			continue
		}
		require.NoError(t, err, "%.60q", in)
		assert.Equal(t, want, got, "%.60q", in)
	}
}

// A caller tells a syntax error from a repeated name from a value of the
// wrong kind with errors.As and errors.Is on the exported causes.
func TestADecodeErrorsCauseIsOneACallerCanName(t *testing.T) {
	var v struct {
		A int `json:"a"`
	}
	err := rpc.DecodeJSON([]byte(`{"a":1,"a":2}`), &v)
	require.ErrorIs(t, err, rpc.ErrDuplicateMemberName)
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.Equal(t, "/a", derr.Pointer)

	err = rpc.DecodeJSON([]byte(`{"a":}`), &v)
	var serr *rpc.DecodeSyntaxError
	require.ErrorAs(t, err, &serr)
	assert.NotEmpty(t, serr.What)
	assert.NotErrorIs(t, err, rpc.ErrDuplicateMemberName)

	err = rpc.DecodeJSON([]byte(`{"a":"x"}`), &v)
	require.ErrorAs(t, err, &derr)
	assert.False(t, derr.Syntactic())
	assert.Equal(t, "string", derr.Kind.String())
	assert.False(t, errors.As(err, &serr), "a value of the wrong kind is no syntax error")
}
