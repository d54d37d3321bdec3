package rpc_test

import (
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplitExtraKeepsOnlyUndeclaredMembers(t *testing.T) {
	got, err := rpc.SplitExtra[json.RawMessage]([]byte(`{"name": "n", "Name": 1, "x": [1, 2.50]}`), "name")
	require.NoError(t, err)
	assert.Equal(t, map[string]json.RawMessage{"Name": json.RawMessage(`1`), "x": json.RawMessage(`[1, 2.50]`)}, got)

	none, err := rpc.SplitExtra[json.RawMessage]([]byte(`{"name": "n"}`), "name")
	require.NoError(t, err)
	assert.Nil(t, none, "nil, not empty, so that omitzero and re-encoding see nothing")
}

func TestSplitExtraReportsBadInput(t *testing.T) {
	_, err := rpc.SplitExtra[int]([]byte(`{"n": "not a number"}`))
	assert.Error(t, err, "a member that does not fit V")
	_, err = rpc.SplitExtra[int]([]byte(`{"n": 1, "n": 2}`))
	assert.Error(t, err, "duplicate names")
	_, err = rpc.SplitExtra[int]([]byte(`[1]`))
	assert.Error(t, err, "not an object")
}

func TestJoinExtraSplicesMembersIn(t *testing.T) {
	out, err := rpc.JoinExtra([]byte(`{"name":"n"}`), map[string]int{"b": 2, "a": 1, "name": 9}, "name")
	require.NoError(t, err)
	assert.JSONEq(t, `{"name":"n","a":1,"b":2}`, string(out), "a declared name is never written twice")

	out, err = rpc.JoinExtra([]byte(`{}`), map[string]int{"a": 1})
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(out))

	in := []byte(`{"name":"n"}`)
	out, err = rpc.JoinExtra(in, map[string]int{"name": 1}, "name")
	require.NoError(t, err)
	assert.Equal(t, `{"name":"n"}`, string(out), "nothing to add leaves b as it is")

	_, err = rpc.JoinExtra([]byte(`{}`), map[string]any{"f": func() {}})
	assert.Error(t, err, "an extra value that cannot be encoded")
}
