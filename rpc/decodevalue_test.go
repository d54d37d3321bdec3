package rpc_test

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// scalarInputs are values of every JSON kind and the edge cases of each:
// escapes, whitespace around a value, numbers past a type's range or
// written with a fraction or exponent, invalid UTF-8, lone surrogates and
// text that is not one JSON value.
var scalarInputs = []string{
	`"plain"`, `""`, `"é ü 日本"`, `"with \"escape\""`, `"\u00e9"`, `"\ud800"`, "\"\xff\"", "\"a\x01b\"", `"a"b"`, `"unterminated`,
	` "padded" `, `"tab` + "\t" + `"`,
	`true`, `false`, ` true`, `tru`, `truex`,
	`0`, `-0`, `1`, `-1`, `42`, `123456789012345678`, `-123456789012345678`, `1234567890123456789`, `9223372036854775807`,
	`9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`, `99999999999999999999`, `01`, `-`, `1.`, `.5`,
	`1.5`, `1.0`, `1e2`, `1E+2`, `-2.5e-3`, `1e400`, `-1e400`, `1e-400`, `0.1`, ` 7 `, `+1`, `0x10`, `NaN`, `Infinity`,
	`null`, ` null `, `nul`, `[]`, `[1]`, `{}`, `{"a":1}`, ``, ` `, `"a" "b"`, `1 2`,
}

// sameAsDecodeJSON checks that decode gives what DecodeJSON gives for in:
// the same value, or an error with the same text.
func sameAsDecodeJSON[T any](t *testing.T, in string, decode func([]byte, *T) error) {
	t.Helper()
	var want, got T
	wantErr := rpc.DecodeJSON([]byte(in), &want)
	gotErr := decode([]byte(in), &got)
	if wantErr != nil {
		require.Error(t, gotErr, "%q: DecodeJSON fails with %v", in, wantErr)
		assert.Equal(t, wantErr.Error(), gotErr.Error(), "%q", in)
		return
	}
	require.NoError(t, gotErr, "%q", in)
	assert.Equal(t, want, got, "%q", in)
}

type level string

// meta is a map type of its own, as the generated Meta is.
type meta map[string]json.RawMessage

func TestScalarDecodersGiveWhatDecodeJSONGives(t *testing.T) {
	for _, in := range scalarInputs {
		sameAsDecodeJSON(t, in, rpc.DecodeString[string])
		sameAsDecodeJSON(t, in, rpc.DecodeString[level])
		sameAsDecodeJSON(t, in, rpc.DecodeBool[bool])
		sameAsDecodeJSON(t, in, rpc.DecodeInt[int64])
		sameAsDecodeJSON(t, in, rpc.DecodeFloat[float64])
		sameAsDecodeJSON(t, in, rpc.DecodeRaw)
	}
}

func TestNullSetsTheZeroValue(t *testing.T) {
	// The decoder behind DecodeJSON sets a non-pointer to its zero value
	// for null (it does not leave it as it was); the helpers do the same.
	s, b, n, f := "was", true, int64(7), 2.5
	require.NoError(t, rpc.DecodeString([]byte(`null`), &s))
	require.NoError(t, rpc.DecodeBool([]byte(`null`), &b))
	require.NoError(t, rpc.DecodeInt([]byte(`null`), &n))
	require.NoError(t, rpc.DecodeFloat([]byte(`null`), &f))
	assert.Equal(t, "", s)
	assert.False(t, b)
	assert.Zero(t, n)
	assert.Zero(t, f)

	ws, wb, wn, wf := "was", true, int64(7), 2.5
	require.NoError(t, rpc.DecodeJSON([]byte(`null`), &ws))
	require.NoError(t, rpc.DecodeJSON([]byte(`null`), &wb))
	require.NoError(t, rpc.DecodeJSON([]byte(`null`), &wn))
	require.NoError(t, rpc.DecodeJSON([]byte(`null`), &wf))
	assert.Equal(t, []any{"", false, int64(0), 0.0}, []any{ws, wb, wn, wf}, "DecodeJSON's own behaviour, which the helpers follow")

	var r json.RawMessage
	require.NoError(t, rpc.DecodeRaw([]byte(`null`), &r))
	assert.Equal(t, json.RawMessage(`null`), r, "raw JSON keeps null as written")

	p := new(string)
	require.NoError(t, rpc.DecodePointer([]byte(`null`), &p, rpc.DecodeString[string]))
	assert.Nil(t, p)

	sl := []string{"x"}
	require.NoError(t, rpc.DecodeSlice([]byte(`null`), &sl, rpc.DecodeString[string]))
	assert.Nil(t, sl)
}

func TestIntegerFieldsTakeOnlyIntegers(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr string
	}{
		{`42`, 42, ""},
		{`-0`, 0, ""},
		{`9223372036854775807`, math.MaxInt64, ""},
		{`-9223372036854775808`, math.MinInt64, ""},
		{`1.5`, 0, "a number where an integer is expected"},
		{`1e2`, 0, "a number where an integer is expected"},
		{`9223372036854775808`, 0, "a number out of range"},
		{`"1"`, 0, "a string where an integer is expected"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var n int64
			err := rpc.DecodeInt([]byte(tt.in), &n)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Equal(t, tt.wantErr, rpc.DecodeReason(err))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, n)
		})
	}
}

