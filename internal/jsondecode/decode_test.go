package jsondecode_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
)

// The decoder's agreement with its oracle is pinned in rpc
// (TestDecodeJSONAgreesWithTheOracle, FuzzDecodeJSONAgreesWithTheOracle);
// these tests pin what is its own: the error's text and fields, and what
// it refuses.

type point struct {
	X int `json:"x"`
	Y int `json:"y"`
}

func TestErrorSaysWhatAndWhere(t *testing.T) {
	tests := []struct {
		name, in string
		into     any
		want     string
	}{
		{"a value of the wrong kind", `{"x":"1"}`, new(point), `cannot decode JSON string into Go int at "/x" (byte 5)`},
		{"a number that does not fit", `{"y":1.5}`, new(point), `cannot decode JSON number 1.5 into Go int: invalid syntax at "/y" (byte 5)`},
		{"a syntax error", `{"x":1,}`, new(point), `invalid JSON: invalid character ',' at start of value (byte 6)`},
		{"a syntax error inside", `[{"x":tru}]`, new([]point), `invalid JSON: invalid character '}' in literal true (expecting 'e') at "/0/x" (byte 9)`},
		{"a repeated name", `{"a":{"x~":1,"x~":2}}`, new(map[string]point), `duplicate member name "x~" in "/a"`},
		{"the whole input", `[]`, new(point), `cannot decode JSON array into Go jsondecode_test.point (byte 0)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := jsondecode.Unmarshal([]byte(tt.in), tt.into)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestErrorTellsSyntaxFromValue(t *testing.T) {
	var e *jsondecode.Error
	require.ErrorAs(t, jsondecode.Unmarshal([]byte(`{"x":1,"x":2}`), new(point)), &e)
	assert.True(t, e.Syntactic())
	assert.ErrorIs(t, e, jsondecode.ErrDuplicateName)
	assert.Equal(t, "/x", e.Pointer, "the repeated member")

	require.ErrorAs(t, jsondecode.Unmarshal([]byte(`{"x":99999999999999999999}`), new(point)), &e)
	assert.False(t, e.Syntactic())
	assert.ErrorIs(t, e, strconv.ErrRange)
	assert.Equal(t, jsondecode.Kind('0'), e.Kind)
	assert.Equal(t, "number", e.Kind.String())
	assert.Equal(t, "int", e.GoType.String())
	assert.Equal(t, int64(5), e.Offset)
}

func TestUnmarshalRefusesATargetThatIsNotANonNilPointer(t *testing.T) {
	for _, v := range []any{point{}, (*point)(nil), nil} {
		err := jsondecode.Unmarshal([]byte(`{}`), v)
		var e *jsondecode.Error
		require.ErrorAs(t, err, &e, "%T", v)
		assert.Contains(t, err.Error(), "non-nil pointer")
	}
}

func TestUnmarshalRefusesTheFormatOption(t *testing.T) {
	var v struct {
		N int `json:"n,format:hex"`
	}
	err := jsondecode.Unmarshal([]byte(`{"n":1}`), &v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Go struct field N has unsupported `format` tag option")
	require.NoError(t, jsondecode.Unmarshal([]byte(`null`), &v), "null is not an object: nothing is decoded into the struct")
}

func TestUnmarshalRefusesAQuotedTagName(t *testing.T) {
	var v struct {
		N int `json:"'n,m'"`
	}
	err := jsondecode.Unmarshal([]byte(`{}`), &v)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "quoted or with a backslash")
}

func TestPlacePutsAnErrorInsideALargerValue(t *testing.T) {
	err := jsondecode.Unmarshal([]byte(`{"x":"1"}`), new(point))
	placed := jsondecode.Place(err, "a/b~", 10)
	var e *jsondecode.Error
	require.ErrorAs(t, placed, &e)
	assert.Equal(t, "/a~1b~0/x", e.Pointer)
	assert.Equal(t, int64(15), e.Offset)

	plain := errors.New("plain")
	assert.Same(t, plain, jsondecode.Place(plain, "a", 1), "other errors are left as they are")
}

func TestMethodErrorIsTheErrorAboutTheWholeValue(t *testing.T) {
	plain := errors.New("no")
	err := jsondecode.MethodError([]byte(` [1] `), nil, plain)
	var e *jsondecode.Error
	require.ErrorAs(t, err, &e)
	assert.Same(t, plain, e.Err)
	assert.Equal(t, jsondecode.Kind('['), e.Kind)
	assert.Equal(t, int64(1), e.Offset)
	assert.Equal(t, "", e.Pointer)
}

func TestCheckValueChecksOnlyTheFirstValue(t *testing.T) {
	assert.NoError(t, jsondecode.CheckValue([]byte(` {"a":[1]} x`)), "what follows is not its business")
	err := jsondecode.CheckValue([]byte(`{"a":[1,]}`))
	var e *jsondecode.Error
	require.ErrorAs(t, err, &e)
	assert.True(t, e.Syntactic())
	assert.Equal(t, `invalid JSON: invalid character ']' at start of value at "/a/1" (byte 8)`, err.Error())
}

func TestInternReturnsRepeatedStringsWithoutAllocating(t *testing.T) {
	b := []byte("tools/call")
	first := jsondecode.Intern(b)
	assert.Equal(t, "tools/call", first)
	allocs := testing.AllocsPerRun(100, func() { _ = jsondecode.Intern(b) })
	assert.Zero(t, allocs)
	long := make([]byte, 100)
	assert.Equal(t, string(long), jsondecode.Intern(long), "a long string is not kept, but returned all the same")
}
