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

// A file an earlier run wrote and this one does not (the unions file, once
// the schema has no union) is removed, so the package still builds; a
// file of that name written by hand stays.
func TestGenRemovesTheGeneratedFilesItNoLongerWrites(t *testing.T) {
	dir := t.TempDir()
	unions, err := os.ReadFile(filepath.Join("..", "..", "gen", "testdata", "unions", "input.json"))
	require.NoError(t, err)
	withUnions := writeFile(t, dir, "unions.json", string(unions))
	without := writeFile(t, dir, "svc.json", goodIndex)
	out := filepath.Join(dir, "out")
	code, _, stderr := rpcgen("gen", "--input", withUnions, "--out", out, "--package", "svc")
	require.Equal(t, exitOK, code, stderr)
	require.FileExists(t, filepath.Join(out, "unions_gen.go"))

	code, _, stderr = rpcgen("gen", "--input", without, "--out", out, "--package", "svc")
	require.Equal(t, exitOK, code, stderr)
	assert.NoFileExists(t, filepath.Join(out, "unions_gen.go"), "the earlier run's unions file is gone")
	assert.FileExists(t, filepath.Join(out, "types_gen.go"))

	handWritten := filepath.Join(out, "unions_gen.go")
	require.NoError(t, os.WriteFile(handWritten, []byte("package svc\n"), 0o644))
	code, _, stderr = rpcgen("gen", "--input", without, "--out", out, "--package", "svc")
	require.Equal(t, exitOK, code, stderr)
	assert.FileExists(t, handWritten, "a file without rpcgen's header is not rpcgen's to remove")
}

// A stale file that cannot be read is an error, not skipped silently.
func TestGenReportsAStaleFileItCannotRead(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", goodIndex)
	out := filepath.Join(dir, "out")
	require.NoError(t, os.MkdirAll(filepath.Join(out, "unions_gen.go"), 0o755), "a directory where the file would be")
	code, _, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "svc")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "unions_gen.go")
}
