package gen_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// index builds an index document around the given members.
func index(members string) string {
	return `{"$schema": "https://json-schema.org/draft/2020-12/schema",
	"$id": "https://example.test/x/input.json", "service": "X", ` + members + `}`
}

// withDefs builds an index with one method using $defs/A, and the given $defs.
func withDefs(defs string) string {
	return index(`"methods": [{"name": "m", "params": {"$ref": "#/$defs/A"}, "result": true}], "$defs": {` + defs + `}`)
}

// withResult builds an index with one method whose result is the given schema.
func withResult(schema string) string {
	return index(`"methods": [{"name": "m", "result": ` + schema + `}]`)
}

// writeInput writes files (paths relative to a fresh directory, the index
// being input.json) and returns the index's path.
func writeInput(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return filepath.Join(dir, "input.json")
}

func TestBadInputIsReportedWithItsPointer(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string // "input.json" is the index
		want  []string          // substrings of the error, each starting with the pointer
	}{
		// The document itself.
		{"not JSON", map[string]string{"input.json": `{"service": `}, []string{"input.json#/service: invalid JSON at byte 11: unexpected EOF"}},
		{"trailing data", map[string]string{"input.json": `{} {}`}, []string{"input.json#: unexpected data after the top-level value"}},
		{"invalid UTF-8", map[string]string{"input.json": "{\"service\": \"\xff\"}"}, []string{"input.json#: not valid UTF-8"}},
		{"duplicate key", map[string]string{"input.json": `{"a": {"b": 1, "b": 2}}`}, []string{`input.json#/a: duplicate key "b"`}},
		{"not an object", map[string]string{"input.json": `[]`}, []string{"input.json#: the index must be a JSON object, not array"}},

		// The index's own members.
		{"unknown index key", map[string]string{"input.json": index(`"methods": [], "method": []`)}, []string{"input.json#/method: unknown key method in the index"}},
		{"missing $id", map[string]string{"input.json": `{"service": "X", "methods": []}`}, []string{"input.json#: the index needs an $id"}},
		{"relative $id", map[string]string{"input.json": `{"$id": "x.json", "service": "X", "methods": []}`}, []string{`input.json#/$id: $id "x.json" must be an absolute URL`}},
		{"other draft", map[string]string{"input.json": `{"$schema": "http://json-schema.org/draft-07/schema#", "$id": "https://example.test/x.json", "service": "X", "methods": []}`}, []string{"input.json#/$schema: $schema must be"}},
		{"missing service", map[string]string{"input.json": `{"$id": "https://example.test/x.json", "methods": []}`}, []string{"input.json#/service: the index needs a service name"}},
		{"missing methods", map[string]string{"input.json": `{"$id": "https://example.test/x.json", "service": "X"}`}, []string{"input.json#: the index needs a methods list"}},
		{"$defs not an object", map[string]string{"input.json": index(`"methods": [], "$defs": []`)}, []string{"input.json#/$defs: $defs must be an object, not array"}},

		// Methods.
		{"duplicate method", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true}, {"name": "a", "result": true}]`)},
			[]string{`input.json#/methods/1/name: method "a" is already declared at input.json#/methods/0/name`}},
		{"unknown method key", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true, "parms": {}}]`)}, []string{"input.json#/methods/0/parms: unknown key parms in a method"}},
		{"bare x- method key", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true, "x-": 1}]`)}, []string{"input.json#/methods/0/x-: unknown key x- in a method"}},
		{"method without name", map[string]string{"input.json": index(`"methods": [{"result": true}]`)}, []string{"input.json#/methods/0: a method needs a name"}},
		{"reserved method name", map[string]string{"input.json": index(`"methods": [{"name": "rpc.discover", "result": true}]`)}, []string{"input.json#/methods/0/name: method names beginning with rpc. are reserved"}},
		{"bad kind", map[string]string{"input.json": index(`"methods": [{"name": "a", "kind": "call", "result": true}]`)}, []string{`input.json#/methods/0/kind: kind must be "request" or "notification", not "call"`}},
		{"request without result", map[string]string{"input.json": index(`"methods": [{"name": "a"}]`)}, []string{"input.json#/methods/0: a request needs a result schema"}},
		{"notification with result", map[string]string{"input.json": index(`"methods": [{"name": "a", "kind": "notification", "result": true}]`)}, []string{"input.json#/methods/0/result: a notification has no result"}},
		{"bad paramStructure", map[string]string{"input.json": index(`"methods": [{"name": "a", "paramStructure": "positional", "params": true, "result": true}]`)}, []string{`input.json#/methods/0/paramStructure: paramStructure must be "by-name", "by-position" or "either", not "positional"`}},
		{"paramStructure without params", map[string]string{"input.json": index(`"methods": [{"name": "a", "paramStructure": "either", "result": true}]`)}, []string{"input.json#/methods/0/paramStructure: paramStructure is set but the method declares no params"}},
		{"by-position without properties", map[string]string{"input.json": index(`"methods": [{"name": "a", "paramStructure": "by-position", "params": true, "result": true}]`)}, []string{"input.json#/methods/0/params: by-position and either params need an object schema with properties"}},
		{"params not an object", map[string]string{"input.json": index(`"methods": [{"name": "a", "params": {"type": "string"}, "result": true}]`)}, []string{"input.json#/methods/0/params: params must be an object schema"}},
		{"nullable params", map[string]string{"input.json": index(`"methods": [{"name": "a", "params": {"type": ["object", "null"]}, "result": true}]`)}, []string{"input.json#/methods/0/params: params cannot be null"}},
		{"method stem collision", map[string]string{"input.json": index(`"methods": [{"name": "notify_me", "result": true}, {"name": "notifyMe", "result": true}]`)},
			[]string{"input.json#/methods/1/name: Go name MethodNotifyMe collides with the one generated for input.json#/methods/0/name"}},

		// Errors.
		{"reserved error code", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true, "errors": [{"code": -32601, "name": "Gone", "message": "gone"}]}]`)}, []string{"input.json#/methods/0/errors/0/code: code -32601 is reserved"}},
		{"error code not an integer", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true, "errors": [{"code": 1.5, "name": "Half", "message": "half"}]}]`)}, []string{"input.json#/methods/0/errors/0/code: code must be an integer, not 1.5"}},
		{"error without message", map[string]string{"input.json": index(`"methods": [{"name": "a", "result": true, "errors": [{"code": 1, "name": "Oops"}]}]`)}, []string{"input.json#/methods/0/errors/0/message: an error needs a non-empty string message"}},
		{"error declared twice differently", map[string]string{"input.json": index(`"methods": [
			{"name": "a", "result": true, "errors": [{"code": 1, "name": "Oops", "message": "oops"}]},
			{"name": "b", "result": true, "errors": [{"code": 2, "name": "Oops", "message": "oops"}]}]`)},
			[]string{"input.json#/methods/1/errors/0/name: error Oops is declared differently at input.json#/methods/0/errors/0"}},

		// References.
		{"missing $defs entry", map[string]string{"input.json": withResult(`{"$ref": "#/$defs/Missing"}`)}, []string{"input.json#/methods/0/result/$ref: $ref target input.json#/$defs/Missing does not exist"}},
		{"missing file", map[string]string{"input.json": withResult(`{"$ref": "missing.json#/$defs/A"}`)}, []string{"input.json#/methods/0/result/$ref: referenced file missing.json does not exist"}},
		{"remote ref", map[string]string{"input.json": withResult(`{"$ref": "https://example.com/s.json"}`)}, []string{`input.json#/methods/0/result/$ref: $ref "https://example.com/s.json" is not relative`}},
		{"ref leaving the tree", map[string]string{"input.json": withResult(`{"$ref": "../outside.json"}`)}, []string{`input.json#/methods/0/result/$ref: $ref "../outside.json" leaves the input's directory tree`}},
		{"absolute path ref", map[string]string{"input.json": withResult(`{"$ref": "/etc/schema.json"}`)}, []string{`input.json#/methods/0/result/$ref: $ref "/etc/schema.json" uses an absolute path`}},
		{"anchor ref", map[string]string{"input.json": withResult(`{"$ref": "#thing"}`)}, []string{`input.json#/methods/0/result/$ref: $ref "#thing" uses a plain-name fragment`}},
		{"ref to the whole index", map[string]string{"input.json": withResult(`{"$ref": "#"}`)}, []string{"input.json#/methods/0/result/$ref: $ref points at the whole index"}},
		{"referenced document with another $id", map[string]string{
			"input.json": withResult(`{"$ref": "types.json#/$defs/T"}`),
			"types.json": `{"$id": "https://elsewhere.test/types.json", "$defs": {"T": {"type": "string"}}}`,
		}, []string{`types.json#/$id: $id "https://elsewhere.test/types.json" does not match this file's place next to the index`}},
		{"referenced document not JSON", map[string]string{
			"input.json": withResult(`{"$ref": "types.json#/$defs/T"}`),
			"types.json": `{"$defs": `,
		}, []string{"types.json#/$defs: invalid JSON", "input.json#/methods/0/result/$ref: cannot use types.json"}},
		{"problem inside a referenced document", map[string]string{
			"input.json":     withResult(`{"$ref": "sub/types.json#/$defs/T"}`),
			"sub/types.json": `{"$defs": {"T": {"type": "object", "properties": {"u": {"$ref": "#/$defs/U"}}}, "U": {"oneOf": [{"type": "strin"}]}}}`,
		}, []string{`sub/types.json#/$defs/U/oneOf/0/type: unknown type "strin"`}},

		// Unions.
		{"union of objects without a discriminator", map[string]string{"input.json": withDefs(`"A": {"oneOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}]},
			"P": {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"]},
			"Q": {"type": "object", "properties": {"x": {"type": "number"}}, "required": ["x"]}`)},
			[]string{"input.json#/$defs/A: cannot tell the variants of A apart: the object variants P, Q share no property with distinct const values, and P and Q require the same members (x)"}},
		{"union with two variants that may lack the tag", map[string]string{"input.json": withDefs(`"A": {"oneOf": [{"$ref": "#/$defs/P"}, {"$ref": "#/$defs/Q"}]},
			"P": {"type": "object", "properties": {"k": {"const": "p"}}},
			"Q": {"type": "object", "properties": {"k": {"const": "q"}}}`)},
			[]string{"input.json#/$defs/A: cannot tell the variants of A apart: the object variants P, Q share no property"}},
		{"union of two integers and a string", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"$ref": "#/$defs/I"}, {"$ref": "#/$defs/J"}, {"type": "string"}]}, "I": {"type": "integer"}, "J": {"type": "integer", "minimum": 5}`)},
			[]string{"input.json#/$defs/A: cannot tell the variants of A apart: I and J are both integers"}},
		{"union with an unconstrained variant", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Any"}]}, "Any": true`)},
			[]string{"input.json#/$defs/A: cannot tell the variants of A apart: AAny (input.json#/$defs/A/anyOf/1) may be any JSON value"}},
		{"union variant without a name", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"type": "object", "properties": {"x": {"type": "string"}}}, {"type": "object", "properties": {"y": {"type": "string"}}}]}`)},
			[]string{`input.json#/$defs/A/anyOf/0: cannot name this variant of A: give it a const property, or name it in the config (renames: "input.json#/$defs/A/anyOf/0": "Name")`,
				"input.json#/$defs/A/anyOf/1: cannot name this variant of A"}},
		{"union variants with one name", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"type": "string"}, {"type": "string", "format": "uri"}]}`)},
			[]string{`input.json#/$defs/A/anyOf/1: Go name AString collides with the one generated for input.json#/$defs/A/anyOf/0; give one of them another name in the config (renames: "input.json#/$defs/A/anyOf/1": "NewName")`}},
		{"union listing a type twice", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"$ref": "#/$defs/S"}, {"$ref": "#/$defs/S"}]}, "S": {"type": "string"}`)},
			[]string{"input.json#/$defs/A/anyOf/1: anyOf lists S twice (also at input.json#/$defs/A/anyOf/0)"}},
		{"anyOf and oneOf together", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"type": "string"}], "oneOf": [{"type": "number"}]}`)},
			[]string{"input.json#/$defs/A/oneOf: anyOf and oneOf in one schema are not supported"}},
		{"empty anyOf", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"x": {"anyOf": []}}}`)}, []string{"input.json#/$defs/A/properties/x/anyOf: anyOf must be a non-empty list of schemas"}},
		{"properties beside a oneOf with a string variant", map[string]string{"input.json": withDefs(`"A": {"properties": {"a": {"type": "string"}}, "oneOf": [{"type": "object"}, {"type": "string"}]}`)},
			[]string{"input.json#/$defs/A: cannot distribute the properties beside oneOf over the variant at input.json#/$defs/A/oneOf/1: it is not a plain object schema"}},
		{"union containing itself", map[string]string{"input.json": withDefs(`"A": {"anyOf": [{"$ref": "#/$defs/B"}, {"type": "string"}]}, "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"type": "number"}]}`)},
			[]string{"union A is a variant of itself"}},
		{"union that is its own variant", map[string]string{"input.json": withDefs(`"U": {"oneOf": [{"$ref": "#/$defs/U"}, {"type": "string"}]}`)},
			[]string{"input.json#/$defs/U: union U is a variant of itself"}},
		{"$ref with a tilde that escapes nothing", map[string]string{"input.json": withDefs(`"a~b": {"type": "object", "properties": {"next": {"$ref": "#/$defs/a~b"}}}`)},
			[]string{`input.json#/$defs/a~0b/properties/next/$ref: $ref "#/$defs/a~b" is not a valid JSON pointer: a "~" must be followed by 0 or 1`}},

		// allOf.
		{"allOf members that disagree", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"$ref": "#/$defs/Base"}, {"properties": {"id": {"type": "integer"}}}]},
			"Base": {"type": "object", "properties": {"id": {"type": "string"}}}`)},
			[]string{`input.json#/$defs/A/allOf/1/properties/id: property "id" is declared here as int64 and at input.json#/$defs/Base/properties/id as string: the allOf members disagree`}},
		{"allOf of an object and a string", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"type": "string"}]}`)},
			[]string{`input.json#/$defs/A/allOf/1/type: an allOf member of an object must be an object too, not "string"`}},
		{"allOf of two types", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"type": "string"}, {"type": "number"}]}`)},
			[]string{"input.json#/$defs/A/allOf: allOf of several schemas that are not objects is not supported (input.json#/$defs/A/allOf/0, input.json#/$defs/A/allOf/1)"}},
		{"$id inside a schema", map[string]string{"input.json": withDefs(`"A": {"$id": "https://example.test/a.json", "type": "object"}`)},
			[]string{"input.json#/$defs/A/$id: $id inside a schema is not supported: it would change where $refs resolve"}},
		{"allOf over a union whose variant's $ref leads nowhere", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"oneOf": [{"$ref": "#/$defs/Missing"}, {"type": "object"}]}, {"properties": {"a": {"type": "string"}}}]}`)},
			[]string{`input.json#/$defs/A/allOf/0/oneOf/0/$ref: $ref "#/$defs/Missing" cannot be followed`}},
		{"allOf with a union that has a string variant", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"oneOf": [{"type": "object"}, {"type": "string"}]}]}`)},
			[]string{"input.json#/$defs/A/allOf: cannot distribute this allOf over the variant at input.json#/$defs/A/allOf/1/oneOf/1: it is not a plain object schema"}},
		{"allOf requiring an undeclared property", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"properties": {"a": {"type": "string"}}}, {"required": ["b"]}]}`)},
			[]string{`input.json#/$defs/A/allOf/1/required/0: required property "b" is not declared in properties`}},
		{"allOf including itself", map[string]string{"input.json": withDefs(`"A": {"allOf": [{"$ref": "#/$defs/A"}, {"properties": {"a": {"type": "string"}}}]}`)},
			[]string{"input.json#/$defs/A: allOf includes itself"}},
		{"allOf member not a schema", map[string]string{"input.json": withDefs(`"A": {"allOf": [3]}`)}, []string{"input.json#/$defs/A/allOf/0: an allOf member must be a schema object, not number"}},

		// Objects, tuples, defaults.
		{"extra field name taken", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"extra": {"type": "string"}}, "additionalProperties": {"type": "number"}}`)},
			[]string{`input.json#/$defs/A/properties/extra: Go field name Extra collides with the map that keeps A's unknown members`}},
		{"default of the wrong type", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"n": {"type": "integer", "default": "ten"}}}`)},
			[]string{`input.json#/$defs/A/properties/n/default: default "ten" does not fit the property's type: want an integer`}},
		{"default accessor taken", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"n": {"type": "integer", "default": 1}, "GetN": {"type": "string"}}}`)},
			[]string{"input.json#/$defs/A/properties/GetN: Go field name GetN collides with the accessor generated for the default of input.json#/$defs/A/properties/n"}},
		{"draft-07 tuple in 2020-12", map[string]string{"input.json": withResult(`{"type": "array", "items": [{"type": "string"}]}`)}, []string{"input.json#/methods/0/result/items: items must be a schema: JSON Schema 2020-12 writes a tuple as prefixItems"}},
		{"empty prefixItems", map[string]string{"input.json": withResult(`{"type": "array", "prefixItems": []}`)}, []string{"input.json#/methods/0/result/prefixItems: prefixItems must be a non-empty list of schemas"}},
		{"tuple position named Rest", map[string]string{"input.json": withResult(`{"type": "array", "prefixItems": [{"title": "rest", "type": "string"}]}`)},
			[]string{"input.json#/methods/0/result/prefixItems/0: Go field name Rest collides with the field for the items after the positions"}},
		{"items false", map[string]string{"input.json": withResult(`{"type": "array", "items": false}`)}, []string{"input.json#/methods/0/result/items: items: false without prefixItems allows only the empty array"}},
		{"cycle through type names", map[string]string{"input.json": withDefs(`"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}`)}, []string{"input.json#/$defs/B: B is a $ref to A, which leads back to B through $refs only"}},

		// Still unsupported.
		{"$dynamicRef", map[string]string{"input.json": withDefs(`"A": {"$dynamicRef": "#node"}`)}, []string{"input.json#/$defs/A/$dynamicRef: $dynamicRef is not supported"}},
		{"ref beside type", map[string]string{"input.json": withDefs(`"A": {"type": "object"}, "B": {"$ref": "#/$defs/A", "type": "object"}`)}, []string{"input.json#/$defs/B/type: type beside $ref is not supported"}},
		{"false schema", map[string]string{"input.json": withResult(`false`)}, []string{"input.json#/methods/0/result: the false schema allows no value"}},

		// Mistakes in schemas.
		{"unknown type", map[string]string{"input.json": withResult(`{"type": "int"}`)}, []string{`input.json#/methods/0/result/type: unknown type "int"`}},
		{"required but undeclared", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["b"]}`)}, []string{`input.json#/$defs/A/required/0: required property "b" is not declared in properties`}},
		{"description not a string", map[string]string{"input.json": withDefs(`"A": {"type": "object", "description": 3}`)}, []string{"input.json#/$defs/A/description: description must be a string, not number"}},
		{"schema the validator rejects", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"a": {"type": "string", "pattern": "(?=x)"}}}`)}, []string{"input.json#/$defs/A: the schema validator rejects this schema"}},

		// Go names.
		{"definitions with one Go name", map[string]string{"input.json": withDefs(`"A": {"type": "object"}, "user_id": {"type": "string"}, "userId": {"type": "string"}`)},
			[]string{"input.json#/$defs/userId: Go name UserID collides with the one generated for input.json#/$defs/user_id"}},
		{"inline params named like a definition", map[string]string{"input.json": index(`"methods": [{"name": "add", "params": {"type": "object", "properties": {"a": {"type": "number"}}}, "result": true}], "$defs": {"AddParams": {"type": "object"}}`)},
			[]string{"input.json#/methods/0/params: Go name AddParams collides with the one generated for input.json#/$defs/AddParams"}},
		{"properties with one Go name", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"a_b": {"type": "string"}, "aB": {"type": "string"}}}`)},
			[]string{"input.json#/$defs/A/properties/aB: Go field name AB collides with the one generated for input.json#/$defs/A/properties/a_b"}},
		{"enum values with one Go name", map[string]string{"input.json": withDefs(`"A": {"type": "object"}, "E": {"enum": ["a-b", "a_b"]}`)},
			[]string{`input.json#/$defs/E/enum/1: enum value "a_b" gives the constant name EAB, like value "a-b"`}},
		{"definition named like generated service code", map[string]string{"input.json": withDefs(`"A": {"type": "object"}, "XServer": {"type": "string"}`)},
			[]string{"input.json#/$defs/XServer: Go name XServer collides with the one generated for input.json#/service"}},
		{"property name a struct tag cannot hold", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"it's": {"type": "string"}}}`)},
			[]string{`input.json#/$defs/A/properties/it's: property name "it's" cannot be written in a Go struct tag`}},
		{"property without a Go name", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"--": {"type": "string"}}}`)},
			[]string{`input.json#/$defs/A/properties/--: property name "--" gives no Go identifier`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := gen.Generate(gen.Options{Input: writeInput(t, tt.files), Package: "x"})
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestErrorsCarryFileAndPointer(t *testing.T) {
	input := writeInput(t, map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {"x": {"anyOf": []}}}`)})
	_, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	var ge *gen.Error
	require.True(t, errors.As(err, &ge), "got %T: %v", err, err)
	assert.Equal(t, "input.json", ge.File)
	assert.Equal(t, "/$defs/A/properties/x/anyOf", ge.Pointer)
	assert.Equal(t, "anyOf must be a non-empty list of schemas", ge.Message)
}

func TestEveryProblemIsReportedInOneRun(t *testing.T) {
	input := writeInput(t, map[string]string{"input.json": index(`"methods": [
		{"name": "a", "result": {"anyOf": []}},
		{"name": "b", "kind": "notification", "result": true},
		{"name": "c", "result": {"type": "thing"}}]`)})
	_, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	var list gen.ErrorList
	require.True(t, errors.As(err, &list))
	assert.Len(t, list, 3)
	assert.Len(t, strings.Split(err.Error(), "\n"), 3, "one line per problem")
}

func TestReferencedFileOutsideTheTreeIsRefused(t *testing.T) {
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"$defs": {"T": {"type": "string"}}}`), 0o644))
	input := writeInput(t, map[string]string{"input.json": withResult(`{"$ref": "link.json#/$defs/T"}`)})
	if err := os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(filepath.Dir(input), "link.json")); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	_, err := gen.Generate(gen.Options{Input: input, Package: "x"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "input.json#/methods/0/result/$ref: referenced file link.json resolves to")
	assert.Contains(t, err.Error(), "outside the input's directory tree")
}