func TestFloatsKeepNegativeZeroAndRefuseOverflow(t *testing.T) {
	var f float64
	require.NoError(t, rpc.DecodeFloat([]byte(`-0`), &f))
	assert.True(t, math.Signbit(f), "-0 stays negative zero, as DecodeJSON keeps it")
	err := rpc.DecodeFloat([]byte(`1e400`), &f)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "out of range")
}

func TestDecodeRawCopiesTheValue(t *testing.T) {
	in := []byte(`{"a":[1,2]}`)
	var r json.RawMessage
	require.NoError(t, rpc.DecodeRaw(in, &r))
	copy(in, `{"b":[3,4]}`)
	assert.Equal(t, `{"a":[1,2]}`, string(r), "the raw value must not alias the input, which the caller may reuse")
}

func TestDecodeRawChecksTheValue(t *testing.T) {
	for _, in := range []string{`{"a":1,"a":2}`, "[\"\xff\"]", `{"a":"\udc00"}`, `[1,]`, `[` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `]`} {
		var r json.RawMessage
		assert.Error(t, rpc.DecodeRaw([]byte(in), &r), "%.40q", in)
	}
}

func TestDecodeStringReusesRepeatedShortStrings(t *testing.T) {
	in := []byte(`"tools/call"`)
	var s string
	require.NoError(t, rpc.DecodeString(in, &s))
	allocs := testing.AllocsPerRun(100, func() { _ = rpc.DecodeString(in, &s) })
	assert.Zero(t, allocs, "a short string seen before comes from the shared table")
	assert.Equal(t, "tools/call", s)

	long := []byte(`"` + strings.Repeat("x", 100) + `"`)
	require.NoError(t, rpc.DecodeString(long, &s))
	assert.Equal(t, strings.Repeat("x", 100), s)
}

func TestDecodeStringIsSafeAcrossGoroutines(t *testing.T) {
	// Strings that share slots of the table, decoded at once: each
	// goroutine must always read back its own (the race detector checks
	// the table's accesses).
	words := []string{"ab", "ba", "alpha", "bravo", "charlie", "delta-echo-foxtrot", "golf", "hotel"}
	done := make(chan error, len(words))
	for _, w := range words {
		go func() {
			in := []byte(`"` + w + `"`)
			for range 2000 {
				var s string
				if err := rpc.DecodeString(in, &s); err != nil || s != w {
					done <- errors.New("decoded " + s + " for " + w)
					return
				}
			}
			done <- nil
		}()
	}
	for range words {
		require.NoError(t, <-done)
	}
}

// memberPoint has a generated-style UnmarshalJSON that checks its whole input
// (through DecodeMembers).
type memberPoint struct {
	X, Y  int64
	Extra map[string]json.RawMessage
}

func (p *memberPoint) UnmarshalJSON(b []byte) error {
	*p = memberPoint{}
	extra, err := rpc.DecodeMembers[json.RawMessage](b, func(name, value []byte) (bool, error) {
		switch string(name) {
		case "x":
			return true, rpc.DecodeInt(value, &p.X)
		case "y":
			return true, rpc.DecodeInt(value, &p.Y)
		}
		return false, nil
	})
	p.Extra = extra
	return err
}

func TestCompositeDecodersGiveWhatDecodeJSONGives(t *testing.T) {
	inputs := append([]string{
		`{"x":1,"y":2}`, `{"x":1,"y":2,"z":[true]}`, `{"x":1.5}`, `{"x":"1"}`, `{"x":1,"x":2}`, `{"x":1} `,
		`[{"x":1},{"y":2}]`, `[{"x":1},{"y":"bad"}]`, `[{"x":1}, null]`, `[{"x":1},]`, `[{"x":1} {"y":2}]`, `[{"x":1}]]`,
		`{}`, `{ }`, `{"a":{"b":[1]},"c":"d"}`, `{"a":1,"a":2}`, `{"\u0061":1}`, "{\"a\":\"\xff\"}",
		`["a","b"]`, `["a",1]`, `[true]`, `["a", true]`, `[ "a" , "b" ]`, `[]`, `[ ]`, `["a"`, "[\"\xff\"]", `[[1]]`,
	}, scalarInputs...)
	for _, in := range inputs {
		sameAsDecodeJSON(t, in, rpc.DecodeUnmarshaler[memberPoint])
		sameAsDecodeJSON(t, in, func(b []byte, p **memberPoint) error {
			return rpc.DecodePointer(b, p, rpc.DecodeUnmarshaler[memberPoint])
		})
		sameAsDecodeJSON(t, in, func(b []byte, p **string) error { return rpc.DecodePointer(b, p, rpc.DecodeString[string]) })
		sameAsDecodeJSON(t, in, func(b []byte, p **int64) error { return rpc.DecodePointer(b, p, rpc.DecodeInt[int64]) })
		sameAsDecodeJSON(t, in, func(b []byte, p *[]memberPoint) error {
			return rpc.DecodeSlice(b, p, rpc.DecodeUnmarshaler[memberPoint])
		})
		sameAsDecodeJSON(t, in, func(b []byte, p *[]string) error { return rpc.DecodeSlice(b, p, rpc.DecodeString[string]) })
		sameAsDecodeJSON(t, in, func(b []byte, p *[]json.RawMessage) error { return rpc.DecodeSlice(b, p, rpc.DecodeRaw) })
		sameAsDecodeJSON(t, in, func(b []byte, p *[]recorded) error { return rpc.DecodeSlice(b, p, rpc.DecodeValue[recorded]) })
		sameAsDecodeJSON(t, in, func(b []byte, p **recorded) error { return rpc.DecodePointer(b, p, rpc.DecodeValue[recorded]) })
		sameAsDecodeJSON(t, in, rpc.DecodeRawMap[map[string]json.RawMessage])
		sameAsDecodeJSON(t, in, rpc.DecodeRawMap[meta])
	}
}

