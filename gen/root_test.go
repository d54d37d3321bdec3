package gen_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// rootTree writes files (slash paths) into a fresh directory, with an
// rpcgen.json at its top holding config, and generates from that config.
func rootTree(t *testing.T, config string, files map[string]string) ([]gen.File, error) {
	t.Helper()
	dir := t.TempDir()
	files["rpcgen.json"] = config
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	cfg, err := gen.LoadConfig(filepath.Join(dir, "rpcgen.json"))
	require.NoError(t, err)
	return gen.Generate(gen.Options{Input: cfg.InputPath(), Package: "x", Config: cfg})
}

// apiIndex is an index in api/ whose one method's result is ref.
func apiIndex(ref string) string {
	return `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/x/api/input.json",
		"service": "X", "methods": [{"name": "m", "result": {"$ref": "` + ref + `"}}]}`
}

// sharedDoc is a document in shared/ defining T.
const sharedDoc = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/x/shared/common.json",
	"$defs": {"T": {"type": "object", "properties": {"n": {"type": "integer"}}}}}`

func schemaFile(files []gen.File) string {
	for _, f := range files {
		if f.Name == "schema_gen.go" {
			return string(f.Content)
		}
	}
	return ""
}

func TestARootLetsRefsReachDocumentsOutsideTheInputsDirectory(t *testing.T) {
	files, err := rootTree(t, `{"input": "api/input.json", "root": "."}`, map[string]string{
		"api/input.json":     apiIndex("../shared/common.json#/$defs/T"),
		"shared/common.json": sharedDoc,
	})
	require.NoError(t, err)
	assert.Contains(t, schemaFile(files), `"https://example.test/x/shared/common.json"`)
}

func TestRefsLeavingTheRootAreRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		config string
		want   string
	}{
		{"no root", `{"input": "api/input.json"}`, `input.json#/methods/0/result/$ref: $ref "../shared/common.json#/$defs/T" leaves the input's directory tree`},
		{"a root that is the input's directory", `{"input": "api/input.json", "root": "api"}`, `leaves the input's directory tree`},
		{"a root that does not hold the input", `{"input": "api/input.json", "root": "shared"}`, "does not hold the input's directory"},
		{"a root that does not exist", `{"input": "api/input.json", "root": "nowhere"}`, "root:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := rootTree(t, tc.config, map[string]string{
				"api/input.json":     apiIndex("../shared/common.json#/$defs/T"),
				"shared/common.json": sharedDoc,
			})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

func TestARefPastTheRootIsRefused(t *testing.T) {
	_, err := rootTree(t, `{"input": "top/api/input.json", "root": "top"}`, map[string]string{
		"top/api/input.json": apiIndex("../../shared/common.json#/$defs/T"),
		"shared/common.json": sharedDoc,
	})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "leaves the input's directory tree")
}

// A document reached only through a location a type override keeps from
// being converted is still embedded: the validator compiles the schema
// that refers to it.
func TestDocumentsBehindATypeOverrideAreEmbedded(t *testing.T) {
	files, err := rootTree(t, `{"input": "input.json", "types": {"a.json#/$defs/A": "encoding/json.RawMessage"}}`, map[string]string{
		"input.json": strings.Replace(apiIndex("a.json#/$defs/A"), "/api/", "/", 1),
		"a.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/x/a.json",
			"$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "b.json#/$defs/B"}}}}}`,
		"b.json": `{"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.test/x/b.json",
			"$defs": {"B": {"type": "string"}}}`,
	})
	require.NoError(t, err)
	assert.Contains(t, schemaFile(files), `"https://example.test/x/b.json"`)
}

func TestARootIsRefusedForAFileSystemInput(t *testing.T) {
	fsys := fstest.MapFS{"api/input.json": {Data: []byte(apiIndex("input.json#/$defs/T"))}}
	_, err := gen.Generate(gen.Options{FS: fsys, Input: "api/input.json", Package: "x", Config: &gen.Config{Root: "."}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a root is for the operating system's files")
}
