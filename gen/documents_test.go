package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
	"github.com/schemarpc/schemarpc/schema"
)

// schemaFileOf generates the 2024-11-05 bindings from schema.FS with cfg
// and returns schema_gen.go.
func schemaFileOf(t *testing.T, cfg *gen.Config) string {
	t.Helper()
	files, err := gen.Generate(gen.Options{FS: schema.FS, Input: "mcp/2024-11-05/index.json", Package: "mcp", Config: cfg})
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "schema_gen.go" {
			return string(f.Content)
		}
	}
	t.Fatal("no schema_gen.go")
	return ""
}

func TestDocumentsConfigReadsTheDocumentsFromTheNamedFileSystem(t *testing.T) {
	// A sentence of tools.json: the verbatim copy holds it, the file
	// system's reference does not.
	const fromTools = "Tool describes a function the"
	verbatim := schemaFileOf(t, nil)
	assert.Contains(t, verbatim, fromTools)
	assert.NotContains(t, verbatim, "rpc.WithFS")

	shared := schemaFileOf(t, &gen.Config{Documents: &gen.Documents{FS: "github.com/schemarpc/schemarpc/schema.FS", Base: schema.BaseURL}})
	assert.NotContains(t, shared, fromTools)
	assert.Contains(t, shared, `"github.com/schemarpc/schemarpc/schema"`)
	start := strings.Index(shared, `rpc.NewSchemaSet(nil, rpc.WithFS(schema.FS, "https://schemarpc.dev/schema/",`)
	require.GreaterOrEqual(t, start, 0, shared)
	for _, p := range []string{"common.json", "index.json", "tools.json", "sampling.json"} {
		assert.Contains(t, shared[start:], "\n\t\"mcp/2024-11-05/"+p+"\",\n", "every document by its path in the file system")
	}
	assert.Contains(t, shared, "rpc.WithProgram(schemaProgram,", "the program is compiled as before")
}

func TestDocumentsOutsideTheBaseAreAnError(t *testing.T) {
	_, err := gen.Generate(gen.Options{FS: schema.FS, Input: "mcp/2024-11-05/index.json", Package: "mcp",
		Config: &gen.Config{Documents: &gen.Documents{FS: "example.test/docs.FS", Base: "https://example.test/docs/"}}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "https://schemarpc.dev/schema/mcp/2024-11-05/")
	assert.Contains(t, err.Error(), "is not under the base https://example.test/docs/, so example.test/docs.FS cannot hold it")
}
