package gen_test

import (
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/schema"
)

// compileAll compiles every params and result location of d, proving the
// locations name schemas inside the documents d carries.
func compileAll(t *testing.T, d *gen.Description) {
	t.Helper()
	docs := map[string]string{}
	for u, b := range d.Documents {
		docs[u] = string(b)
	}
	var opts []rpc.SchemaSetOption
	if d.Draft07 {
		opts = append(opts, rpc.WithDefaultDraft(rpc.Draft7))
	}
	set := rpc.NewSchemaSet(docs, opts...)
	for _, m := range d.Methods {
		if m.Params != "" {
			_, err := set.Compile(m.Params)
			require.NoError(t, err, "%s params %s", m.Name, m.Params)
		}
		for _, r := range m.Results {
			_, err := set.Compile(r)
			require.NoError(t, err, "%s result %s", m.Name, r)
		}
	}
}

func method(t *testing.T, d *gen.Description, name string) gen.MethodInfo {
	t.Helper()
	for _, m := range d.Methods {
		if m.Name == name {
			return m
		}
	}
	t.Fatalf("no method %s", name)
	return gen.MethodInfo{}
}

func TestDescribeReadsOurIndexFromAFileSystem(t *testing.T) {
	d, err := gen.Describe(gen.Options{FS: schema.FS, Input: "mcp/2025-11-25/index.json"})
	require.NoError(t, err)
	assert.Equal(t, "MCP", d.Service)
	assert.Equal(t, "https://schemarpc.dev/schema/mcp/2025-11-25/index.json", d.IndexURL)
	call := method(t, d, "tools/call")
	assert.False(t, call.Notification)
	assert.Equal(t, "client-to-server", call.Direction)
	assert.Equal(t, "by-name", call.Structure)
	assert.NotEmpty(t, call.Params)
	require.NotEmpty(t, call.Results)
	assert.Contains(t, call.Results[0], "https://schemarpc.dev/schema/mcp/2025-11-25/")
	ping := method(t, d, "ping")
	assert.Equal(t, "both", ping.Direction)
	progress := method(t, d, "notifications/progress")
	assert.True(t, progress.Notification)
	assert.Empty(t, progress.Results)
	compileAll(t, d)
}

func TestDescribeReadsOpenRPCWithPositionalParams(t *testing.T) {
	d, err := gen.Describe(gen.Options{Input: filepath.Join("testdata", "openrpcgolden", "input.json")})
	require.NoError(t, err)
	read := method(t, d, "notes.read")
	assert.Equal(t, "by-position", read.Structure)
	assert.Equal(t, []string{"id"}, read.ParamNames)
	require.Len(t, read.Results, 1)
	compileAll(t, d)
}

func TestDescribeReadsAPublishedMCPSchema(t *testing.T) {
	path := filepath.Join("..", "..", "shared", "mcp-spec", "2025-06-18", "schema.json")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the published MCP schemas are not beside the repository (%s): %v", path, err)
	}
	d, err := gen.Describe(gen.Options{Input: path})
	require.NoError(t, err)
	assert.Equal(t, "2025-06-18", d.Version)
	assert.Len(t, method(t, d, "ping").Results, 1)
	assert.Equal(t, "server-to-client", method(t, d, "elicitation/create").Direction)
	compileAll(t, d)
}

func TestDescribeReportsAMissingFileInAFileSystem(t *testing.T) {
	_, err := gen.Describe(gen.Options{FS: schema.FS, Input: "mcp/1999-01-01/index.json"})
	require.Error(t, err)
	_, err = gen.Describe(gen.Options{FS: schema.FS, Input: "../escape.json"})
	require.ErrorContains(t, err, "not a valid path")
}

