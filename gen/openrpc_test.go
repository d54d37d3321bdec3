package gen_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// The OpenRPC corpus: documents under testdata/openrpc, written for these
// tests. Each becomes a package named after its file; the tests under
// testdata/openrpc/behaviour/<name> run against the generated code, with
// the harness package beside them.
const corpusDir = "testdata/openrpc"

func corpus(t *testing.T) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	require.NoError(t, err)
	var names []string
	for _, m := range matches {
		names = append(names, strings.TrimSuffix(filepath.Base(m), ".json"))
	}
	sort.Strings(names)
	require.NotEmpty(t, names)
	return names
}

// generateCorpus generates a corpus document, with the config at
// testdata/openrpc/config/<name>.json when there is one.
func generateCorpus(t *testing.T, name string) []gen.File {
	t.Helper()
	opts := gen.Options{Input: filepath.Join(corpusDir, name+".json"), Package: name}
	if cfg := filepath.Join(corpusDir, "config", name+".json"); fileExists(cfg) {
		var err error
		opts.Config, err = gen.LoadConfig(cfg)
		require.NoError(t, err)
	}
	files, err := gen.Generate(opts)
	require.NoError(t, err)
	return files
}

// TestOpenRPCCorpusCompilesAndRuns generates every corpus document, then
// vets the packages and runs their behaviour tests, which connect each
// generated client to its generated server over the runtime.
func TestOpenRPCCorpusCompilesAndRuns(t *testing.T) {
	dir, goCmd := tempModule(t)
	write := func(rel string, content []byte) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, content, 0o644))
	}
	harness, err := os.ReadFile(filepath.Join(corpusDir, "behaviour", "harness", "harness.go"))
	require.NoError(t, err)
	write("harness/harness.go", harness)
	withTests := 0
	for _, name := range corpus(t) {
		for _, f := range generateCorpus(t, name) {
			write(name+"/"+f.Name, f.Content)
		}
		tests, err := filepath.Glob(filepath.Join(corpusDir, "behaviour", name, "*_test.go"))
		require.NoError(t, err)
		for _, f := range tests {
			src, err := os.ReadFile(f)
			require.NoError(t, err)
			write(name+"/"+filepath.Base(f), src)
		}
		if len(tests) > 0 {
			withTests++
		}
	}
	require.NotZero(t, withTests)
	out, err := vetAndTest(t, goCmd)
	require.NoError(t, err, "go test:\n%s", out)
}

func TestOpenRPCCorpusIsDeterministic(t *testing.T) {
	for _, name := range corpus(t) {
		t.Run(name, func(t *testing.T) {
			first := generateCorpus(t, name)
			again := generateCorpus(t, name)
			require.Len(t, again, len(first))
			for i := range first {
				assert.Equal(t, string(first[i].Content), string(again[i].Content), "%s changed between runs", first[i].Name)
			}
		})
	}
}
