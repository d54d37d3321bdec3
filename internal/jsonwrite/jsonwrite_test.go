package jsonwrite_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
)

// encode is the oracle: encoding/json's Encoder without HTML escaping, its
// trailing newline removed.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

var stringCases = []string{
	"", "plain", `quote " and backslash \`, "<html> & more", "tab\tnew\nline\rcr",
	"\b\f\x00\x01\x1f\x7f", "é 漢字 🎉", "\u2028 and \u2029", "bad \xff utf8 \xc3", "\xed\xa0\x80 surrogate",
	"\ufffd", strings.Repeat("x", 300),
}

func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range stringCases {
		want, err := encode(s)
		require.NoError(t, err)
		assertSameString(t, want, jsonwrite.String(nil, s), "%q", s)
	}
}

// assertSameString compares an encoded string with encoding/json's, whose
// U+FFFD for invalid UTF-8 Go 1.26 writes as an escape and Go 1.27 as the
// character.
func assertSameString(t *testing.T, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	assert.Equal(t, string(jsonwrite.UnescapeReplacement(want)), string(jsonwrite.UnescapeReplacement(got)), msgAndArgs...)
}

func TestStringAppendsToWhatIsThere(t *testing.T) {
	assert.Equal(t, `[1,"a"`, string(jsonwrite.String([]byte("[1,"), "a")))
}

var floatCases = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.1, 1.5, 1e-6, 9.99e-7, 1e-7, 123456789, 1e20, 1e21, 1.2e21, -1e21,
	math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-10, 5e-324, 3.14159e-100, 2.5e+300,
}

func TestFloat64MatchesEncodingJSON(t *testing.T) {
	for _, f := range floatCases {
		want, err := encode(f)
		require.NoError(t, err)
		got, err := jsonwrite.Float64(nil, f)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%v", f)
	}
}

func TestFloat64RefusesWhatJSONCannotWrite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		got, err := jsonwrite.Float64([]byte("x"), f)
		var uv *jsonwrite.UnsupportedValueError
		require.ErrorAs(t, err, &uv, "%v", f)
		_, jerr := encode(f)
		assert.Contains(t, jerr.Error(), err.Error(), "the same words as encoding/json")
		assert.Equal(t, "x", string(got), "b comes back unchanged")
	}
}

func TestIntsAndBools(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{string(jsonwrite.Int64(nil, 0)), "0"},
		{string(jsonwrite.Int64(nil, -42)), "-42"},
		{string(jsonwrite.Int64(nil, math.MaxInt64)), "9223372036854775807"},
		{string(jsonwrite.Bool(nil, true)), "true"},
		{string(jsonwrite.Bool(nil, false)), "false"},
	} {
		assert.Equal(t, tc.want, tc.got)
	}
}

var rawCases = []string{
	`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e+10`, `-12.25E-3`, `"s"`, `"\u00e9\n\"\\\/"`,
	`{"a":1,"b":[true,null,{"c":"d"}]}`, ` {"a" : 1 } `, "[1,\n 2]", "\t\"x\"\r\n",
	`"<&>"`, "\"\u2028\"", "\"\xff\"", `"\ud800"`,
	// Invalid.
	``, ` `, `{`, `{"a"}`, `{"a":1,}`, `[1,]`, `[1 2]`, `01`, `1.`, `.5`, `1e`, `-`, `+1`, `tru`, `nul`, `"`, `"\x"`,
	`"\u12"`, "\"a\x01\"", `{"a":1}x`, `{} {}`, `{1:2}`, `NaN`, `'s'`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"a":` + strings.Repeat(`{"a":`, 9999) + `1` + strings.Repeat("}", 10000),
}

// compact is the oracle for Raw.
func compact(raw []byte) ([]byte, error) {
	var buf bytes.Buffer
	err := json.Compact(&buf, raw)
	return buf.Bytes(), err
}

func TestRawMatchesCompact(t *testing.T) {
	for _, in := range rawCases {
		want, wantErr := compact([]byte(in))
		got, err := jsonwrite.Raw([]byte("pre"), []byte(in))
		if wantErr != nil {
			require.Error(t, err, "%.40q", in)
			assert.Equal(t, wantErr.Error(), err.Error(), "%.40q", in)
			assert.Equal(t, "pre", string(got), "b comes back unchanged")
			continue
		}
		require.NoError(t, err, "%.40q", in)
		assert.Equal(t, "pre"+string(want), string(got), "%.40q", in)
	}
}

func TestRawChecksAStringWhereverItsSpecialBytesFall(t *testing.T) {
	for n := range 20 {
		plain := strings.Repeat("a", n)
		for _, body := range []string{
			plain, plain + `\"` + plain, plain + `\\` + plain, plain + `\u00e9` + plain, plain + "é€" + plain,
			plain + "\x01" + plain, plain + `\x` + plain, plain + `\u12` + plain, plain + `\`,
		} {
			in := `["` + body + `",1]`
			want, wantErr := compact([]byte(in))
			got, err := jsonwrite.Raw(nil, []byte(in))
			if wantErr != nil {
				assert.Error(t, err, "%q", in)
				continue
			}
			require.NoError(t, err, "%q", in)
			assert.Equal(t, string(want), string(got), "%q", in)
		}
	}
}

func TestRawCopiesCompactInputWithoutAllocating(t *testing.T) {
	in := []byte(`{"content":[{"type":"text","text":"3"}],"structuredContent":{"sum":3},"isError":false}`)
	buf := make([]byte, 0, 256)
	allocs := testing.AllocsPerRun(100, func() {
		out, err := jsonwrite.Raw(buf[:0], in)
		if err != nil || len(out) != len(in) {
			t.Fatal("not copied")
		}
	})
	assert.Zero(t, allocs)
}

func FuzzString(f *testing.F) {
	for _, s := range stringCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := encode(s)
		require.NoError(t, err)
		assertSameString(t, want, jsonwrite.String(nil, s))
	})
}

func FuzzFloat64(f *testing.F) {
	for _, v := range floatCases {
		f.Add(v)
	}
	f.Add(math.NaN())
	f.Fuzz(func(t *testing.T, v float64) {
		want, wantErr := encode(v)
		got, err := jsonwrite.Float64(nil, v)
		if wantErr != nil {
			require.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}

func FuzzRaw(f *testing.F) {
	for _, s := range rawCases {
		if len(s) < 1000 {
			f.Add([]byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want, wantErr := compact(in)
		got, err := jsonwrite.Raw(nil, in)
		if wantErr != nil {
			require.Error(t, err)
			assert.Equal(t, wantErr.Error(), err.Error())
			return
		}
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}

func TestUnescapeReplacementWritesTheCharacterForTheEscapeOnly(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"plain"`, `"plain"`},
		{`"bad \ufffd utf8 \ufffd"`, "\"bad \ufffd utf8 \ufffd\""},
		{`"a \\ufffd text"`, `"a \\ufffd text"`},
		{`"\\\ufffd"`, "\"\\\\\ufffd\""},
		{`"\u00e9 \ufffd"`, "\"\\u00e9 \ufffd\""},
		{`"\`, `"\`},
	} {
		assert.Equal(t, tc.want, string(jsonwrite.UnescapeReplacement([]byte(tc.in))), tc.in)
	}
}
