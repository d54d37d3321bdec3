package jsonscan_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

func TestEndFindsTheEndOfEachKindOfValue(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"a\"b" x`, `"a\"b"`},
		{`{"a":[1,{"b":"}"}]} ,`, `{"a":[1,{"b":"}"}]}`},
		{`[[],[[]]]]`, `[[],[[]]]`},
		{`true,`, `true`},
		{`false]`, `false`},
		{`null}`, `null`},
		{`-0.5e+10,`, `-0.5e+10`},
		{`12 `, `12`},
	} {
		e := jsonscan.End([]byte(tc.in), 0)
		require.GreaterOrEqual(t, e, 0, tc.in)
		assert.Equal(t, tc.want, tc.in[:e], tc.in)
	}
}

// TestEndFindsTheClosingQuoteAtEveryOffset pins the word-at-a-time skip of
// long strings: the closing quote, an escaped quote, non-ASCII text and a
// control character are found wherever they fall in an eight-byte word.
func TestEndFindsTheClosingQuoteAtEveryOffset(t *testing.T) {
	for n := range 20 {
		plain := strings.Repeat("a", n)
		for _, tc := range []struct{ body, after string }{
			{plain, ""},
			{plain + `\"` + plain, ""},
			{plain + `\\` + plain, ""},
			{plain + "é€" + plain, ""},
			{plain + `\u00e9` + plain, ""},
		} {
			in := `"` + tc.body + `"` + `,"rest"`
			assert.Equal(t, len(tc.body)+2, jsonscan.End([]byte(in), 0), "%q", in)
		}
		assert.Equal(t, -1, jsonscan.End([]byte(`"`+plain+"\x01"+plain+`"`), 0), "control character after %d bytes", n)
		assert.Equal(t, -1, jsonscan.End([]byte(`"`+plain), 0), "no closing quote after %d bytes", n)
		assert.Equal(t, -1, jsonscan.End([]byte(`"`+plain+`\`), 0), "a backslash ending the input after %d bytes", n)
	}
}

func TestEndRejectsMalformedValues(t *testing.T) {
	for _, in := range []string{``, `"abc`, "\"a\x01\"", `{"a":1`, `[`, `tru`, `nul`, `-`, `1.`, `1e`, `-a`, `x`} {
		assert.Equal(t, -1, jsonscan.End([]byte(in), 0), "%q", in)
	}
}

func TestValueTrimsWhitespaceAndRejectsTrailingData(t *testing.T) {
	v, ok := jsonscan.Value([]byte(" \n{\"a\":1}\t"))
	require.True(t, ok)
	assert.Equal(t, `{"a":1}`, string(v))
	_, ok = jsonscan.Value([]byte(`{} {}`))
	assert.False(t, ok)
	_, ok = jsonscan.Value([]byte(`  `))
	assert.False(t, ok)
}

func TestObjectStepsThroughMembersInOrder(t *testing.T) {
	o, ok := jsonscan.NewObject([]byte(` { "a" : 1 , "b\n":{"c":[2]}, "d":"x" } `))
	require.True(t, ok)
	var names, values []string
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		names = append(names, string(k))
		values = append(values, string(v))
	}
	assert.False(t, o.Err())
	assert.Equal(t, []string{"a", `b\n`, "d"}, names)
	assert.Equal(t, []string{"1", `{"c":[2]}`, `"x"`}, values)
}

func TestObjectOfNothing(t *testing.T) {
	o, ok := jsonscan.NewObject([]byte(`{ }`))
	require.True(t, ok)
	_, _, ok = o.Next()
	assert.False(t, ok)
	assert.False(t, o.Err())
}

func TestObjectReportsMalformedInput(t *testing.T) {
	_, ok := jsonscan.NewObject([]byte(`[1]`))
	assert.False(t, ok)
	for _, in := range []string{`{"a"}`, `{"a":}`, `{1:2}`, `{"a":1,`, `{"a`} {
		o, ok := jsonscan.NewObject([]byte(in))
		require.True(t, ok, in)
		for {
			if _, _, ok := o.Next(); !ok {
				break
			}
		}
		assert.True(t, o.Err(), in)
	}
}

