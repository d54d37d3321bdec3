package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// orpc builds an OpenRPC document around the given members.
func orpc(members string) string {
	return `{"openrpc": "1.3.2", "info": {"title": "X", "version": "1"}, ` + members + `}`
}

// orpcMethod builds a document with one method made of the given members.
func orpcMethod(members string) string {
	return orpc(`"methods": [{"name": "m", ` + members + `}]`)
}

func TestBadOpenRPCIsReportedWithItsPointer(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want []string
	}{
		// The document.
		{"not an object", `[]`, []string{"input.json#: an OpenRPC document must be a JSON object, not array"}},
		{"no openrpc member", `{"info": {"title": "X"}, "methods": []}`, []string{"input.json#: an OpenRPC document needs an openrpc member"}},
		{"openrpc not a string", `{"openrpc": 1.3, "info": {"title": "X"}, "methods": []}`, []string{"input.json#/openrpc: openrpc must be a string, not number"}},
		{"OpenRPC 2", `{"openrpc": "2.0.0", "info": {"title": "X"}, "methods": []}`, []string{`input.json#/openrpc: openrpc "2.0.0" is not an OpenRPC 1.x version`}},
		{"not semver", `{"openrpc": "1.3", "info": {"title": "X"}, "methods": []}`, []string{`input.json#/openrpc: openrpc "1.3" is not an OpenRPC 1.x version`}},
		{"$schema not a string", orpc(`"methods": [], "$schema": 7`), []string{"input.json#/$schema: $schema must be a string, not number"}},
		{"relative $schema", orpc(`"methods": [], "$schema": "meta.json"`), []string{`input.json#/$schema: $schema "meta.json" must be an absolute URL`}},
		{"$schema of another draft", orpc(`"methods": [], "$schema": "https://json-schema.org/draft/2020-12/schema"`), []string{`input.json#/$schema: $schema "https://json-schema.org/draft/2020-12/schema" names another JSON Schema draft`}},
		{"no info", `{"openrpc": "1.3.2", "methods": []}`, []string{"input.json#: an OpenRPC document needs an info object with a title"}},
		{"info not an object", `{"openrpc": "1.3.2", "info": "X", "methods": []}`, []string{"input.json#/info: info must be an object, not string"}},
		{"info without title", `{"openrpc": "1.3.2", "info": {"version": "1"}, "methods": []}`, []string{"input.json#/info: info needs a title"}},
		{"title not a string", `{"openrpc": "1.3.2", "info": {"title": 1, "version": "1"}, "methods": []}`, []string{"input.json#/info/title: title must be a string, not number"}},
		{"no methods", `{"openrpc": "1.3.2", "info": {"title": "X"}}`, []string{"input.json#: an OpenRPC document needs a methods list"}},
		{"methods not a list", orpc(`"methods": {}`), []string{"input.json#/methods: methods must be a list, not object"}},

		// Components.
		{"components not an object", orpc(`"methods": [], "components": []`), []string{"input.json#/components: components must be an object, not array"}},
		{"component kind not an object", orpc(`"methods": [], "components": {"schemas": []}`), []string{"input.json#/components/schemas: components.schemas must be an object, not array"}},
		{"component schema the converter refuses", orpc(`"methods": [], "components": {"schemas": {"A": {"$dynamicRef": "#x"}}}`), []string{"input.json#/components/schemas/A/$dynamicRef: $dynamicRef is not supported"}},
		{"component named like the server", orpc(`"methods": [], "components": {"schemas": {"XServer": {"type": "string"}}}`), []string{"input.json#/components/schemas/XServer: Go name XServer collides with the one generated for input.json#/info/title"}},

		{"allOf over a union with a variant that is no object", orpc(`"methods": [], "components": {"schemas": {"U": {"oneOf": [{"type": "string"}, {"type": "object", "properties": {"a": {"type": "string"}}}]}, "A": {"allOf": [{"$ref": "#/components/schemas/U"}, {"properties": {"b": {"type": "string"}}}]}}}`),
			[]string{"input.json#/components/schemas/A/allOf: cannot distribute this allOf over the variant at input.json#/components/schemas/U/oneOf/0: it is not a plain object schema"}},
		{"allOf of two unions", orpc(`"methods": [], "components": {"schemas": {"A": {"allOf": [{"oneOf": [{"type": "string"}, {"type": "integer"}]}, {"anyOf": [{"type": "string"}, {"type": "boolean"}]}]}}}`),
			[]string{"input.json#/components/schemas/A/allOf: allOf of two unions (input.json#/components/schemas/A/allOf/0 and input.json#/components/schemas/A/allOf/1) is not supported"}},

		// Methods.
		{"method not an object", orpc(`"methods": [1]`), []string{"input.json#/methods/0: a method must be an object, not number"}},
		{"method without name", orpc(`"methods": [{"params": []}]`), []string{"input.json#/methods/0: a method needs a name"}},
		{"empty method name", orpc(`"methods": [{"name": "", "params": []}]`), []string{"input.json#/methods/0/name: name must be a non-empty string"}},
		{"method name without a Go name", orpc(`"methods": [{"name": "--", "params": []}]`), []string{`input.json#/methods/0/name: method name "--" gives no Go identifier`}},
		{"duplicate method", orpc(`"methods": [{"name": "a", "params": []}, {"name": "a", "params": []}]`), []string{`input.json#/methods/1/name: method "a" is already declared at input.json#/methods/0/name`}},
		{"method stems collide", orpc(`"methods": [{"name": "a_b", "params": []}, {"name": "aB", "params": []}]`), []string{"input.json#/methods/1/name: Go name MethodAB collides with the one generated for input.json#/methods/0/name"}},
		{"summary not a string", orpcMethod(`"params": [], "summary": 1`), []string{"input.json#/methods/0/summary: summary must be a string, not number"}},
		{"deprecated not a boolean", orpcMethod(`"params": [], "deprecated": "yes"`), []string{"input.json#/methods/0/deprecated: deprecated must be a boolean, not string"}},
		{"bad paramStructure", orpcMethod(`"params": [], "paramStructure": "positional"`), []string{`input.json#/methods/0/paramStructure: paramStructure must be "by-name", "by-position" or "either", not "positional"`}},
		{"no params", orpcMethod(`"result": {"name": "r", "schema": true}`), []string{"input.json#/methods/0: a method needs params (an empty list when it takes none)"}},
		{"params not a list", orpcMethod(`"params": {}`), []string{"input.json#/methods/0/params: params must be a list, not object"}},
		{"duplicate param", orpcMethod(`"params": [{"name": "a", "schema": true}, {"name": "a", "schema": true}]`), []string{`input.json#/methods/0/params/1: param "a" is already declared at input.json#/methods/0/params/0`}},
		{"required after optional", orpcMethod(`"params": [{"name": "a", "schema": true}, {"name": "b", "required": true, "schema": true}]`),
			[]string{`input.json#/methods/0/params/1: required param "b" comes after optional param "a": by-position params need every required one first`}},
		{"param name a struct tag cannot hold", orpcMethod(`"params": [{"name": "it's", "schema": {"type": "string"}}]`), []string{`input.json#/methods/0/params/0/schema: property name "it's" cannot be written in a Go struct tag`}},
		{"param schema the converter refuses", orpcMethod(`"params": [{"name": "a", "schema": {"type": "int"}}]`), []string{`input.json#/methods/0/params/0/schema/type: unknown type "int"`}},
		{"params struct named like a component", orpc(`"methods": [{"name": "m", "params": [{"name": "a", "schema": true}]}], "components": {"schemas": {"MParams": {"type": "string"}}}`),
			[]string{"input.json#/methods/0/params: Go name MParams collides with the one generated for input.json#/components/schemas/MParams"}},
		{"result schema the converter refuses", orpcMethod(`"params": [], "result": {"name": "r", "schema": {"type": "int"}}`), []string{`input.json#/methods/0/result/schema/type: unknown type "int"`}},

		// Content descriptors.
		{"descriptor not an object", orpcMethod(`"params": [1]`), []string{"input.json#/methods/0/params/0: a content descriptor must be an object, not number"}},
		{"descriptor without name", orpcMethod(`"params": [{"schema": true}]`), []string{"input.json#/methods/0/params/0: a content descriptor needs a name"}},
		{"descriptor with empty name", orpcMethod(`"params": [{"name": "", "schema": true}]`), []string{"input.json#/methods/0/params/0/name: name must be a non-empty string"}},
		{"descriptor without schema", orpcMethod(`"params": [{"name": "a"}]`), []string{"input.json#/methods/0/params/0: a content descriptor needs a schema"}},
		{"required not a boolean", orpcMethod(`"params": [{"name": "a", "schema": true, "required": "yes"}]`), []string{"input.json#/methods/0/params/0/required: required must be a boolean, not string"}},
		{"broken component descriptor", orpc(`"methods": [], "components": {"contentDescriptors": {"A": {"name": "a"}}}`), []string{"input.json#/components/contentDescriptors/A: a content descriptor needs a schema"}},
		{"result descriptor without schema", orpcMethod(`"params": [], "result": {"name": "r"}`), []string{"input.json#/methods/0/result: a content descriptor needs a schema"}},

		// References.
		{"member beside $ref", orpcMethod(`"params": [{"$ref": "#/components/contentDescriptors/A", "name": "b"}]`), []string{"input.json#/methods/0/params/0/name: a Reference Object has nothing but $ref: drop name"}},
		{"$ref not a string", orpcMethod(`"params": [{"$ref": 1}]`), []string{"input.json#/methods/0/params/0/$ref: $ref must be a string, not number"}},
		{"missing $ref target", orpcMethod(`"params": [{"$ref": "#/components/contentDescriptors/A"}]`), []string{"input.json#/methods/0/params/0/$ref: $ref target input.json#/components/contentDescriptors/A does not exist"}},
		{"remote $ref", orpcMethod(`"params": [{"$ref": "https://example.com/cd.json"}]`), []string{`input.json#/methods/0/params/0/$ref: $ref "https://example.com/cd.json" is not relative`}},
		{"$ref loop", orpc(`"methods": [{"$ref": "#/x-a"}], "x-a": {"$ref": "#/x-b"}, "x-b": {"$ref": "#/x-a"}`), []string{`input.json#/x-b/$ref: $ref "#/x-a" leads back to itself through references only`}},
		{"schema $ref outside components", orpcMethod(`"params": [{"name": "a", "schema": {"$ref": "#/x-s"}}], "x-s": {"type": "string"}`), []string{"input.json#/methods/0/params/0/schema/$ref: $ref target input.json#/x-s does not exist"}},

		// Errors.
		{"errors not a list", orpcMethod(`"params": [], "errors": {}`), []string{"input.json#/methods/0/errors: errors must be a list, not object"}},
		{"error not an object", orpcMethod(`"params": [], "errors": [1]`), []string{"input.json#/methods/0/errors/0: an error must be an object, not number"}},
		{"error without code", orpcMethod(`"params": [], "errors": [{"message": "a"}]`), []string{"input.json#/methods/0/errors/0: an error needs a code"}},
		{"code not an integer", orpcMethod(`"params": [], "errors": [{"code": 1.5, "message": "a"}]`), []string{"input.json#/methods/0/errors/0/code: code must be an integer, not 1.5"}},
		{"reserved code", orpcMethod(`"params": [], "errors": [{"code": -32200, "message": "a"}]`), []string{"input.json#/methods/0/errors/0/code: code -32200 is reserved by JSON-RPC 2.0"}},
		{"error without message", orpcMethod(`"params": [], "errors": [{"code": 1}]`), []string{"input.json#/methods/0/errors/0: an error needs a message"}},
		{"message not a string", orpcMethod(`"params": [], "errors": [{"code": 1, "message": 1}]`), []string{"input.json#/methods/0/errors/0/message: message must be a string, not number"}},
		{"message without a Go name", orpcMethod(`"params": [], "errors": [{"code": 1, "message": "?!"}]`), []string{`input.json#/methods/0/errors/0: the error's message "?!" gives no Go name`}},
		{"two codes in one method", orpc(`"methods": [{"name": "m", "params": [], "errors": [{"code": 1, "message": "A"}, {"$ref": "#/components/errors/B"}]}], "components": {"errors": {"B": {"code": 1, "message": "B"}}}`),
			[]string{"input.json#/methods/0/errors/1: code 1 is already declared for this method at input.json#/methods/0/errors/0"}},

		// Schemas the validator rejects.
		{"param schema the validator rejects", orpcMethod(`"params": [{"name": "a", "schema": {"type": "string", "pattern": "(?=x)"}}]`), []string{"input.json#/methods/0/params: the schema validator rejects this schema"}},
		{"result schema the validator rejects", orpcMethod(`"params": [], "result": {"name": "r", "schema": {"type": "string", "pattern": "(?=x)"}}`), []string{"input.json#/methods/0/result/schema: the schema validator rejects this schema"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": tt.doc}), Package: "x", Format: gen.FormatOpenRPC})
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestOpenRPCFormatIsDetected(t *testing.T) {
	input := writeInput(t, map[string]string{"input.json": orpcMethod(`"params": []`)})
	_, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	require.NoError(t, err)
}

// A document may list what it accepts without tripping the checks: the
// reserved-code rule's exceptions, required params after optional ones in a
// by-name method, the same error under several methods, and every 1.x
// member the generator does not use.
func TestOpenRPCAcceptsWhatTheSpecificationAllows(t *testing.T) {
	doc := orpc(`"servers": [{"url": "http://127.0.0.1"}], "externalDocs": {"url": "https://example.test"}, "x-extra": 1,
	"methods": [
		{"name": "a", "paramStructure": "by-name", "tags": [], "links": [], "examples": [], "servers": [], "externalDocs": {"url": "https://example.test"}, "x-m": true,
		 "params": [{"name": "o", "schema": true, "x-p": 1}, {"name": "r", "required": true, "schema": true}],
		 "errors": [{"code": -32602, "message": "Invalid params"}, {"code": -32050, "message": "Busy", "data": {"retry": true}}, {"code": -32769, "message": "Below the range"}, {"code": -31999, "message": "Above the range"}]},
		{"name": "b", "params": [], "result": {"name": "r", "schema": true}, "errors": [{"code": -32050, "message": "Busy"}]},
		{"name": "rpc.discover", "params": [], "result": {"name": "doc", "schema": {"type": "object"}}}
	],
	"components": {"links": {}, "tags": {}, "examples": {}, "examplePairings": {}, "x-c": {}}`)
	files, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": doc}), Package: "x"})
	require.NoError(t, err)
	methods := string(files[1].Content)
	for _, want := range []string{"CodeInvalidParams = -32602", "CodeBusy = -32050", "MethodRPCDiscover = \"rpc.discover\"", "CodeBelowTheRange = -32769", "CodeAboveTheRange = -31999"} {
		assert.Contains(t, methods, want)
	}
	assert.Equal(t, 1, strings.Count(methods, "func NewBusyError()"), "one error however many methods declare it")
}

func TestOpenRPCServiceNameAndURL(t *testing.T) {
	doc := strings.Replace(orpcMethod(`"params": [{"name": "a", "schema": true}]`), `"title": "X"`, `"title": "Billing API v2"`, 1)
	input := writeInput(t, map[string]string{"input.json": doc})

	files, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	require.NoError(t, err)
	assert.Contains(t, string(files[1].Content), "type BillingAPIV2Server interface", "named after info.title")
	schema := string(files[2].Content)
	assert.Contains(t, schema, `"https://schemarpc.dev/openrpc/input.json": `+"`", "the document under its default URL")
	assert.Contains(t, schema, `"https://schemarpc.dev/openrpc/input.params.json": `+"`", "the params document beside it")
	assert.Contains(t, schema, "rpc.WithDefaultDraft(rpc.Draft7)")

	files, err = gen.Generate(gen.Options{Input: input, Package: "x", Config: &gen.Config{Service: "billing", SchemaURL: "https://api.example.test/billing/openrpc.json"}})
	require.NoError(t, err)
	assert.Contains(t, string(files[1].Content), "type BillingServer interface")
	schema = string(files[2].Content)
	assert.Contains(t, schema, `"https://api.example.test/billing/openrpc.json": `+"`")
	assert.Contains(t, schema, `schemaSet.Schema("https://api.example.test/billing/openrpc.params.json#/definitions/m")`)
	assert.Contains(t, schema, "rpc.WithProgram(schemaProgram,\n\t\"https://api.example.test/billing/openrpc.params.json#/definitions/m\",")
}

func TestOpenRPCTitleWithoutGoNameFallsBackToService(t *testing.T) {
	doc := strings.Replace(orpcMethod(`"params": []`), `"title": "X"`, `"title": "!!"`, 1)
	files, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": doc}), Package: "x"})
	require.NoError(t, err)
	assert.Contains(t, string(files[1].Content), "type ServiceServer interface")
}

// A schema with no $schema in a schemarpc index keeps 2020-12 as the
// default: only OpenRPC output asks for draft-07.
func TestSchemarpcOutputKeepsTheDefaultDraft(t *testing.T) {
	files, err := gen.Generate(gen.Options{Input: filepath.Join("..", "examples", "calc", "calc.json"), Package: "calcrpc"})
	require.NoError(t, err)
	assert.NotContains(t, string(files[2].Content), "WithDefaultDraft")
}

func TestOpenRPCErrorsAcrossFilesKeepTheirFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "input.json"), []byte(orpcMethod(`"params": [{"$ref": "shared.json#/components/contentDescriptors/A"}]`)), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shared.json"), []byte(`{"components": {"contentDescriptors": {"A": {"name": "a"}}}}`), 0o644))
	_, err := gen.Generate(gen.Options{Input: filepath.Join(dir, "input.json"), Package: "x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "shared.json#/components/contentDescriptors/A: a content descriptor needs a schema")
}

func TestAProblemReachedTwiceIsReportedOnce(t *testing.T) {
	doc := orpc(`"methods": [
		{"name": "a", "params": [], "result": {"$ref": "#/components/contentDescriptors/R"}},
		{"name": "b", "params": [], "result": {"$ref": "#/components/contentDescriptors/R"}}],
		"components": {"contentDescriptors": {"R": {"name": "r", "schema": {"type": "string", "pattern": "(?=x)"}}}}`)
	_, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": doc}), Package: "x"})
	require.Error(t, err)
	assert.Equal(t, 1, strings.Count(err.Error(), "input.json#/components/contentDescriptors/R/schema: the schema validator rejects this schema"), err.Error())
}
