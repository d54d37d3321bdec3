package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestFindRootFindsTheModuleAboveAnyDirectory(t *testing.T) {
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "module "+harness.ModulePath+"\n")
}

func TestFindRootSkipsOtherModules(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/other\n"), 0o644))
	_, err := harness.FindRoot(dir)
	assert.ErrorContains(t, err, "no go.mod of "+harness.ModulePath)
}

func TestToolsAreLocatedInTheConformanceDirectory(t *testing.T) {
	tools := harness.ToolsAt("/repo")
	assert.Equal(t, "/repo/conformance/node_modules/.bin/node", tools.Node())
	assert.Equal(t, "/repo/conformance/node_modules/.bin/conformance", tools.Suite())
	assert.Equal(t, "/repo/conformance/.venv/bin/python", tools.Python())
	assert.Equal(t, "/repo/conformance/interop/client.mjs", tools.TypeScriptClient())
	assert.Equal(t, "/repo/conformance/interop/client.py", tools.PythonClient())
}

func TestTheNextSuiteIsLocatedInItsOwnDirectory(t *testing.T) {
	tools := harness.NextToolsAt("/repo")
	assert.Equal(t, "/repo/conformance/next/node_modules/.bin/node", tools.Node())
	assert.Equal(t, "/repo/conformance/next/node_modules/.bin/conformance", tools.Suite())
}

func TestCheckSuiteNeedsNodeAndTheCLIOnly(t *testing.T) {
	dir := t.TempDir()
	tools := harness.Tools{Dir: dir}
	require.ErrorIs(t, tools.CheckSuite(), harness.ErrNotInstalled)
	bin := filepath.Join(dir, "node_modules", ".bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(tools.Node(), nil, 0o755))
	assert.ErrorContains(t, tools.CheckSuite(), "conformance", "the CLI is still missing")
	require.NoError(t, os.WriteFile(tools.Suite(), nil, 0o755))
	assert.NoError(t, tools.CheckSuite(), "no SDK needed")
	assert.ErrorIs(t, tools.CheckNode(), harness.ErrNotInstalled, "CheckNode wants the TypeScript SDK too")
}

func TestMissingToolsAreErrNotInstalledWithAnInstallHint(t *testing.T) {
	tools := harness.Tools{Dir: t.TempDir()}
	for name, err := range map[string]error{"node": tools.CheckNode(), "python": tools.CheckPython(), "suite": tools.CheckSuite()} {
		assert.ErrorIs(t, err, harness.ErrNotInstalled, name)
		assert.ErrorContains(t, err, "make conformance-deps", name)
	}
}

func TestPythonWithoutTheSDKIsErrNotInstalled(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, ".venv", "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bin, "python"), []byte("#!/bin/sh\necho 'No module named mcp' >&2\nexit 1\n"), 0o755))
	err := harness.Tools{Dir: dir}.CheckPython()
	assert.ErrorIs(t, err, harness.ErrNotInstalled)
	assert.ErrorContains(t, err, "No module named mcp")
}

func TestNodeEnvPutsThePinnedNodeFirstOnPath(t *testing.T) {
	t.Setenv("PATH", "/usr/bin")
	env := harness.Tools{Dir: "/c"}.NodeEnv()
	var paths []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			paths = append(paths, kv)
		}
	}
	assert.Equal(t, []string{"PATH=/c/node_modules/.bin" + string(os.PathListSeparator) + "/usr/bin"}, paths)
}

func TestBuildReportsTheCompilerOutput(t *testing.T) {
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	_, err = harness.Build(context.Background(), root, "./conformance/harness/testdata/nosuchpackage", t.TempDir())
	assert.ErrorContains(t, err, "go build ./conformance/harness/testdata/nosuchpackage")
}

func TestBuildProducesTheBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a program")
	}
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	bin, err := harness.Build(context.Background(), root, "./conformance/cmd/conformance-suite", t.TempDir())
	require.NoError(t, err)
	info, err := os.Stat(bin)
	require.NoError(t, err)
	assert.Equal(t, "conformance-suite", filepath.Base(bin))
	assert.NotZero(t, info.Mode()&0o100)
}

func TestBuildOnceBuildsOnceAndKeepsTheAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles a program")
	}
	b := &harness.BuildOnce{Pkg: "./conformance/cmd/conformance-suite"}
	first, err := b.Path()
	require.NoError(t, err)
	info, err := os.Stat(first)
	require.NoError(t, err)
	require.NoError(t, os.Remove(first)) // a second build would make it again
	second, err := b.Path()
	require.NoError(t, err)
	assert.Equal(t, first, second)
	_, err = os.Stat(second)
	assert.True(t, os.IsNotExist(err), "built once")
	assert.NotZero(t, info.Mode()&0o100)

	bad := &harness.BuildOnce{Pkg: "./conformance/harness/testdata/nosuchpackage"}
	_, err = bad.Path()
	require.Error(t, err)
	_, again := bad.Path()
	assert.Same(t, err, again, "the failure is kept too")
}
