package gen_test

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/*/want")

// goldenCases lists the directories under testdata that hold an input.json
// and the files generated from it in want/.
func goldenCases(t *testing.T) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join("testdata", "*", "input.json"))
	require.NoError(t, err)
	var cases []string
	for _, m := range matches {
		cases = append(cases, filepath.Base(filepath.Dir(m)))
	}
	sort.Strings(cases)
	require.NotEmpty(t, cases)
	return cases
}

func generateCase(t *testing.T, name string) []gen.File {
	t.Helper()
	opts := gen.Options{Input: filepath.Join("testdata", name, "input.json"), Package: name}
	// A case may carry a config file (renames, types, initialisms, file
	// names).
	if cfgPath := filepath.Join("testdata", name, "rpcgen.json"); fileExists(cfgPath) {
		cfg, err := gen.LoadConfig(cfgPath)
		require.NoError(t, err)
		opts.Config = cfg
	}
	files, err := gen.Generate(opts)
	require.NoError(t, err)
	return files
}

func TestGeneratedFilesMatchGolden(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			files := generateCase(t, name)
			wantDir := filepath.Join("testdata", name, "want")
			if *update {
				require.NoError(t, os.RemoveAll(wantDir))
				require.NoError(t, os.MkdirAll(wantDir, 0o755))
				for _, f := range files {
					require.NoError(t, os.WriteFile(filepath.Join(wantDir, f.Name), f.Content, 0o644))
				}
				return
			}
			var got []string
			for _, f := range files {
				got = append(got, f.Name)
				want, err := os.ReadFile(filepath.Join(wantDir, f.Name))
				require.NoError(t, err, "run go test ./gen -update to create the golden files")
				assert.Equal(t, string(want), string(f.Content), "%s differs from the golden file; run go test ./gen -update and review the diff", f.Name)
			}
			entries, err := os.ReadDir(wantDir)
			require.NoError(t, err)
			var want []string
			for _, e := range entries {
				want = append(want, e.Name())
			}
			assert.ElementsMatch(t, want, got, "the set of generated files changed")
		})
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for _, name := range goldenCases(t) {
		t.Run(name, func(t *testing.T) {
			first := generateCase(t, name)
			for range 3 {
				again := generateCase(t, name)
				require.Len(t, again, len(first))
				for i := range first {
					assert.Equal(t, first[i].Name, again[i].Name)
					assert.Equal(t, first[i].Content, again[i].Content, "%s changed between runs", first[i].Name)
				}
			}
		})
	}
}

// The calc example's bindings are committed; they must be what the generator
// makes of calc.json today.
func TestCalcExampleIsUpToDate(t *testing.T) {
	files, err := gen.Generate(gen.Options{Input: filepath.Join("..", "examples", "calc", "calc.json"), Package: "calcrpc"})
	require.NoError(t, err)
	for _, f := range files {
		committed, err := os.ReadFile(filepath.Join("..", "examples", "calc", "calcrpc", f.Name))
		require.NoError(t, err)
		assert.Equal(t, string(f.Content), string(committed), "examples/calc/calcrpc/%s is stale: run go generate in examples/calc", f.Name)
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
