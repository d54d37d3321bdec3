package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rpcgen runs the command line in-process and returns its exit code and
// output.
func rpcgen(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

const goodIndex = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "https://example.test/svc/svc.json",
  "service": "Svc",
  "methods": [{"name": "ping", "result": {"type": "string"}}]
}`

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

func TestNoCommandIsAUsageError(t *testing.T) {
	code, stdout, stderr := rpcgen()
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, stdout)
	assert.Contains(t, stderr, "Usage:")
}

func TestUnknownCommandIsAUsageError(t *testing.T) {
	code, _, stderr := rpcgen("generate")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown command "generate"`)
}

func TestHelpListsEveryCommand(t *testing.T) {
	for _, arg := range []string{"help", "-h", "--help"} {
		code, stdout, _ := rpcgen(arg)
		assert.Equal(t, exitOK, code)
		for _, name := range []string{"gen", "version", "help"} {
			assert.Contains(t, stdout, "\t"+name+" ", "rpcgen %s", arg)
		}
	}
}

func TestHelpForACommandShowsItsFlags(t *testing.T) {
	code, stdout, _ := rpcgen("help", "gen")
	assert.Equal(t, exitOK, code)
	for _, flag := range []string{"-input", "-out", "-package"} {
		assert.Contains(t, stdout, flag)
	}
	code, _, stderr := rpcgen("help", "nope")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, `unknown command "nope"`)
}

func TestCommandHelpIsPrintedOnceToStdout(t *testing.T) {
	require.NotEmpty(t, commands)
	for name := range commands {
		for _, args := range [][]string{{name, "-h"}, {name, "-help"}, {name, "--help"}, {"help", name}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				code, stdout, stderr := rpcgen(args...)
				assert.Equal(t, exitOK, code)
				assert.Empty(t, stderr)
				require.NotEmpty(t, stdout)
				firstLine, _, _ := strings.Cut(stdout, "\n")
				assert.Equal(t, 1, strings.Count(stdout, firstLine), "the help is printed once:\n%s", stdout)
			})
		}
	}
}

func TestBadFlagPrintsTheUsageOnceToStderr(t *testing.T) {
	for _, name := range []string{"gen", "check", "validate", "proxy"} {
		t.Run(name, func(t *testing.T) {
			_, help, _ := rpcgen(name, "-h")
			firstLine, _, _ := strings.Cut(help, "\n")
			require.NotEmpty(t, firstLine)
			code, stdout, stderr := rpcgen(name, "--no-such-flag")
			assert.Equal(t, exitUsage, code)
			assert.Empty(t, stdout)
			assert.Contains(t, stderr, "flag provided but not defined: -no-such-flag")
			assert.Equal(t, 1, strings.Count(stderr, firstLine), "the usage is printed once:\n%s", stderr)
		})
	}
}

func TestVersionPrintsTheVersion(t *testing.T) {
	code, stdout, _ := rpcgen("version")
	assert.Equal(t, exitOK, code)
	assert.True(t, strings.HasPrefix(stdout, "rpcgen "), stdout)
	code, _, _ = rpcgen("version", "extra")
	assert.Equal(t, exitUsage, code)
}

func TestGenRejectsBadUsage(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", goodIndex)
	out := filepath.Join(dir, "out")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no flags", nil, "--input is required"},
		{"no out", []string{"--input", input, "--package", "svc"}, "--out is required"},
		{"no package", []string{"--input", input, "--out", out}, "--package is required"},
		{"package not an identifier", []string{"--input", input, "--out", out, "--package", "my-svc"}, `--package "my-svc" is not a valid Go package name`},
		{"package a keyword", []string{"--input", input, "--out", out, "--package", "type"}, `--package "type" is not a valid Go package name`},
		{"extra argument", []string{"--input", input, "--out", out, "--package", "svc", "more"}, `unexpected argument "more"`},
		{"unknown flag", []string{"--input", input, "--output", out}, "flag provided but not defined: -output"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := rpcgen(append([]string{"gen"}, tt.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tt.want)
			assert.Contains(t, stderr, "usage: rpcgen gen")
			assert.NoDirExists(t, out)
		})
	}
}

func TestGenReportsBadInputWithItsPointerAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", strings.Replace(goodIndex, `"name": "ping"`, `"name": "ping", "kind": "call"`, 1))
	out := filepath.Join(dir, "out")
	code, _, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "svc")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, `svc.json#/methods/0/kind: kind must be "request" or "notification"`)
	assert.NoDirExists(t, out)
}

func TestGenReportsAMissingInput(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := rpcgen("gen", "--input", filepath.Join(dir, "none.json"), "--out", filepath.Join(dir, "out"), "--package", "svc")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "none.json")
}

func TestGenWritesTheGeneratedFiles(t *testing.T) {
	dir := t.TempDir()
	input := writeFile(t, dir, "svc.json", goodIndex)
	out := filepath.Join(dir, "nested", "svcrpc")
	code, stdout, stderr := rpcgen("gen", "--input", input, "--out", out, "--package", "svcrpc")
	require.Equal(t, exitOK, code, stderr)
	assert.Empty(t, stdout)
	entries, err := os.ReadDir(out)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.ElementsMatch(t, []string{"types_gen.go", "methods_gen.go", "schema_gen.go"}, names, "no temporary files are left behind")
	src, err := os.ReadFile(filepath.Join(out, "methods_gen.go"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(src), "// Code generated by rpcgen from svc.json (sha256:"))
	assert.Contains(t, string(src), "package svcrpc")
	assert.Contains(t, string(src), "Ping(ctx context.Context) (string, error)")

	// A second run over existing output replaces it.
	code, _, stderr = rpcgen("gen", "--input", input, "--out", out, "--package", "svcrpc")
	require.Equal(t, exitOK, code, stderr)
}
