package jsonscan_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

func TestPlainStringTakesOnlyStringsWithoutEscapes(t *testing.T) {
	tests := []struct {
		in   string
		want string
		ok   bool
	}{
		{`"abc"`, "abc", true},
		{`""`, "", true},
		{`"é日本"`, "é日本", true},
		{`"a\"b"`, "", false},
		{`"a\u0062"`, "", false},
		{`"a"b"`, "", false},
		{"\"a\x01\"", "", false},
		{"\"\xff\"", "", false},
		{"\"\xed\xa0\x80\"", "", false}, // a surrogate written as UTF-8
		{` "a"`, "", false},
		{`"a" `, "", false},
		{`"`, "", false},
		{`abc`, "", false},
	}
	for _, tt := range tests {
		got, ok := jsonscan.PlainString([]byte(tt.in))
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		if tt.ok {
			assert.Equal(t, tt.want, string(got), "%q", tt.in)
		}
	}
}

func TestSmallIntReadsIntegersThatFitWhateverTheirDigits(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		ok   bool
	}{
		{`0`, 0, true},
		{`-0`, 0, true},
		{`7`, 7, true},
		{`-42`, -42, true},
		{`999999999999999999`, 999999999999999999, true},
		{`-999999999999999999`, -999999999999999999, true},
		{`1000000000000000000`, 0, false}, // 19 digits: left to the decoder
		{`01`, 0, false},
		{`-`, 0, false},
		{``, 0, false},
		{`1.0`, 0, false},
		{`1e2`, 0, false},
		{` 1`, 0, false},
		{`+1`, 0, false},
	}
	for _, tt := range tests {
		got, ok := jsonscan.SmallInt([]byte(tt.in))
		assert.Equal(t, tt.ok, ok, "%q", tt.in)
		assert.Equal(t, tt.want, got, "%q", tt.in)
	}
}

func TestIsNumberTakesExactlyOneNumber(t *testing.T) {
	for _, in := range []string{`0`, `-0`, `1.5`, `-2.5e-3`, `1E+2`, `123456789012345678901234567890`} {
		assert.True(t, jsonscan.IsNumber([]byte(in)), in)
	}
	for _, in := range []string{``, `-`, `01`, `1.`, `.5`, `1e`, `+1`, ` 1`, `1 `, `1x`, `NaN`, `"1"`} {
		assert.False(t, jsonscan.IsNumber([]byte(in)), in)
	}
}

func TestBareRefusesWhitespaceAround(t *testing.T) {
	assert.True(t, jsonscan.Bare([]byte(`{}`)))
	for _, in := range []string{``, ` {}`, "{}\n", "\t1"} {
		assert.False(t, jsonscan.Bare([]byte(in)), "%q", in)
	}
}

func TestArrayStepsThroughElements(t *testing.T) {
	a, ok := jsonscan.NewArray([]byte(`[ 1 , "a\"]" ,{"b":[2]},[] ]`))
	require.True(t, ok)
	var got []string
	for {
		e, ok := a.Next()
		if !ok {
			break
		}
		got = append(got, string(e))
	}
	assert.False(t, a.Err())
	assert.Equal(t, []string{`1`, `"a\"]"`, `{"b":[2]}`, `[]`}, got)

	empty, ok := jsonscan.NewArray([]byte(`[ ]`))
	require.True(t, ok)
	_, ok = empty.Next()
	assert.False(t, ok)
	assert.False(t, empty.Err())
}

func TestArrayReportsMalformedSeparators(t *testing.T) {
	for _, in := range []string{`[1,]`, `[,1]`, `[1 2]`, `[1`, `[1]]`, `[1] `, `[1,`, `[`, `["a]`} {
		a, ok := jsonscan.NewArray([]byte(in))
		require.True(t, ok, in)
		for n := 0; n < 10; n++ {
			if _, ok := a.Next(); !ok {
				break
			}
		}
		assert.True(t, a.Err(), "%q", in)
	}
	_, ok := jsonscan.NewArray([]byte(` [1]`))
	assert.False(t, ok, "whitespace before the array")
}

