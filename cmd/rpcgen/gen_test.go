package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGenWarnsOfUnknownKeywordsOnStderrAndStillWrites(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", strings.Replace(goodIndex, `"result": {"type": "string"}`, `"result": {"type": "string", "media": {"binaryEncoding": "base64"}}`, 1))
	out := filepath.Join(dir, "out")
	code, stdout, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "svc")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout)
	assert.Equal(t, "rpcgen gen: warning: svc.json#/methods/0/result/media: unknown keyword media ignored (read as an annotation; extensions should start with x-)\n", stderr)
	assert.FileExists(t, filepath.Join(out, "types_gen.go"))
}

func TestGenFormatJSONSchemaOverridesDetection(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "thing.json", `{"$id": "https://example.test/thing.json", "title": "Thing"}`)
	out := filepath.Join(dir, "out")
	code, _, _ := rpcgen("gen", "--input", input, "--out", out, "--package", "thing")
	require.Equal(t, exitFail, code, "an $id alone reads as a schemarpc index, which needs methods")
	code, _, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "thing", "--format", "jsonschema")
	require.Equal(t, exitOK, code, stderr)
	assert.FileExists(t, filepath.Join(out, "types_gen.go"))
	assert.NoFileExists(t, filepath.Join(out, "methods_gen.go"), "a JSON Schema document has no methods")
}

func TestGenClientParamsFlagChoosesByPosition(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", `{"openrpc": "1.3.2", "info": {"title": "Svc", "version": "1"}, "methods": [
		{"name": "add", "params": [{"name": "a", "required": true, "schema": {"type": "integer"}}], "result": {"name": "r", "schema": {"type": "integer"}}}]}`)
	out := filepath.Join(dir, "out")
	code, _, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "svc", "--client-params", "by-position")
	require.Equal(t, exitOK, code, stderr)
	src, err := os.ReadFile(filepath.Join(out, "methods_gen.go"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "rpc.EncodeParams(params, rpc.Either")

	code, _, stderr = rpcgen("gen", "--input", input, "--out", out, "--package", "svc", "--client-params", "sideways")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `--client-params "sideways": want by-name or by-position`)
}
