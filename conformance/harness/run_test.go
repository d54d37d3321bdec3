package harness_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

func TestRunServerSuiteWithoutTheToolsIsErrNotInstalled(t *testing.T) {
	_, err := harness.RunServerSuite(context.Background(), harness.Options{Root: t.TempDir(), Suite: "all"})
	assert.ErrorIs(t, err, harness.ErrNotInstalled)
}

func TestRunServerSuiteReportsAServerThatNeverAnswers(t *testing.T) {
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	if err := harness.ToolsAt(root).CheckNode(); err != nil {
		t.Skip(err)
	}
	t.Setenv(helperEnv, "idle") // the stand-in server never listens
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := harness.RunServerSuite(ctx, harness.Options{
		Root: root, Binary: os.Args[0], Suite: "all", StartTimeout: 300 * time.Millisecond,
	})
	assert.ErrorIs(t, err, harness.ErrNeverAnswered)
	assert.Equal(t, "helper idling\n", res.ServerStderr, "the server's stderr comes back for diagnosis")
}