func TestMemberFindsANameWrittenWithEscapes(t *testing.T) {
	v, ok := jsonscan.Member([]byte(`{"x":0,"\u0061b":[1]}`), "ab")
	require.True(t, ok)
	assert.Equal(t, `[1]`, string(v))
	_, ok = jsonscan.Member([]byte(`{"x":0}`), "ab")
	assert.False(t, ok)
	_, ok = jsonscan.Member([]byte(`"ab"`), "ab")
	assert.False(t, ok)
}

func TestStringsDecodeAndCompare(t *testing.T) {
	s, ok := jsonscan.String([]byte(`"caf\u00e9"`))
	require.True(t, ok)
	assert.Equal(t, "café", s)
	s, ok = jsonscan.String([]byte(`"plain"`))
	require.True(t, ok)
	assert.Equal(t, "plain", s)
	_, ok = jsonscan.String([]byte(`12`))
	assert.False(t, ok)
	assert.True(t, jsonscan.StringIs([]byte(`"2026-07-28"`), "2026-07-28"))
	assert.True(t, jsonscan.StringIs([]byte(`"\u0032026-07-28"`), "2026-07-28"))
	assert.False(t, jsonscan.StringIs([]byte(`2026`), "2026"))
	assert.False(t, jsonscan.StringIs([]byte(`"x\q"`), `x\q`))
	n, ok := jsonscan.Name([]byte(`a\tb`))
	require.True(t, ok)
	assert.Equal(t, "a\tb", n)
}

func TestSteppingAPlainObjectDoesNotAllocate(t *testing.T) {
	data := []byte(`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":7}}`)
	allocs := testing.AllocsPerRun(100, func() {
		if v, ok := jsonscan.Member(data, "_meta"); !ok || !jsonscan.StringIs([]byte(`"x"`), "x") || len(v) == 0 {
			t.Fatal("member not found")
		}
	})
	assert.Zero(t, allocs)
}

func TestPlainEndStopsAtTheFirstByteEndingAPlainRun(t *testing.T) {
	for n := range 20 {
		plain := strings.Repeat("a", n)
		for _, stop := range []string{`"`, `\`, "\x01", "\x1f", "é", "\xff"} {
			for _, in := range []string{plain + stop + plain, plain + stop + plain + "12345678"} {
				end := jsonscan.PlainEnd([]byte(in), 0)
				assert.LessOrEqual(t, end, n, "%q: past the byte ending the run", in)
				if n+8 <= len(in) {
					assert.Equal(t, n, end, "%q: eight bytes from the stop on, it is found", in)
				}
				assert.Equal(t, end+1, jsonscan.PlainEnd([]byte("x"+in), 1), "from 1: %q", in)
			}
		}
		end := jsonscan.PlainEnd([]byte(plain), 0)
		assert.True(t, end <= n && n-end < 8, "%q: stops within the last eight bytes, at %d", plain, end)
	}
}

func TestNameIsComparesTheDecodedName(t *testing.T) {
	for _, tc := range []struct {
		raw, name string
		want      bool
	}{
		{`ab`, "ab", true},
		{`ab`, "abc", false},
		{`abc`, "ab", false},
		{`ab`, "ba", false},
		{`\u0061b`, "ab", true},
		{`\u0061b`, "ac", false},
		{`caf\u00e9`, "café", true},
		{`a\\`, `a\`, true},
		{`a\"`, `a\"`, false},
		{`x\q`, `x\q`, false},
		{`x\qy`, `x\q`, false},
	} {
		assert.Equal(t, tc.want, jsonscan.NameIs([]byte(tc.raw), tc.name), "%s as %q", tc.raw, tc.name)
	}
}

// members steps through the object text, telling the walk known when it
// is not nil, and lists what it hands out and whether it ended on an error.
func members(text, known string) (out []string, bad bool) {
	o, ok := jsonscan.NewObject([]byte(text))
	if !ok {
		return nil, true
	}
	if known != "" {
		o.Knowing([]byte(known))
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			return out, o.Err()
		}
		out = append(out, string(k)+"="+string(v))
	}
}

