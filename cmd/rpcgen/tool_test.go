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
// rpcgen check". Modules come from the local cache; nothing goes online.
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
	goMod := "module example.test/app\n\ngo 1.26\n\n" +
		"tool github.com/schemarpc/schemarpc/cmd/rpcgen\n\n" +
		"require github.com/schemarpc/schemarpc v0.0.0-00010101000000-000000000000\n\n" +
		"replace github.com/schemarpc/schemarpc => " + root + "\n"
	writeFile(t, dir, "go.mod", goMod)
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	require.NoError(t, err)
	writeFile(t, dir, "go.sum", string(sum))
	writeFile(t, dir, "svc.json", goodIndex)
	writeFile(t, dir, "rpcgen.json", `{"input": "svc.json", "out": "svcrpc", "package": "svcrpc"}`)
	writeFile(t, dir, "generate.go", "package app\n\n//go:generate go tool rpcgen gen --config rpcgen.json\n")

	env := append(os.Environ(), "GOPROXY=off", "GOSUMDB=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"), "GOWORK=off")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go %s:\n%s", strings.Join(args, " "), out)
		return string(out)
	}
	run("mod", "tidy") // as after "go get -tool": records what rpcgen needs
	run("generate", "./...")
	writeFile(t, dir, "app.go", "package app\n\nimport \"example.test/app/svcrpc\"\n\nvar _ svcrpc.SvcServer = svcrpc.UnimplementedSvcServer{}\n")
	run("build", "./...")
	require.Contains(t, run("tool", "rpcgen", "check", "--config", "rpcgen.json"), "is up to date")
}
