package gen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// generateWarnings generates the document and returns the warnings given,
// rendered; generation itself must succeed.
func generateWarnings(t *testing.T, files map[string]string, format gen.Format) []string {
	t.Helper()
	var got []string
	_, err := gen.Generate(gen.Options{Input: writeInput(t, files), Package: "x", Format: format,
		Warn: func(e *gen.Error) { got = append(got, e.Error()) }})
	require.NoError(t, err)
	return got
}

func TestUnknownKeywordsAreWarnedOnceAndNeverFatal(t *testing.T) {
	tests := []struct {
		name   string
		files  map[string]string
		format gen.Format
		want   []string
	}{
		{"hyper-schema media, twice", map[string]string{"input.json": withDefs(`"A": {"type": "object", "properties": {
			"a": {"type": "string", "media": {"binaryEncoding": "base64"}},
			"b": {"type": "string", "media": {"binaryEncoding": "base64"}}}}`)}, "",
			[]string{"input.json#/$defs/A/properties/a/media: unknown keyword media ignored (read as an annotation; extensions should start with x-)"}},
		{"typo and stray _enum", map[string]string{"input.json": withDefs(`"A": {"type": "object", "propertes": {}, "_enum": ["x"]}`)}, "",
			[]string{
				"input.json#/$defs/A/propertes: unknown keyword propertes ignored (read as an annotation; extensions should start with x-)",
				"input.json#/$defs/A/_enum: unknown keyword _enum ignored (read as an annotation; extensions should start with x-)",
			}},
		{"vendor extension is silent", map[string]string{"input.json": withDefs(`"A": {"type": "object", "x-go-type": "Foo"}`)}, "", nil},
		{"nested definitions are a silent container", map[string]string{"input.json": withDefs(`"A": {"type": "object", "$defs": {"B": {"type": "string"}}, "definitions": {}}`)}, "", nil},
		{"stray members of OpenRPC objects", map[string]string{"input.json": orpc(`"methods": [
			{"name": "m", "params": [{"name": "a", "schema": true, "optional": true}], "parms": [], "errors": [{"code": 1, "message": "a", "name": "A"}]},
			{"name": "n", "params": [], "parms": []}], "method": [], "components": {"methods": {}}`)}, gen.FormatOpenRPC,
			[]string{
				"input.json#/method: unknown member method in an OpenRPC document ignored (want $schema, components, externalDocs, info, methods, openrpc, servers, or an x- extension)",
				"input.json#/components/methods: unknown member methods in components ignored (want contentDescriptors, errors, examplePairingObjects, examplePairings, examples, links, schemas, tags, or an x- extension)",
				"input.json#/methods/0/parms: unknown member parms in a method ignored (want deprecated, description, errors, examples, externalDocs, links, name, paramStructure, params, result, servers, summary, tags, or an x- extension)",
				"input.json#/methods/0/params/0/optional: unknown member optional in a content descriptor ignored (want deprecated, description, name, required, schema, summary, or an x- extension)",
				"input.json#/methods/0/errors/0/name: unknown member name in an error ignored (want code, data, message, or an x- extension)",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, generateWarnings(t, tt.files, tt.format))
		})
	}
}

func TestGenerateWithoutWarnFuncStillSucceeds(t *testing.T) {
	_, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": withDefs(`"A": {"type": "object", "media": {}}`)}), Package: "x"})
	require.NoError(t, err)
}
