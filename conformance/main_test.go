package conformance_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// requireEnv makes missing tools a failure instead of a skip (CI sets it).
const requireEnv = "SCHEMARPC_REQUIRE_INTEROP"

// buildDir receives the binaries the tests build.
var buildDir string

// built is a package the tests build at most once per test binary.
type built struct {
	once sync.Once
	path string
	err  error
}

// everythingBuild and clientBuild are examples/everything and examples/conformance-client.
var everythingBuild, clientBuild built

// get builds pkg into buildDir the first time it is asked and returns the binary's path.
func (b *built) get(t *testing.T, pkg string) string {
	t.Helper()
	root := repoRoot(t)
	b.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		b.path, b.err = harness.Build(ctx, root, pkg, buildDir)
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "schemarpc-conformance-test-")
	if err != nil {
		panic(err)
	}
	buildDir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// needs skips the test when err reports a missing prerequisite, or fails it when the
// environment demands that everything be installed.
func needs(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv(requireEnv) == "1" {
		t.Fatalf("%v (%s=1, so this is a failure, not a skip)", err, requireEnv)
	}
	t.Skip(err)
}

// repoRoot is the checkout these tests belong to.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := harness.FindRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// everything builds examples/everything once per test binary and returns its path.
func everything(t *testing.T) string {
	t.Helper()
	root := repoRoot(t)
	if _, err := os.Stat(filepath.Join(root, "examples", "everything", "main.go")); err != nil {
		needs(t, errors.New("examples/everything does not exist in this checkout"))
	}
	return everythingBuild.get(t, harness.EverythingPackage)
}

// serveHTTP starts the process argv returns for a free loopback address, one that serves
// Streamable HTTP at http://ADDR/mcp, and waits (at most 20 s) until it answers. The
// caller stops the process.
func serveHTTP(ctx context.Context, t *testing.T, argv func(addr string) []string) (server *harness.Process, url string) {
	t.Helper()
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	args := argv(addr)
	server, err = harness.Start(ctx, args[0], args[1:]...)
	require.NoError(t, err)
	url = "http://" + addr + "/mcp"
	waitCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := harness.WaitHTTP(waitCtx, server, url); err != nil {
		server.Stop()
		t.Fatalf("%v\nserver stderr:\n%s", err, server.Stderr())
	}
	return server, url
}