func TestPackageNameMustBeAnIdentifier(t *testing.T) {
	input := writeInput(t, map[string]string{"input.json": withResult("true")})
	for _, pkg := range []string{"", "my-pkg", "func", "_", "1x"} {
		_, err := gen.Generate(gen.Options{Input: input, Package: pkg})
		assert.ErrorContains(t, err, "is not a Go identifier", "package %q", pkg)
	}
}

func TestMissingInputIsAnError(t *testing.T) {
	_, err := gen.Generate(gen.Options{Input: filepath.Join(t.TempDir(), "nope.json"), Package: "x"})
	assert.ErrorContains(t, err, "nope.json")
}

func TestConfigEntriesThatMatchNothingAreErrors(t *testing.T) {
	input := writeInput(t, map[string]string{
		"input.json": withDefs(`"A": {"type": "object", "properties": {"id": {"type": "string"}}}`),
		"rpcgen.json": `{"renames": {"input.json#/$defs/Missing": "X", "NoSuchName": "Y", "input.json#/$defs/A": "Renamed"},
			"types": {"input.json#/$defs/A/properties/nope": "int64"}}`,
	})
	cfg, err := gen.LoadConfig(filepath.Join(filepath.Dir(input), "rpcgen.json"))
	require.NoError(t, err)
	_, err = gen.Generate(gen.Options{Input: input, Package: "x", Config: cfg})
	require.Error(t, err)
	var list gen.ErrorList
	require.True(t, errors.As(err, &list))
	var got []string
	for _, e := range list {
		got = append(got, e.Pointer+": "+e.Message)
	}
	want := "matches no schema location (file.json#/pointer, as in error messages) and no generated Go name"
	assert.Equal(t, []string{
		"/renames/NoSuchName: " + want,
		"/renames/input.json#~1$defs~1Missing: " + want,
		"/types/input.json#~1$defs~1A~1properties~1nope: " + want,
	}, got)
	assert.True(t, strings.HasSuffix(list[0].File, "rpcgen.json"), list[0].File)
}

func TestRenamedNamesStillCollide(t *testing.T) {
	input := writeInput(t, map[string]string{
		"input.json":  withDefs(`"A": {"type": "object"}, "B": {"type": "string"}`),
		"rpcgen.json": `{"renames": {"B": "A"}}`,
	})
	cfg, err := gen.LoadConfig(filepath.Join(filepath.Dir(input), "rpcgen.json"))
	require.NoError(t, err)
	_, err = gen.Generate(gen.Options{Input: input, Package: "x", Config: cfg})
	assert.ErrorContains(t, err, "input.json#/$defs/B: Go name A collides with the one generated for input.json#/$defs/A")
}
