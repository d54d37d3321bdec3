package conformance_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// requireEnv makes missing tools a failure instead of a skip (CI sets it).
const requireEnv = "SCHEMARPC_REQUIRE_INTEROP"

var (
	buildDir  string
	buildOnce sync.Once
	buildPath string
	buildErr  error
)

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
	buildOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		buildPath, buildErr = harness.Build(ctx, root, harness.EverythingPackage, buildDir)
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return buildPath
}