func TestObjectKnowingAValueHandsOutWhatItWouldHaveScanned(t *testing.T) {
	const meta = `{"v":"2026-07-28","caps":{},"info":{"name":"x\"}"}}`
	for _, known := range []string{meta, `[1,{"a":"]"}]`, `{}`, `12`, `"s"`} {
		for _, text := range []string{
			`{"_meta":` + meta + `,"name":"add"}`,
			`{"name":"add","_meta":` + meta + `}`,
			`{"a":` + meta + `,"b":` + meta + `}`,
			`{"_meta":{"v":"2026-07-28","caps":{},"info":{"name":"y"}},"name":"add"}`,
			`{"_meta":` + meta[:len(meta)-1] + `,"more":1},"name":"add"}`,
			`{"_meta":` + meta + `}`,
			`{"_meta":` + meta,
			`{"_meta":` + meta + `,`,
			`{"_meta":` + meta + `:1}`,
			`{"x":[1,{"a":"]"}],"y":12,"z":"s","w":{}}`,
			`{"x":[1,{"a":"]"}]]}`,
			`{"x":123,"y":"st"}`,
			`{"x":{}}`,
		} {
			want, wantBad := members(text, "")
			got, gotBad := members(text, known)
			assert.Equal(t, want, got, "%s knowing %s", text, known)
			assert.Equal(t, wantBad, gotBad, "%s knowing %s", text, known)
		}
	}
}

func TestDepthCountsTheLevelsAValueNests(t *testing.T) {
	for in, want := range map[string]int{
		`1`: 0, `"{["`: 0, `{}`: 1, `[]`: 1, `{"a":[1,{"b":"]}"}]}`: 3, `[[],[[]]]`: 3, `{"a":{},"b":{}}`: 2,
	} {
		assert.Equal(t, want, jsonscan.Depth([]byte(in)), in)
	}
}

// walkMembers checks text with Members told known (when not empty), and
// lists the members handed out and whether the whole text was accepted.
func walkMembers(text, known string, maxDepth int) (out []string, accepted bool) {
	m, ok := jsonscan.NewMembers([]byte(text), maxDepth)
	if !ok {
		return nil, false
	}
	if known != "" {
		m.Knowing([]byte(known), jsonscan.Depth([]byte(known)))
	}
	for {
		k, _, v, ok := m.Next()
		if !ok {
			return out, !m.Err()
		}
		out = append(out, string(k)+"="+string(v))
	}
}

func TestMembersKnowingAValueChecksAsStrictDoes(t *testing.T) {
	const meta = `{"v":"2026-07-28","caps":{},"info":{"name":"x\"}"}}`
	for _, known := range []string{meta, `{}`, `{"a":"]"}`, `[1,{"a":"]"}]`} {
		for _, text := range []string{
			`{"id":1,"params":{"_meta":` + meta + `,"name":"add"}}`,
			`{"params":{"name":"add","_meta":` + meta + `},"id":1}`,
			`{"a":` + meta + `,"b":{"c":` + meta + `}}`,
			`{"a":{"b":{"c":{"d":` + meta + `}}}}`,
			`{"params":{"_meta":` + meta + `,"_meta":1}}`,
			`{"params":{"_meta":` + meta[:len(meta)-1] + `,"v":1}}}`,
			`{"params":{"_meta":` + meta + `}`,
			`{"params":{"_meta":` + meta + `,}}`,
			`{"params":{"_meta":` + meta + `}} x`,
			`{"x":[1,{"a":"]"}],"y":{"z":[1,{"a":"]"}]},"w":{}}`,
			`{"x":[[1,{"a":"]"}]]}`,
			`{"x":{},"y":{"x":{},"x":{}}}`,
			"{\"x\":{\"\xff\":1}}",
		} {
			for _, maxDepth := range []int{2, 3, 4, 5, 6, 1000} {
				want, wantOK := walkMembers(text, "", maxDepth)
				got, gotOK := walkMembers(text, known, maxDepth)
				assert.Equal(t, jsonscan.Strict([]byte(text), maxDepth), gotOK, "%s knowing %s, depth %d", text, known, maxDepth)
				assert.Equal(t, wantOK, gotOK, "%s knowing %s, depth %d", text, known, maxDepth)
				if wantOK {
					assert.Equal(t, want, got, "%s knowing %s, depth %d", text, known, maxDepth)
				}
			}
		}
	}
}