func TestMembersHandsOutTheMembersStrictChecks(t *testing.T) {
	m, ok := jsonscan.NewMembers([]byte(` { "a" : 1 , "b\n":{"c":[2]}, "\u0064":"x" } `), 10)
	require.True(t, ok)
	var names, values []string
	var escaped []bool
	for {
		k, esc, v, ok := m.Next()
		if !ok {
			break
		}
		names = append(names, string(k))
		escaped = append(escaped, esc)
		values = append(values, string(v))
	}
	assert.False(t, m.Err())
	assert.Equal(t, []string{"a", `b\n`, `\u0064`}, names)
	assert.Equal(t, []bool{false, true, true}, escaped)
	assert.Equal(t, []string{"1", `{"c":[2]}`, `"x"`}, values)
}

func TestMembersFindsTheFaultsStrictFinds(t *testing.T) {
	for _, in := range []string{
		`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a"}`, `{"a":1} x`, `{"a":1`,
		"{\"a\":\"\xff\"}", "{\"\xff\":1}", `{"a":"\ud800"}`, `{"a":[1,]}`, `{"a":{"b":1,"b":2}}`,
		`{"a":` + strings.Repeat("[", 10) + strings.Repeat("]", 10) + `}`,
	} {
		m, ok := jsonscan.NewMembers([]byte(in), 10)
		require.True(t, ok, in)
		assert.False(t, m.Rest(), "%q", in)
		assert.True(t, m.Err(), "%q", in)
		assert.False(t, jsonscan.Strict([]byte(in), 10), "Strict agrees: %q", in)
	}
	for _, in := range []string{`null`, `[]`, ` "x"`, ``} {
		_, ok := jsonscan.NewMembers([]byte(in), 10)
		assert.False(t, ok, "%q is not an object", in)
	}
}

func TestMembersKeepsManyNamesApart(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"m` + strings.Repeat("x", i) + `":1`)
	}
	ok := b.String() + "}"
	dup := b.String() + `,"mxxxxx":2}`
	m, _ := jsonscan.NewMembers([]byte(ok), 10)
	assert.True(t, m.Rest())
	m, _ = jsonscan.NewMembers([]byte(dup), 10)
	assert.False(t, m.Rest(), "a name repeated past the names compared in place")
}

// FuzzMembersAgreesWithStrict checks that walking an object with Members
// accepts exactly what Strict accepts, and hands out the members the
// standard decoder finds.
func FuzzMembersAgreesWithStrict(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[true,{"c":null}]}`, `{"a":1,"a":2}`, `{"a\u0062":"x","ab":1}`, ` {"k" : "v"} `, `{"a":1,}`, `{"x":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, ok := jsonscan.NewMembers(b, 64)
		strict := jsonscan.Strict(b, 64)
		if !ok {
			if v, isObj := jsonscan.Value(b); isObj && len(v) > 0 && v[0] == '{' && strict {
				t.Fatalf("NewMembers refused an object Strict accepts: %q", b)
			}
			return
		}
		got := map[string]string{}
		for {
			k, _, v, ok := m.Next()
			if !ok {
				break
			}
			name, _ := jsonscan.Name(k)
			got[name] = string(v)
		}
		if m.Err() == strict {
			t.Fatalf("Members error %v, Strict accepts %v: %q", m.Err(), strict, b)
		}
		if !strict {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("Strict accepts what encoding/json refuses: %q: %v", b, err)
		}
		if len(want) != len(got) {
			t.Fatalf("%d members, encoding/json finds %d: %q", len(got), len(want), b)
		}
		for k, v := range want {
			if got[k] != string(v) {
				t.Fatalf("member %q: %q, encoding/json has %q", k, got[k], v)
			}
		}
	})
}
