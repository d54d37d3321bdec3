package mcpredis_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// requireInterop makes missing conformance tools a failure instead of a skip, as in the
// root module's conformance tests (CI sets it).
const requireInterop = "SCHEMARPC_REQUIRE_INTEROP"

// needsTools skips the test when err reports missing conformance tools, or fails it
// when the environment says they must be there.
func needsTools(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	if os.Getenv(requireInterop) == "1" {
		t.Fatalf("%v (%s=1, so this is a failure, not a skip)", err, requireInterop)
	}
	t.Skip(err)
}

// TestConformanceAgainstReplicas runs the official conformance suites against
// mcpcluster: three everything-redis replicas on a redis-server of their own behind a
// round-robin proxy, driven exactly as the root tests drive one everything process (the
// 0.1.16 suite with --suite all, then both legs of the 0.2.0 suite against one cluster).
// Every scenario must pass with no failing and no warning check.
func TestConformanceAgainstReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the conformance suites against a cluster; skipped with -short")
	}
	startRedis(t) // skips, or fails, as every Redis test does without redis-server
	root, err := filepath.Abs("..")
	require.NoError(t, err)
	needsTools(t, harness.ToolsAt(root).CheckNode())
	needsTools(t, harness.NextToolsAt(root).CheckSuite())

	bin := t.TempDir()
	build := func(dir string, args ...string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", append([]string{"build", "-o", bin + string(filepath.Separator)}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "go build %v:\n%s", args, out)
	}
	build(root, "./conformance/cmd/conformance-suite")
	build(".", "./cmd/mcpcluster", "./cmd/everything-redis")

	for _, run := range []struct {
		name string
		args []string
	}{
		{"0.1.16 all", []string{"-suite", "all"}},
		{"0.2.0 legs", []string{"-requirements", "2025-11-25,2026-07-28"}},
	} {
		t.Run(run.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(bin, "conformance-suite"),
				append([]string{"-binary", filepath.Join(bin, "mcpcluster")}, run.args...)...)
			cmd.Dir = root
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			t.Log(stdout.String())
			if err != nil {
				t.Errorf("conformance-suite %v against the cluster: %v\nits stderr (the cluster's logs among it):\n%s", run.args, err, stderr.String())
			}
		})
	}
}