func TestDescribeIgnoresWhatOnlyMattersToGoCode(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "index.json")
	require.NoError(t, os.WriteFile(input, []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.test/api/index.json",
  "service": "Api",
  "methods": [{"name": "pick", "params": {"type": "object"},
    "result": {"anyOf": [{"type": "string", "format": "email"}, {"type": "string", "format": "uri"}]}}]
}`), 0o644))
	_, err := gen.Generate(gen.Options{Input: input, Package: "api"})
	require.ErrorContains(t, err, "Go name PickResultString collides")
	d, err := gen.Describe(gen.Options{Input: input})
	require.NoError(t, err)
	require.Len(t, d.Methods, 1)
	assert.Equal(t, []string{"https://example.test/api/index.json#/methods/0/result"}, d.Methods[0].Results)
	compileAll(t, d)
}

func TestDescribeReportsBrokenDocumentsInAFileSystem(t *testing.T) {
	fsys := fstest.MapFS{
		"api/bad.json":   {Data: []byte(`{"service": `)},
		"api/sub/x.json": {Data: []byte(`{}`)},
		"api/dir.json": {Data: []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.test/api/dir.json",
  "service": "Api",
  "methods": [{"name": "m", "params": {"$ref": "sub#/$defs/P"}, "result": true}]
}`)},
		"api/index.json": {Data: []byte(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.test/api/index.json",
  "service": "Api",
  "methods": [{"name": "m", "params": {"$ref": "types.json#/$defs/P"}, "result": true}]
}`)},
	}
	_, err := gen.Describe(gen.Options{FS: fsys, Input: "api/bad.json"})
	require.ErrorContains(t, err, "bad.json")
	_, err = gen.Describe(gen.Options{FS: fsys, Input: "api/index.json"})
	require.ErrorContains(t, err, "referenced file types.json does not exist")
	_, err = gen.Describe(gen.Options{FS: fsys, Input: "api/dir.json"})
	require.ErrorContains(t, err, "cannot read referenced file sub")
}

// TestABareRefIsValidatedAtItsDefinitionOnlyWhenItMadeANamedType pins where
// a method's params and result are validated when the method writes them as
// a bare $ref: at the definition, when the $ref made a named type (error
// locations then name it; every $defs entry makes one, even raw JSON or a
// type the config maps it to); where they are written, when it made none
// (a $ref to a map inside a definition takes the map's type; a $ref to a
// part of the index that is no definition reads as raw JSON: the fuzzer's
// case).
func TestABareRefIsValidatedAtItsDefinitionOnlyWhenItMadeANamedType(t *testing.T) {
	const index = "https://example.test/api/index.json"
	for _, tc := range []struct {
		name, def, ref string
		types          map[string]string
		wantAt         string // where params and result are validated: "def" or "method"
	}{
		{name: "a struct", def: `{"type": "object", "properties": {"a": {"type": "string"}}}`, ref: "#/$defs/D", wantAt: "def"},
		{name: "raw JSON", def: `true`, ref: "#/$defs/D", wantAt: "def"},
		{name: "a config type", def: `{"type": "object"}`, ref: "#/$defs/D", types: map[string]string{"index.json#/$defs/D": "encoding/json.RawMessage"}, wantAt: "def"},
		{name: "a map inside a definition", def: `{"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}`, ref: "#/$defs/D/properties/m", wantAt: "method"},
		{name: "no definition", def: `true`, ref: "#/methods/1", wantAt: "method"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "` + index + `", "service": "Api",
  "methods": [{"name": "m", "params": {"$ref": "` + tc.ref + `"}, "result": {"$ref": "` + tc.ref + `"}},
    {"name": "n", "kind": "notification"}],
  "$defs": {"D": ` + tc.def + `}}`
			fsys := fstest.MapFS{"api/index.json": {Data: []byte(doc)}}
			opts := gen.Options{FS: fsys, Input: "api/index.json", Package: "api", Config: &gen.Config{Types: tc.types}}
			_, err := gen.Generate(opts)
			require.NoError(t, err)
			d, err := gen.Describe(opts)
			require.NoError(t, err)
			m := method(t, d, "m")
			params, result := index+"#/$defs/D", index+"#/$defs/D"
			if tc.wantAt == "method" {
				params, result = index+"#/methods/0/params", index+"#/methods/0/result"
			}
			assert.Equal(t, params, m.Params)
			assert.Equal(t, []string{result}, m.Results)
			compileAll(t, d)
		})
	}
}
