package jsonscan_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

func TestExplainSaysWhereAndWhyAValueIsRefused(t *testing.T) {
	for _, tc := range []struct {
		in     string
		at     int
		reason string
	}{
		{``, 0, "unexpected end of input"},
		{`}`, 0, "invalid character '}' looking for a value"},
		{`nul`, 0, "invalid literal"},
		{`-x`, 1, "invalid number"},
		{`1.e`, 2, "invalid number: no digits after '.'"},
		{`1e+`, 3, "invalid number: no digits in the exponent"},
		{"\"a\x01\"", 2, "control character in a string"},
		{"\"a\xff\"", 2, "invalid UTF-8 in a string"},
		{`"abc`, 4, "unexpected end of input in a string"},
		{`"\`, 1, "unexpected end of input in an escape"},
		{`"\x"`, 2, `invalid escape '\x'`},
		{`"\u12"`, 3, `unexpected end of input in a \u escape`},
		{`"\u12g4"`, 3, `invalid \u escape`},
		{`"\udc00"`, 7, "lone surrogate escape in a string"},
		{`"\ud800x"`, 7, "lone surrogate escape in a string"},
		{`"\ud800\u00"`, 9, `unexpected end of input in a \u escape`},
		{`"\ud800\u0041"`, 13, "lone surrogate escape in a string"},
		{`{"a":1,"\u0061":2}`, 7, `duplicate member name "a"`},
		{`{1:2}`, 1, "expected a member name"},
		{`{"a",1}`, 4, "expected ':' after a member name"},
		{`{"a":1`, 6, "unexpected end of input in an object"},
		{`{"a":1]`, 6, "expected ',' or '}' in an object"},
		{`[1`, 2, "unexpected end of input in an array"},
		{`[1}`, 2, "expected ',' or ']' in an array"},
		{`[[[1]]]`, 2, "nesting deeper than 2 levels"},
		{`{"a":{"b":{}}}`, 10, "nesting deeper than 2 levels"},
	} {
		f := jsonscan.Explain([]byte(tc.in), 0, 1, 2)
		assert.Equal(t, jsonscan.Fault{At: tc.at, Reason: tc.reason}, f, "%q", tc.in)
		assert.Equal(t, -1, jsonscan.StrictEnd([]byte(tc.in), 0, 1, 2), "StrictEnd refuses %q too", tc.in)
	}
}

func TestExplainFindsNoFaultInAnAcceptedValue(t *testing.T) {
	for _, in := range []string{`{"a":[1,"\ud83d\ude00"]}`, `-0.5e+3`, `"caf\u00e9"`, `null`} {
		assert.Equal(t, -1, jsonscan.Explain([]byte(in), 0, 1, 10).At, in)
	}
}

func TestTokenScannersReadStringsAndNumbers(t *testing.T) {
	for _, tc := range []struct {
		in      string
		end     int
		escaped bool
	}{
		{`"plain text, long enough to take the eight-byte steps" x`, 54, false},
		{`"caf\u00e9 \ud83d\ude00 \n"`, 27, true},
		{`"é"`, 4, false},
		{`"\ud800"`, -1, false},
		{`"open`, -1, false},
	} {
		end, escaped := jsonscan.StringEnd([]byte(tc.in), 0)
		assert.Equal(t, tc.end, end, "%q", tc.in)
		assert.Equal(t, tc.escaped, escaped, "%q", tc.in)
	}
	assert.Equal(t, `café 😀 `+"\n", string(jsonscan.AppendUnescaped(nil, []byte(`caf\u00e9 \ud83d\ude00 \n`))))
	assert.Equal(t, 8, jsonscan.NumberEnd([]byte(`-1.5e+10,`), 0))
	assert.Equal(t, -1, jsonscan.NumberEnd([]byte(`-`), 0))
	assert.Equal(t, -1, jsonscan.NumberEnd(nil, 0))
}
