package rpc_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// point writes itself; a nil *point in an interface is null.
type point struct{ X, Y int64 }

func (p point) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"x":`...)
	b = strconv.AppendInt(b, p.X, 10)
	b = append(b, `,"y":`...)
	b = strconv.AppendInt(b, p.Y, 10)
	return append(b, '}'), nil
}

// broken fails to write itself.
type broken struct{}

var errBroken = errors.New("broken on purpose")

func (broken) AppendJSON(b []byte) ([]byte, error) { return nil, errBroken }

// failingMarshaler has only a MarshalJSON, which fails.
type failingMarshaler struct{}

func (failingMarshaler) MarshalJSON() ([]byte, error) { return nil, errBroken }

func TestAppendJSONValueAsksAppendersAndFallsBackToEncodingJSON(t *testing.T) {
	cases := []struct {
		name  string
		value any
		want  string
	}{
		{"an appender", point{1, 2}, `{"x":1,"y":2}`},
		{"a pointer to an appender", &point{3, 4}, `{"x":3,"y":4}`},
		{"a nil pointer to an appender", (*point)(nil), `null`},
		{"nil", nil, `null`},
		{"a string, not HTML-escaped", "<a & b>", `"<a & b>"`},
		{"a struct through encoding/json", struct {
			A string `json:"a"`
		}{"x"}, `{"a":"x"}`},
		{"raw JSON, compacted", json.RawMessage(` [ 1 , 2 ] `), `[1,2]`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rpc.AppendJSONValue([]byte("pre:"), tc.value)
			require.NoError(t, err)
			assert.Equal(t, "pre:"+tc.want, string(got))
		})
	}
}

func TestAppendJSONValueReportsWhatCannotBeEncoded(t *testing.T) {
	for name, v := range map[string]any{
		"a failing appender":    broken{},
		"a failing MarshalJSON": failingMarshaler{},
		"a NaN":                 math.NaN(),
		"a channel":             make(chan int),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := rpc.AppendJSONValue(nil, v)
			assert.Error(t, err)
		})
	}
}

func TestAppendRawJSONWritesNilAsNullAndRefusesWhatIsNotJSON(t *testing.T) {
	got, err := rpc.AppendRawJSON(nil, nil)
	require.NoError(t, err)
	assert.Equal(t, "null", string(got))

	got, err = rpc.AppendRawJSON(nil, json.RawMessage(`{ "a" : 1 }`))
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(got))

	for _, bad := range []string{``, `{`, `{"a":1} x`} {
		_, err := rpc.AppendRawJSON(nil, json.RawMessage(bad))
		assert.Error(t, err, "%q", bad)
	}
}

func TestAppendJSONMapSortsMembersAndWritesNilAsNull(t *testing.T) {
	elem := func(b []byte, x int64) ([]byte, error) { return strconv.AppendInt(b, x, 10), nil }
	cases := []struct {
		name string
		m    map[string]int64
		want string
	}{
		{"nil", nil, `null`},
		{"empty", map[string]int64{}, `{}`},
		{"sorted by name, names escaped", map[string]int64{"b": 2, "a": 1, "<\"q\">": 0}, `{"<\"q\">":0,"a":1,"b":2}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := rpc.AppendJSONMap(nil, tc.m, elem)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
	_, err := rpc.AppendJSONMap(nil, map[string]int64{"a": 1}, func(b []byte, _ int64) ([]byte, error) { return nil, errBroken })
	assert.ErrorIs(t, err, errBroken, "a value that fails fails the map")
}

func TestAppendExtraMembersSkipsDeclaredNamesAndSortsTheRest(t *testing.T) {
	extra := map[string]json.RawMessage{"z": json.RawMessage(`1`), "name": json.RawMessage(`2`), "a": nil}
	got, err := rpc.AppendExtraMembers([]byte(`,"name":"n"`), extra, rpc.AppendRawJSON, "name")
	require.NoError(t, err)
	assert.Equal(t, `,"name":"n","a":null,"z":1`, string(got))

	_, err = rpc.AppendExtraMembers(nil, map[string]json.RawMessage{"x": json.RawMessage(`{`)}, rpc.AppendRawJSON)
	assert.Error(t, err, "a member that is not JSON")
}

func TestAppendJSONKeyAndEndJSONObjectMakeAnObject(t *testing.T) {
	b := []byte("[")
	start := len(b)
	b = rpc.AppendJSONKey(b, `,"a":`)
	b = append(b, '1')
	b = rpc.AppendJSONKey(b, `,"b":`)
	b = append(b, "true"...)
	assert.Equal(t, `[{"a":1,"b":true}`, string(rpc.EndJSONObject(b, start)))
}

func TestEndJSONObjectTurnsTheFirstCommaIntoTheBrace(t *testing.T) {
	assert.Equal(t, `[{}`, string(rpc.EndJSONObject([]byte(`[`), 1)))
	assert.Equal(t, `[{"a":1,"b":2}`, string(rpc.EndJSONObject([]byte(`[,"a":1,"b":2`), 1)))
}

func TestJoinExtraLeavesItsInputAsItIs(t *testing.T) {
	in := []byte(`{"name":"n"}`)
	out, err := rpc.JoinExtra(in, map[string]json.RawMessage{"x": json.RawMessage(` [1] `)}, "name")
	require.NoError(t, err)
	assert.Equal(t, `{"name":"n","x":[1]}`, string(out))
	assert.Equal(t, `{"name":"n"}`, string(in))

	out, err = rpc.JoinExtra([]byte(`{}`), map[string]int{"name": 1}, "name")
	require.NoError(t, err)
	assert.Equal(t, `{}`, string(out), "nothing to add")
}
