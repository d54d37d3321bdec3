package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// typedIndex is goodIndex with a type, so that there is something to alias.
const typedIndex = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.test/svc/svc.json",
  "service": "Svc",
  "methods": [{"name": "ping", "result": {"$ref": "#/$defs/Pong"}}],
  "$defs": {"Pong": {"type": "object", "properties": {"at": {"type": "string", "description": "When it answered."}}}}
}`

func TestGenWritesTheAliasesIntoTheirPackageAndCheckComparesThem(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "svc.json", typedIndex)
	cfg := writeFile(t, dir, "rpcgen.json", `{"input": "svc.json", "out": "svcrpc", "package": "svcrpc",
  "aliases": {"out": "api", "package": "api", "import": "example.test/svcrpc"}}`)
	code, _, stderr := rpcgen("gen", "--config", cfg)
	require.Equal(t, exitOK, code, stderr)
	aliases := filepath.Join(dir, "api", "types_gen.go")
	b, err := os.ReadFile(aliases)
	require.NoError(t, err, "the aliases file is written in the other package's directory")
	assert.Contains(t, string(b), "type Pong = svcrpc.Pong")
	assert.Contains(t, string(b), "//		// When it answered.\n//		At *string `json:\"at,omitempty\"`", "the alias shows the fields with their docs")
	code, stdout, stderr := rpcgen("check", "--config", cfg)
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, stdout, "is up to date")

	require.NoError(t, os.WriteFile(aliases, append(b, "// edited\n"...), 0o644))
	code, _, stderr = rpcgen("check", "--config", cfg)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, aliases+": differs from what this rpcgen generates")

	require.NoError(t, os.Remove(aliases))
	code, _, stderr = rpcgen("check", "--config", cfg)
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, aliases+": missing")
}
