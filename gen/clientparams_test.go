package gen_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/gen"
)

// eitherDoc has one method whose params may go either way (OpenRPC's
// default paramStructure).
const eitherDoc = `{"openrpc": "1.3.2", "info": {"title": "X", "version": "1"}, "methods": [
	{"name": "add", "params": [{"name": "a", "required": true, "schema": {"type": "integer"}}, {"name": "b", "required": true, "schema": {"type": "integer"}}],
	 "result": {"name": "sum", "schema": {"type": "integer"}}}]}`

func clientOf(t *testing.T, opts gen.Options) string {
	t.Helper()
	opts.Input, opts.Package = writeInput(t, map[string]string{"input.json": eitherDoc}), "x"
	files, err := gen.Generate(opts)
	require.NoError(t, err)
	for _, f := range files {
		if f.Name == "methods_gen.go" {
			src := string(f.Content)
			return src[strings.Index(src, "func (c *XClient) Add("):]
		}
	}
	t.Fatal("no methods_gen.go")
	return ""
}

func TestClientParamsChoosesHowAnEitherMethodIsSent(t *testing.T) {
	byName := clientOf(t, gen.Options{ClientParams: gen.ClientParamsByName})
	assert.NotContains(t, byName, "EncodeParams", "by name: the params object as it is")
	byPosition := clientOf(t, gen.Options{ClientParams: gen.ClientParamsByPosition})
	assert.Contains(t, byPosition, `rpc.EncodeParams(params, rpc.Either, []string{"a", "b"}, nil)`)
	fromConfig := clientOf(t, gen.Options{Config: &gen.Config{ClientParams: gen.ClientParamsByPosition}})
	assert.Equal(t, byPosition, fromConfig, "the config's clientParams")
	flagWins := clientOf(t, gen.Options{ClientParams: gen.ClientParamsByName, Config: &gen.Config{ClientParams: gen.ClientParamsByPosition}})
	assert.Equal(t, byName, flagWins, "Options.ClientParams overrides the config")
}

func TestClientParamsRejectsAnUnknownWay(t *testing.T) {
	_, err := gen.Generate(gen.Options{Input: writeInput(t, map[string]string{"input.json": eitherDoc}), Package: "x", ClientParams: "sideways"})
	assert.ErrorContains(t, err, `client params: "sideways" is neither "by-name" nor "by-position"`)
}
