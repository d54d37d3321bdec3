package rpc_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A tuple written the draft-07 way: "items" as a list. Draft 2020-12 reads
// a list there as an error, draft-07 as one schema per position.
const tupleDoc = `{"definitions": {"pair": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}}`

func TestSchemaSetDefaultDraftIs202012(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/tuple.json": tupleDoc})
	_, err := set.Compile("https://schemarpc.dev/test/tuple.json#/definitions/pair")
	require.Error(t, err, "draft 2020-12 does not accept a list of item schemas")
}

func TestSchemaSetWithDefaultDraft(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/tuple.json": tupleDoc}, rpc.WithDefaultDraft(rpc.Draft7))
	sch, err := set.Compile("https://schemarpc.dev/test/tuple.json#/definitions/pair")
	require.NoError(t, err)
	assert.NoError(t, sch.Validate([]any{"a", 1}))
	assert.Error(t, sch.Validate([]any{1, "a"}), "each position has its own schema")
}

func TestSchemaSetRefusesUnknownDocuments(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://schemarpc.dev/test/a.json": `{"$ref": "b.json"}`})
	_, err := set.Compile("https://schemarpc.dev/test/a.json")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https://schemarpc.dev/test/b.json")
}

func TestSchemaErrorListsViolationsLikeTheRouter(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{"https://example.com/s.json": `{"type":"object","properties":{"a":{"type":"integer"}},"required":["b"]}`})
	sch := set.MustCompile("https://example.com/s.json")
	err := sch.Validate(map[string]any{"a": "x"})
	require.Error(t, err)
	e := rpc.SchemaError(rpc.CodeInvalidParams, "invalid arguments: ", err)
	assert.Equal(t, rpc.CodeInvalidParams, e.Code)
	assert.Contains(t, e.Message, "invalid arguments: ")
	assert.Contains(t, e.Message, "(and 1 more)")
	var data rpc.ValidationData
	require.NoError(t, json.Unmarshal(e.Data, &data))
	require.Len(t, data.Errors, 2)
	assert.Equal(t, "", data.Errors[0].InstanceLocation)
	assert.Equal(t, "/a", data.Errors[1].InstanceLocation)

	plain := rpc.SchemaError(rpc.CodeInvalidParams, "invalid arguments: ", errors.New("boom"))
	assert.Equal(t, "invalid arguments: boom", plain.Message)
	assert.Nil(t, plain.Data)
}
