package rpc_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

const progDocURL = "https://schemarpc.dev/test/prog.json"

const progDoc = `{"$defs": {"add": {"type": "object", "required": ["a", "b"],
  "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "additionalProperties": false}}}`

// programOf compiles locations of docs as rpcgen does, into a program.
func programOf(t *testing.T, docs map[string]string, locations ...string) string {
	t.Helper()
	prog, err := rpc.NewSchemaSet(docs).Program(locations...)
	require.NoError(t, err)
	return prog
}

// callAdd registers add with params and calls it with the given params.
func callAdd(t *testing.T, params *rpc.Schema, raw string) (any, error) {
	t.Helper()
	r := rpc.NewRouter()
	r.Register("add", rpc.Method{Params: params, Handler: func(context.Context, *rpc.Request) (any, error) { return "ok", nil }})
	return r.Handle(context.Background(), &rpc.Request{Method: "add", Params: json.RawMessage(raw)})
}

func TestASchemaWithAProgramChecksValidParamsWithoutItsDocuments(t *testing.T) {
	loc := progDocURL + "#/$defs/add"
	prog := programOf(t, map[string]string{progDocURL: progDoc}, loc)
	// The set has the program but not the document: what the program
	// accepts needs no compiling at all.
	set := rpc.NewSchemaSet(map[string]string{}, rpc.WithProgram(prog, loc))
	res, err := callAdd(t, set.Schema(loc), `{"a":1,"b":2}`)
	require.NoError(t, err)
	assert.Equal(t, "ok", res)

	// A failure is explained from the document, which the set lacks.
	_, err = callAdd(t, set.Schema(loc), `{"a":1}`)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rpc.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "the params schema does not compile")
	assert.Contains(t, e.Message, "not among the schema documents")
}

func TestASchemaWithAProgramExplainsAFailureFromItsDocuments(t *testing.T) {
	loc := progDocURL + "#/$defs/add"
	docs := map[string]string{progDocURL: progDoc}
	set := rpc.NewSchemaSet(docs, rpc.WithProgram(programOf(t, docs, loc), loc))
	_, err := callAdd(t, set.Schema(loc), `{"a":1,"b":"x"}`)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rpc.CodeInvalidParams, e.Code)
	assert.Equal(t, "invalid params: /b: is string, not integer", e.Message)
}

func TestAProgramThatDoesNotReadLeavesTheSchemasToTheLibrary(t *testing.T) {
	loc := progDocURL + "#/$defs/add"
	docs := map[string]string{progDocURL: progDoc}
	good := programOf(t, docs, loc)
	for name, prog := range map[string]string{
		"another format version": good[:len("fastschema")] + "\x09" + good[len("fastschema")+1:], // the version byte
		"damaged":                good[:len(good)/2],
		"damaged in a node":      good + "\x00", // the header reads; the last node has a byte too many
		"fewer roots than named": programOf(t, docs),
	} {
		t.Run(name, func(t *testing.T) {
			set := rpc.NewSchemaSet(docs, rpc.WithProgram(prog, loc))
			res, err := callAdd(t, set.Schema(loc), `{"a":1,"b":2}`)
			require.NoError(t, err)
			assert.Equal(t, "ok", res)
			_, err = callAdd(t, set.Schema(loc), `{"a":1,"b":2,"c":3}`)
			var e *rpc.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, rpc.CodeInvalidParams, e.Code)
		})
	}
}

func TestALocationThatDoesNotCompileFailsTheCallNotTheRegistration(t *testing.T) {
	set := rpc.NewSchemaSet(map[string]string{progDocURL: progDoc})
	params := set.Schema(progDocURL + "#/$defs/missing")
	assert.Equal(t, progDocURL+"#/$defs/missing", params.Location())
	_, err := callAdd(t, params, `{"a":1,"b":2}`)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rpc.CodeInternalError, e.Code)
	assert.Contains(t, e.Message, "the params schema does not compile: rpc: schema "+progDocURL+"#/$defs/missing does not compile")
	_, err = set.Compile(params.Location())
	var ce *rpc.CompileError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, params.Location(), ce.Location)
	assert.Equal(t, "no value at this JSON pointer", ce.Reason)
	require.ErrorAs(t, params.Validate(map[string]any{}), &ce)
}
