package jsonscan_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// indexed walks msg's members with Members, indexing the value of
// "params", and returns that value and the index.
func indexed(t *testing.T, msg string, known string) ([]byte, *jsonscan.Index, bool) {
	t.Helper()
	m, ok := jsonscan.NewMembers([]byte(msg), 64)
	require.True(t, ok)
	if known != "" {
		m.Knowing([]byte(known), jsonscan.Depth([]byte(known)))
	}
	var x jsonscan.Index
	m.Indexing("params", &x)
	var params []byte
	for {
		k, _, v, more := m.Next()
		if !more {
			break
		}
		if jsonscan.NameIs(k, "params") {
			params = v
		}
	}
	return params, &x, !m.Err()
}

// indexMembers lists a complete index's members as name=value.
func indexMembers(t *testing.T, obj []byte, x *jsonscan.Index) []string {
	t.Helper()
	n, complete := x.Len()
	require.True(t, complete)
	var out []string
	for i := range n {
		k, v := x.Member(obj, i)
		out = append(out, string(k)+"="+string(v))
	}
	return out
}

func TestAnIndexLocatesTheTopLevelMembersOfTheIndexedValue(t *testing.T) {
	params, x, ok := indexed(t, `{"jsonrpc":"2.0","id":1,"params": { "name" : "add", "arguments":{"a":1,"b":{"c":[2]}},"_meta":{"k":"v"} },"method":"m"}`, "")
	require.True(t, ok)
	assert.Equal(t, []string{`name="add"`, `arguments={"a":1,"b":{"c":[2]}}`, `_meta={"k":"v"}`}, indexMembers(t, params, x))
}

func TestAnIndexOfAnEmptyObjectIsCompleteAndEmpty(t *testing.T) {
	params, x, ok := indexed(t, `{"params":{ },"id":1}`, "")
	require.True(t, ok)
	assert.Empty(t, indexMembers(t, params, x))
}

func TestAnIndexNamesAsWrittenAndFindsAnEscapedName(t *testing.T) {
	params, x, ok := indexed(t, `{"par\u0061ms":{"n\u0061me":"x"}}`, "")
	require.True(t, ok)
	assert.Equal(t, []string{`n\u0061me="x"`}, indexMembers(t, params, x))
}

func TestAnIndexLocatesNothingWhereItCannotHoldTheWholeObject(t *testing.T) {
	many := make([]string, 9)
	for i := range many {
		many[i] = `"m` + string(rune('a'+i)) + `":` + string(rune('0'+i))
	}
	eight := strings.Join(many[:8], ",")
	for name, tc := range map[string]struct {
		msg, known string
		complete   bool
	}{
		"eight members":         {`{"params":{` + eight + `}}`, "", true},
		"nine members":          {`{"params":{` + strings.Join(many, ",") + `}}`, "", false},
		"an array":              {`{"params":[1,2]}`, "", false},
		"null":                  {`{"params":null}`, "", false},
		"no params":             {`{"id":{"a":1}}`, "", false},
		"stepped over as known": {`{"params":{"a":1}}`, `{"a":1}`, false},
		"members within 64 KiB": {`{"params":{"a":"` + strings.Repeat("x", 65535-8) + `"}}`, "", true},
		"members past 64 KiB":   {`{"params":{"a":"` + strings.Repeat("x", 65535-6) + `"}}`, "", false},
	} {
		t.Run(name, func(t *testing.T) {
			_, x, ok := indexed(t, tc.msg, tc.known)
			require.True(t, ok)
			_, complete := x.Len()
			assert.Equal(t, tc.complete, complete)
		})
	}
}

func TestAnIndexOfAnObjectThatFailsIsIncomplete(t *testing.T) {
	for name, msg := range map[string]string{
		"a repeated name":       `{"params":{"a":1,"a":2}}`,
		"a bad value":           `{"params":{"a":tru}}`,
		"no closing brace":      `{"params":{"a":1`,
		"a repeated name later": `{"params":{"a":{"b":1,"b":2}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, x, ok := indexed(t, msg, "")
			assert.False(t, ok)
			_, complete := x.Len()
			assert.False(t, complete)
		})
	}
}

func TestANilIndexIsIncomplete(t *testing.T) {
	var x *jsonscan.Index
	n, complete := x.Len()
	assert.Zero(t, n)
	assert.False(t, complete)
}
