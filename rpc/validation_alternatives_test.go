package rpc_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestAOneOfFailureListsEveryAlternativeTried(t *testing.T) {
	schema := `{"oneOf": [
		{"type": "object", "properties": {"kind": {"const": "circle"}, "radius": {"type": "number"}}, "required": ["kind", "radius"]},
		{"type": "object", "properties": {"kind": {"const": "square"}, "side": {"type": "number"}}, "required": ["kind", "side"]},
		{"type": "string"}
	]}`
	sch, err := rpc.NewSchemaSet(map[string]string{"https://example.test/shape.json": schema}).Compile("https://example.test/shape.json")
	require.NoError(t, err)

	e := rpc.SchemaError(rpc.CodeInvalidParams, "invalid params: ", sch.ValidateJSON([]byte(`{"kind": "square", "side": "wide"}`)))
	var data rpc.ValidationData
	require.NoError(t, json.Unmarshal(e.Data, &data))
	require.Len(t, data.Errors, 1)
	v := data.Errors[0]
	assert.Equal(t, "/side", v.InstanceLocation, "the alternative that explains the failure best")
	require.Len(t, v.Alternatives, 3, "each alternative tried is listed")
	for i, alt := range v.Alternatives {
		assert.Contains(t, alt.KeywordLocation, "#/oneOf/"+string(rune('0'+i)), "alternative %d", i)
		assert.NotEmpty(t, alt.Message)
	}
	assert.Equal(t, "", v.Alternatives[2].InstanceLocation, "the string fails on the value's type")
}

func TestAViolationOutsideAnyUnionListsNoAlternatives(t *testing.T) {
	sch, err := rpc.NewSchemaSet(map[string]string{"https://example.test/a.json": `{"type": "object", "properties": {"a": {"type": "string"}}}`}).
		Compile("https://example.test/a.json")
	require.NoError(t, err)
	e := rpc.SchemaError(rpc.CodeInvalidParams, "invalid params: ", sch.Validate(map[string]any{"a": 1.0}))
	assert.NotContains(t, string(e.Data), "alternatives")
	assert.NotContains(t, string(e.Data), `"param"`)
}
