package gen_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schemarpc/schemarpc/gen"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeConfig(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "rpcgen.json")
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestLoadConfigResolvesPathsAgainstItsDirectory(t *testing.T) {
	p := writeConfig(t, `{"input": "api/svc.json", "out": "svcrpc", "package": "svcrpc", "format": "openrpc",
		"schemaURL": "https://example.test/svc.json", "service": "Svc", "initialisms": ["SSE"],
		"renames": {"svc.json#/$defs/Thing": "Widget"}, "types": {"svc.json#/$defs/Id": "github.com/schemarpc/schemarpc/rpc.ID"},
		"files": {"types": "svc_types_gen.go"}}`)
	cfg, err := gen.LoadConfig(p)
	require.NoError(t, err)
	dir := filepath.Dir(p)
	assert.Equal(t, filepath.Join(dir, "api", "svc.json"), cfg.InputPath())
	assert.Equal(t, filepath.Join(dir, "svcrpc"), cfg.OutDir())
	assert.Equal(t, gen.FormatOpenRPC, cfg.Format)
	assert.Equal(t, "Widget", cfg.Renames["svc.json#/$defs/Thing"])

	abs := writeConfig(t, `{"input": "/abs/svc.json"}`)
	cfg, err = gen.LoadConfig(abs)
	require.NoError(t, err)
	assert.Equal(t, "/abs/svc.json", cfg.InputPath())
	assert.Empty(t, cfg.OutDir())
}

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	tests := []struct {
		name, content string
		want          []string
	}{
		{"unknown member", `{"pakage": "x"}`, []string{`unknown field "pakage"`}},
		{"not json", `{"package": `, []string{"unexpected EOF"}},
		{"two values", `{} {}`, []string{"more than one JSON value"}},
		{"wrong type", `{"renames": []}`, []string{"cannot unmarshal array"}},
		{"client params", `{"clientParams": "positional"}`, []string{`clientParams: "positional" is neither "by-name" nor "by-position"`}},
		{"recurring", `{"recurring": ["lower", "Two Words"]}`, []string{
			`recurring: "lower" is not an exported Go identifier`,
			`recurring: "Two Words" is not an exported Go identifier`,
		}},
		{"everything at once", `{
			"package": "my-pkg", "format": "yaml", "schemaURL": "svc.json", "service": "_",
			"initialisms": ["sse"], "renames": {"x.json#/a": "lower"},
			"types": {"NoPointer": "string", "x.json#/b": "pkg.lower", "x.json#/c": "notatype"},
			"files": {"docs": "d.go", "types": "dir/t.go", "methods": "m_test.go"}}`,
			[]string{
				`package: "my-pkg" is not a Go package name`,
				`format: unknown format "yaml"`,
				`schemaURL: "svc.json" must be an absolute URL`,
				`service: "_" gives no Go identifier`,
				`initialisms: "sse" must be a word with at least one capital`,
				`renames: "x.json#/a": "lower" is not an exported Go identifier`,
				`types: "NoPointer" is not a schema location`,
				`types: "x.json#/b": "pkg.lower": lower is not an exported Go identifier`,
				`types: "x.json#/c": "notatype" is neither a predeclared type nor import/path.Name`,
				`files: unknown role "docs"`,
				`files: "types": "dir/t.go" must be a plain .go file name`,
				`files: "methods": "m_test.go" must be a plain .go file name (not a test file)`,
			}},
		{"documents", `{"documents": {"fs": "FS", "base": "https://schemarpc.dev/schema"}}`, []string{
			`documents: fs: "FS" is not a qualified variable name`,
			`documents: base: "https://schemarpc.dev/schema" must be an absolute URL with a host, ending with a slash`,
		}},
		{"documents base not absolute", `{"documents": {"fs": "example.test/docs.FS", "base": "schema/"}}`, []string{
			`documents: base: "schema/" must be an absolute URL`,
		}},
		{"two files one name", `{"files": {"unions": "methods_gen.go"}}`, []string{`files: "methods" and "unions" would both be written to methods_gen.go`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, tt.content)
			_, err := gen.LoadConfig(p)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Contains(t, err.Error(), p, "every message names the file")
		})
	}
	_, err := gen.LoadConfig(filepath.Join(t.TempDir(), "none.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestParseFormat(t *testing.T) {
	for _, f := range gen.Formats {
		got, err := gen.ParseFormat(string(f))
		require.NoError(t, err)
		assert.Equal(t, f, got)
	}
	_, err := gen.ParseFormat("OpenRPC")
	assert.EqualError(t, err, `unknown format "OpenRPC" (want schemarpc, mcp, openrpc or jsonschema)`)
}
