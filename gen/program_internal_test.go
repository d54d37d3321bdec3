package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// programInputs lists generation inputs with params schemas: the golden
// cases and the project's own bindings (their rpcgen.json files).
func programInputs(t *testing.T) map[string]Options {
	t.Helper()
	out := map[string]Options{}
	inputs, err := filepath.Glob(filepath.Join("testdata", "*", "input.json"))
	require.NoError(t, err)
	for _, in := range inputs {
		opts := Options{Input: in, Package: "x"}
		if cfg := filepath.Join(filepath.Dir(in), "rpcgen.json"); fileExistsInternal(cfg) {
			c, err := LoadConfig(cfg)
			require.NoError(t, err)
			opts.Config = c
		}
		out[in] = opts
	}
	configs, err := filepath.Glob(filepath.Join("..", "*", "*", "rpcgen.json"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join("..", "*", "*", "*", "rpcgen.json"))
	require.NoError(t, err)
	for _, cfgPath := range append(configs, more...) {
		if filepath.Base(filepath.Dir(filepath.Dir(cfgPath))) == "testdata" {
			continue // a golden case's config, read with its input above
		}
		c, err := LoadConfig(cfgPath)
		require.NoError(t, err)
		out[cfgPath] = Options{Input: c.InputPath(), Package: "x", Config: c}
	}
	return out
}

func fileExistsInternal(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestTheProgramIsWhatTheRuntimeCompilesOfTheSameSchemas pins that the
// generator compiles params schemas as the generated schema set would at
// run time (the same documents, the same default draft): the program it
// emits equals the one made from the runtime's compiled schemas. With
// fastschema's own tests (a program answers as its validators, which
// answer as the library), a generated program answers as the library does.
func TestTheProgramIsWhatTheRuntimeCompilesOfTheSameSchemas(t *testing.T) {
	programs := 0
	for name, opts := range programInputs(t) {
		t.Run(name, func(t *testing.T) {
			svc, err := load(opts, false, nil)
			require.NoError(t, err)
			if svc.program.text == "" {
				for _, m := range svc.methods {
					require.False(t, m.hasParams, "a service with params schemas has a program")
				}
				return
			}
			programs++
			docs := map[string]string{}
			for _, d := range svc.docs {
				docs[d.url] = string(d.raw)
			}
			var setOpts []rpc.SchemaSetOption
			if svc.defaultDraft07() {
				setOpts = append(setOpts, rpc.WithDefaultDraft(rpc.Draft7))
			}
			want, err := rpc.NewSchemaSet(docs, setOpts...).Program(svc.program.locations...)
			require.NoError(t, err)
			require.Equal(t, want, svc.program.text)
		})
	}
	require.Positive(t, programs)
}
