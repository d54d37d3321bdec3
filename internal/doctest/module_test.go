package doctest_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// requireToolchains makes a supported Go release that cannot be had fail
// its test instead of skipping it (CI sets it).
const requireToolchains = "SCHEMARPC_REQUIRE_TOOLCHAINS"

// supportedGo are the Go releases the project supports, each with the
// toolchain its tests use when the running Go is another release.
var supportedGo = []struct{ release, toolchain string }{
	{"go1.26", "go1.26.8"},
	{"go1.27", "go1.27.4"},
}

// commandTimeout bounds one go or shell command: a build of the whole
// module with a fresh toolchain takes a while on a loaded machine.
const commandTimeout = 10 * time.Minute

// repoRoot is the repository, two levels up from this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	return root
}

// workspace is a fresh directory in which go commands run as a user's
// would, with schemarpc replaced by this repository.
type workspace struct {
	t    *testing.T
	root string   // the repository
	dir  string   // where the next command runs
	env  []string // the go commands' environment

	rpcgenBin string // rpcgen, once built
}

// newWorkspace prepares a workspace whose go commands use toolchain
// ("local" for the running one). The module cache serves as the module
// proxy: after "go mod download" in the repository everything is there.
func newWorkspace(t *testing.T, toolchain string) *workspace {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run the documented commands with")
	}
	modCache := goEnv(t, "GOMODCACHE")
	env := []string{
		"GOTOOLCHAIN=" + toolchain,
		"GOPROXY=file://" + filepath.ToSlash(filepath.Join(modCache, "cache", "download")),
		"GOSUMDB=off", // the checksums of what the cache holds were checked when it was filled
		"GOWORK=off",
		"GOFLAGS=" + strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
		"SCHEMARPC_ROOT=" + repoRoot(t),
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "GOTOOLCHAIN", "GOPROXY", "GOSUMDB", "GOWORK", "GOFLAGS", "GONOPROXY", "GONOSUMDB", "GOPRIVATE", "SCHEMARPC_ROOT":
		default:
			env = append(env, kv)
		}
	}
	return &workspace{t: t, root: repoRoot(t), dir: t.TempDir(), env: env}
}

// goEnv is the value of go env key for the running toolchain.
func goEnv(t *testing.T, key string) string {
	t.Helper()
	out, err := exec.Command("go", "env", key).Output()
	require.NoError(t, err)
	return strings.TrimSpace(string(out))
}

// haveToolchain makes sure toolchain can run, fetching it once through the
// environment's GOPROXY if need be (it lands in the module cache, which the
// workspaces use offline). When it cannot be had the test is skipped, or
// fails when SCHEMARPC_REQUIRE_TOOLCHAINS=1.
func haveToolchain(t *testing.T, release, toolchain string) string {
	t.Helper()
	if strings.HasPrefix(runtime.Version(), release+".") || runtime.Version() == release {
		return "local"
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "version")
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN="+toolchain, "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil && strings.Contains(string(out), "go version "+toolchain+" ") {
		return toolchain
	}
	msg := fmt.Sprintf("the Go toolchain %s cannot be had here (%v): %s", toolchain, err, bytes.TrimSpace(out))
	if os.Getenv(requireToolchains) == "1" {
		t.Fatalf("%s; %s=1 requires it", msg, requireToolchains)
	}
	t.Skipf("%s; set %s=1 to make that a failure", msg, requireToolchains)
	return ""
}

// shellPrelude is put before every command run in a workspace. Nothing is
// published yet, so "go get" first points github.com/schemarpc/schemarpc
// at this repository; the rest of the command is as documented.
const shellPrelude = `set -eo pipefail
go() {
	if [ "$1" = get ]; then command go mod edit -replace=github.com/schemarpc/schemarpc="$SCHEMARPC_ROOT"; fi
	command go "$@"
}
`

// shell runs script with bash in the workspace and returns its standard
// output; the directory it ends in is where the next command runs.
func (w *workspace) shell(script string) (string, error) {
	w.t.Helper()
	pwdFile := filepath.Join(w.t.TempDir(), "pwd")
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", shellPrelude+script+"\npwd > "+shellQuote(pwdFile)+"\n")
	cmd.Dir = w.dir
	cmd.Env = w.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%w\nstdout:\n%s\nstderr:\n%s", err, stdout.Bytes(), stderr.Bytes())
	}
	if pwd, err := os.ReadFile(pwdFile); err == nil {
		w.dir = strings.TrimSpace(string(pwd))
	}
	return stdout.String(), nil
}

// write writes a file of the workspace, relative to where commands run.
func (w *workspace) write(path, content string) {
	w.t.Helper()
	p := filepath.Join(w.dir, filepath.FromSlash(path))
	require.NoError(w.t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(w.t, os.WriteFile(p, []byte(content), 0o644))
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
