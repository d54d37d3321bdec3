package rpc_test

import (
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeJSONMatchesMemberNamesExactly(t *testing.T) {
	type params struct {
		Name string `json:"name"`
	}
	in := []byte(`{"name": "validated", "Name": "smuggled", "\u017fome": 1}`)

	var loose params
	require.NoError(t, json.Unmarshal(in, &loose))
	assert.Equal(t, "smuggled", loose.Name, "encoding/json folds case, which is why DecodeJSON exists")

	var strict params
	require.NoError(t, rpc.DecodeJSON(in, &strict))
	assert.Equal(t, "validated", strict.Name)
}

func TestDecodeJSONRejectsWhatTheParserRejects(t *testing.T) {
	var v map[string]any
	for _, in := range []string{`{"a": 1, "a": 2}`, "{\"a\": \"\xff\"}", `{"a": 1} x`, `{"a": `} {
		assert.Error(t, rpc.DecodeJSON([]byte(in), &v), in)
	}
}