func TestDecodeRawMapGivesAnEmptyMapForAnEmptyObjectAndMergesIntoAFullOne(t *testing.T) {
	var m meta
	require.NoError(t, rpc.DecodeRawMap([]byte(`{}`), &m))
	assert.NotNil(t, m)
	assert.Empty(t, m)

	full := meta{"kept": json.RawMessage(`1`)}
	require.NoError(t, rpc.DecodeRawMap([]byte(`{"new":2}`), &full))
	assert.Equal(t, meta{"kept": json.RawMessage(`1`), "new": json.RawMessage(`2`)}, full, "as DecodeJSON merges")

	in := []byte(`{"a":"x"}`)
	var c map[string]json.RawMessage
	require.NoError(t, rpc.DecodeRawMap(in, &c))
	copy(in, `{"a":"y"}`)
	assert.Equal(t, `"x"`, string(c["a"]), "the values are copies")
}

func TestDecodeSliceGivesAnEmptySliceForAnEmptyArray(t *testing.T) {
	var s []string
	require.NoError(t, rpc.DecodeSlice([]byte(`[]`), &s, rpc.DecodeString[string]))
	assert.NotNil(t, s)
	assert.Empty(t, s)
}

func TestDecodeSliceAllocatesOnlyTheGrowingSlice(t *testing.T) {
	in := []byte(`["a","b","c"]`)
	var s []string
	allocs := testing.AllocsPerRun(100, func() { _ = rpc.DecodeSlice(in, &s, rpc.DecodeString[string]) })
	assert.Equal(t, []string{"a", "b", "c"}, s)
	assert.LessOrEqual(t, allocs, 3.0, "three appends to an empty slice, nothing for the walk itself")
}

func TestDecodeSlicePlacesAnElementErrorAtTheElement(t *testing.T) {
	in := []byte(`["a", 2]`)
	var s []string
	err := rpc.DecodeSlice(in, &s, rpc.DecodeString[string])
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.Equal(t, "/1", derr.Pointer)
	assert.Equal(t, int64(strings.Index(string(in), "2")), derr.Offset)
	assert.Contains(t, err.Error(), `at "/1"`)
	assert.Equal(t, `a number where a string is expected at "/1"`, rpc.DecodeReason(err))
}

// recorded keeps the JSON it is given, and refuses true, as a union reads
// its input without checking it.
type recorded struct{ raw string }

func (r *recorded) UnmarshalJSON(b []byte) error {
	if string(b) == "true" {
		return errors.New("true is not allowed")
	}
	r.raw = string(b)
	return nil
}

// failing's UnmarshalJSON fails with an error that is not a JSON error.
type failing struct{}

var errFailing = errors.New("refused by the method")

func (*failing) UnmarshalJSON([]byte) error { return errFailing }

func TestMethodErrorsAreWrappedAsTheDecoderWrapsThem(t *testing.T) {
	var f failing
	err := rpc.DecodeUnmarshaler([]byte(`{}`), &f)
	var derr *rpc.DecodeError
	require.ErrorAs(t, err, &derr)
	assert.ErrorIs(t, err, errFailing)
	assert.Equal(t, "rpc_test.failing", derr.GoType.String())
	assert.Equal(t, "object", derr.Kind.String())
	wantErr := jsonv2.Unmarshal([]byte(`{}`), new(failing))
	assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err))
	assert.Equal(t, *derr, *rpc.DecodeJSON([]byte(`{}`), new(failing)).(*rpc.DecodeError), "as DecodeJSON wraps it")

	var s []failing
	err = rpc.DecodeSlice([]byte(`[{}]`), &s, rpc.DecodeUnmarshaler[failing])
	wantErr = jsonv2.Unmarshal([]byte(`[{}]`), new([]failing))
	require.Error(t, err)
	assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err), "placed at the element")
	assert.Equal(t, rpc.DecodeJSON([]byte(`[{}]`), new([]failing)).Error(), err.Error(), "placed at the element")
}
