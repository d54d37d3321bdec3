package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestToolDirectiveWorkflow follows docs/codegen.md in a throwaway module:
// rpcgen pinned with a go.mod tool directive, bindings made by go generate
// through "go tool rpcgen", the result built, then checked with "go tool
// rpcgen check". Modules come from the local module cache; nothing goes
// online.
func TestToolDirectiveWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds rpcgen in a temporary module; skipped with -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	dir := t.TempDir()
	// Nothing is published yet: the replace stands in for the module proxy.
	goMod := "module example.test/app\n\ngo 1.26\n\n" +
		"replace github.com/schemarpc/schemarpc => " + root + "\n"
	writeFile(t, dir, "go.mod", goMod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	writeFile(t, dir, "go.sum", string(sum))
	writeFile(t, dir, "svc.json", goodIndex)
	writeFile(t, dir, "rpcgen.json", `{"input": "svc.json", "out": "svcrpc", "package": "svcrpc"}`)
	writeFile(t, dir, "generate.go", "package app\n\n//go:generate go tool rpcgen gen --config rpcgen.json\n")

	modCache, err := exec.Command(goBin, "env", "GOMODCACHE").Output()
	require.NoError(t, err)
	// The module cache serves as the module proxy: what the root module's
	// go.sum lists is there after "go mod download", and nothing goes online.
	proxy := "file://" + filepath.ToSlash(filepath.Join(strings.TrimSpace(string(modCache)), "cache", "download"))
	env := append(os.Environ(), "GOPROXY="+proxy, "GOSUMDB=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOWORK=off")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	run("get", "-tool", "github.com/schemarpc/schemarpc/cmd/rpcgen")
	run("generate", "./...")
	writeFile(t, dir, "app.go", "package app\n\nimport \"example.test/app/svcrpc\"\n\nvar _ svcrpc.SvcServer = svcrpc.UnimplementedSvcServer{}\n")
	run("build", "./...")
	require.Contains(t, run("tool", "rpcgen", "check", "--config", "rpcgen.json"), "is up to date")
}
