package serve_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func TestStartProfileWritesAProfileWhenADirectoryIsGiven(t *testing.T) {
	dir := t.TempDir()
	stop, err := serve.StartProfile("demo", dir)
	require.NoError(t, err)
	stop()
	files, err := filepath.Glob(filepath.Join(dir, "demo-*.pprof"))
	require.NoError(t, err)
	require.Len(t, files, 1)
	info, err := os.Stat(files[0])
	require.NoError(t, err)
	assert.Positive(t, info.Size(), "a stopped profile holds at least its header")
}

func TestStartProfileDoesNothingWithoutADirectory(t *testing.T) {
	stop, err := serve.StartProfile("demo", "")
	require.NoError(t, err)
	stop()
}

func TestStartProfileFailsOnADirectoryThatDoesNotExist(t *testing.T) {
	_, err := serve.StartProfile("demo", filepath.Join(t.TempDir(), "missing"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cpu profile")
}
