package rpc_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

type withNullable struct {
	Name  rpc.Nullable[string]   `json:"name,omitzero"`
	Count rpc.Nullable[int64]    `json:"count,omitzero"`
	Tags  rpc.Nullable[[]string] `json:"tags,omitzero"`
}

func TestNullableKeepsAbsentNullAndValueApart(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{"name":null}`,
		`{"name":""}`,
		`{"name":"x","count":0}`,
		`{"count":null,"tags":[]}`,
		`{"tags":null}`,
		`{"name":"a","count":7,"tags":["b"]}`,
	} {
		var v withNullable
		require.NoError(t, json.Unmarshal([]byte(in), &v), in)
		out, err := json.Marshal(v)
		require.NoError(t, err)
		assert.JSONEq(t, in, string(out), "round trip of %s", in)
	}
}

func TestNullableStates(t *testing.T) {
	var absent rpc.Nullable[int64]
	assert.True(t, absent.IsZero())
	assert.False(t, absent.IsNull())
	_, ok := absent.Get()
	assert.False(t, ok)

	null := rpc.Null[int64]()
	assert.False(t, null.IsZero())
	assert.True(t, null.IsNull())
	_, ok = null.Get()
	assert.False(t, ok)

	some := rpc.Some(int64(0))
	assert.False(t, some.IsZero())
	assert.False(t, some.IsNull())
	v, ok := some.Get()
	assert.True(t, ok)
	assert.Equal(t, int64(0), v)
}

func TestNullableMarshalsAbsentAsNullOutsideAnObject(t *testing.T) {
	b, err := json.Marshal(rpc.Nullable[string]{})
	require.NoError(t, err)
	assert.Equal(t, "null", string(b))
	b, err = json.Marshal([]rpc.Nullable[string]{rpc.Some("a"), rpc.Null[string]()})
	require.NoError(t, err)
	assert.Equal(t, `["a",null]`, string(b))
}

func TestNullableDecodingResetsThePreviousValue(t *testing.T) {
	v := rpc.Some("old")
	require.NoError(t, json.Unmarshal([]byte(" null "), &v))
	assert.Equal(t, rpc.Null[string](), v)
}

func TestNullableReportsAValueOfTheWrongType(t *testing.T) {
	var v rpc.Nullable[int64]
	assert.Error(t, json.Unmarshal([]byte(`"x"`), &v))
}
