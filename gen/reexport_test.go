package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// reexportFiles is an input that re-exports another document's definition
// under the same name, the way a package's index document often does.
func reexportFiles(point string) map[string]string {
	return map[string]string{
		"input.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": {
			"Point": ` + point + `,
			"Line": {"type": "object", "properties": {"from": {"$ref": "#/$defs/Point"}, "to": {"$ref": "shapes.json#/$defs/Point"}}, "required": ["from", "to"]}}}`,
		"shapes.json": `{"$defs": {"Point": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x", "y"]}}}`,
	}
}

func TestADefinitionThatOnlyReExportsAnotherOfTheSameNameIsThatType(t *testing.T) {
	for _, point := range []string{
		`{"$ref": "shapes.json#/$defs/Point"}`,
		`{"$ref": "shapes.json#/$defs/Point", "description": "A point, as shapes.json has it."}`,
	} {
		generated, err := gen.Generate(gen.Options{Input: writeInput(t, reexportFiles(point)), Package: "x"})
		require.NoError(t, err, point)
		src := string(generated[0].Content)
		assert.Equal(t, 1, strings.Count(src, "type Point "), "one type: %s", point)
		assert.Contains(t, src, "type Point struct {")
		assert.Contains(t, src, "From Point")
		assert.Contains(t, src, "To   Point")
	}
}

func TestARenamedReExportIsAnAliasOfTheDefinition(t *testing.T) {
	files := reexportFiles(`{"$ref": "shapes.json#/$defs/Point"}`)
	generated, err := gen.Generate(gen.Options{Input: writeInput(t, files), Package: "x",
		Config: &gen.Config{Renames: map[string]string{"input.json#/$defs/Point": "LocalPoint"}}})
	require.NoError(t, err)
	src := string(generated[0].Content)
	assert.Contains(t, src, "type LocalPoint = Point")
	assert.Contains(t, src, "type Point struct {")
}

func TestADefinitionOfTheSameNameThatIsMoreThanAReExportStillCollides(t *testing.T) {
	for point, want := range map[string]string{
		`{"type": "object", "properties": {"z": {"type": "integer"}}}`: "Go name Point collides with the one generated for",
		`{"$ref": "shapes.json#/$defs/Point", "required": ["x"]}`:      "required beside $ref is not supported",
	} {
		_, err := gen.Generate(gen.Options{Input: writeInput(t, reexportFiles(point)), Package: "x"})
		require.Error(t, err, point)
		assert.Contains(t, err.Error(), want, point)
	}
}
