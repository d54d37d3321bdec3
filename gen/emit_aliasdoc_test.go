package gen_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

func TestAliasesConfigReportsEveryProblem(t *testing.T) {
	tests := []struct {
		name, aliases string
		want          []string
	}{
		{"nothing named", `{}`, []string{
			`aliases: out: names no directory`,
			`aliases: package: "" is not a Go package name`,
			`aliases: import: "" is not an import path`,
		}},
		{"everything wrong", `{"out": "api", "package": "func", "import": "/abs/path", "file": "dir/api.go"}`, []string{
			`aliases: package: "func" is not a Go package name`,
			`aliases: import: "/abs/path" is not an import path`,
			`aliases: file: "dir/api.go" must be a plain .go file name`,
		}},
		{"a test file, an unclean import", `{"out": "api", "package": "api", "import": "example.test/a/../b", "file": "api_test.go"}`, []string{
			`aliases: import: "example.test/a/../b" is not an import path`,
			`aliases: file: "api_test.go" must be a plain .go file name (not a test file)`,
		}},
		{"the output directory itself", `{"out": "./svcrpc/", "package": "api", "import": "example.test/svcrpc"}`, []string{
			`aliases: out: "./svcrpc/" is the output directory; the aliases belong in another package`,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := writeConfig(t, `{"out": "svcrpc", "aliases": `+tt.aliases+`}`)
			_, err := gen.LoadConfig(p)
			require.Error(t, err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Equal(t, len(tt.want), strings.Count(err.Error(), "aliases: "), "one message per problem: %v", err)
		})
	}
}

func TestAliasesFileBelongsInTheOtherPackagesDirectory(t *testing.T) {
	p := writeConfig(t, `{"aliases": {"out": "api", "package": "api", "import": "example.test/generated/aliases"}}`)
	cfg, err := gen.LoadConfig(p)
	require.NoError(t, err)
	files, err := gen.Generate(gen.Options{Input: filepath.Join("testdata", "aliases", "input.json"), Package: "aliases", Config: cfg})
	require.NoError(t, err)

	var aliases []gen.File
	for _, f := range files {
		if f.Dir != "" {
			aliases = append(aliases, f)
		} else {
			assert.Equal(t, filepath.Join("out", f.Name), f.Path("out"), "the bindings go to the output directory")
		}
	}
	require.Len(t, aliases, 1)
	a := aliases[0]
	assert.Equal(t, "types_gen.go", a.Name, "the default name")
	assert.Equal(t, filepath.Join(filepath.Dir(p), "api", "types_gen.go"), a.Path("out"), "out is relative to the config file")
	assert.Contains(t, string(a.Content), "package api\n")
	assert.Contains(t, string(a.Content), "type Order = aliases.Order\n")
}
