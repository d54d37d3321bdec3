package rpc_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

const apiDocURL = "https://schemarpc.dev/test/api.json"

func TestValidateReturnsAValidationErrorNamingTheFirstViolation(t *testing.T) {
	sch := rpc.NewSchemaSet(map[string]string{apiDocURL: `{"type":"object","required":["a","b"],"properties":{"c":{"type":"string"}}}`}).MustCompile(apiDocURL)
	err := sch.ValidateJSON([]byte(`{"c": 1}`))
	var ve *rpc.ValidationError
	require.ErrorAs(t, err, &ve)
	require.Len(t, ve.Violations, 2)
	assert.Equal(t, "", ve.Violations[0].InstanceLocation, "sorted by instance location")
	assert.Equal(t, "/c", ve.Violations[1].InstanceLocation)
	assert.Equal(t, ve.Violations[0].Message+" (and 1 more)", err.Error())
	assert.NoError(t, sch.ValidateJSON([]byte(`{"a":1,"b":2,"c":"x"}`)))
	assert.NoError(t, sch.Validate(map[string]any{"a": 1, "b": 2.5}), "Go numbers are checked by value")
}

func TestValidateRefusesAValueWithNoJSONForm(t *testing.T) {
	sch := rpc.NewSchemaSet(map[string]string{apiDocURL: `{}`}).MustCompile(apiDocURL)
	err := sch.Validate(math.NaN())
	require.Error(t, err)
	assert.False(t, errors.As(err, new(*rpc.ValidationError)), "not a violation of the schema: %v", err)
}

func TestACompileErrorNamesTheSchemaAndThePlaceAtFault(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{apiDocURL: `{"$defs":{"a":{"minLength":-1}}}`})
	_, err := set.Compile(apiDocURL + "#/$defs/a")
	var ce *rpc.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, apiDocURL+"#/$defs/a/minLength", ce.At)
	assert.Equal(t, "rpc: schema "+apiDocURL+"#/$defs/a does not compile: at "+ce.At+": "+ce.Reason, err.Error())
	_, err = set.Compile("https://schemarpc.dev/test/absent.json")
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "rpc: schema https://schemarpc.dev/test/absent.json does not compile: "+ce.Reason, err.Error(), "the place at fault is the schema itself")
	assert.Panics(t, func() { set.MustCompile(apiDocURL + "#/$defs/a") })
}

func TestAProgramOfALocationThatDoesNotCompileIsRefused(t *testing.T) {
	const badURL = "https://schemarpc.dev/test/bad.json"
	set := rpc.NewSchemaSet(map[string]string{apiDocURL: `{"$defs":{"good":{"type":"string"}}}`, badURL: `{"type":"float"}`})
	_, err := set.Program(apiDocURL+"#/$defs/good", badURL)
	var ce *rpc.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, badURL, ce.Location)
	prog, err := set.Program(apiDocURL + "#/$defs/good")
	require.NoError(t, err)
	withProg := rpc.NewSchemaSet(map[string]string{}, rpc.WithProgram(prog, apiDocURL+"#/$defs/good"))
	assert.NoError(t, withProg.Schema(apiDocURL+"#/$defs/good").ValidateJSON([]byte(`"x"`)), "valid by the program alone")
}

func TestASetWithAnUnsupportedDefaultDraftSaysSo(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{apiDocURL: `{}`}, rpc.WithDefaultDraft(rpc.Draft(5)))
	_, err := set.Compile(apiDocURL)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "default draft 5")
}

func TestASchemaTheEvaluatorCannotExplainIsRefusedWhenItCompiles(t *testing.T) {
	for name, doc := range map[string]string{
		"$dynamicRef":   `{"$defs":{"a":{"$dynamicAnchor":"x","type":"string"}},"properties":{"p":{"$dynamicRef":"#x"}}}`,
		"$recursiveRef": `{"$schema":"https://json-schema.org/draft/2019-09/schema","$recursiveAnchor":true,"properties":{"p":{"$recursiveRef":"#"}}}`,
		"$dynamicRef under unevaluatedProperties": `{"$defs":{"a":{"$dynamicAnchor":"x"}},"unevaluatedProperties":{"$dynamicRef":"#x"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			set := rpc.NewSchemaSet(map[string]string{apiDocURL: doc})
			_, err := set.Compile(apiDocURL)
			var ce *rpc.CompileError
			require.ErrorAs(t, err, &ce)
			assert.Contains(t, ce.Reason, "which schemarpc does not evaluate")
			require.ErrorAs(t, set.Schema(apiDocURL).ValidateJSON([]byte(`{"p":1}`)), &ce, "a check against it fails with the same error")
		})
	}
}
