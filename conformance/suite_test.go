package conformance_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// logWriter forwards progress messages to the test log.
type logWriter struct{ t *testing.T }

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// TestConformanceSuite runs every server scenario of the official suite (--suite all)
// against examples/everything over Streamable HTTP: every scenario must pass with no
// failing and no warning check.
func TestConformanceSuite(t *testing.T) {
	root := repoRoot(t)
	needs(t, harness.ToolsAt(root).CheckNode())
	binary := everything(t)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := harness.RunServerSuite(ctx, harness.Options{Root: root, Binary: binary, Suite: "all", Log: logWriter{t}})
	require.NoError(t, err, "server stderr:\n%s", res.ServerStderr)
	for _, line := range res.Report.Lines() {
		t.Log(line)
	}
	if !res.Report.Green(true) {
		t.Errorf("the conformance suite is not green; CLI exit %d, output:\n%s\nserver stderr:\n%s",
			res.Run.ExitCode, res.Run.Output, res.ServerStderr)
	}
}
