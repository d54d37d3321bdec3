package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTheCommittedEnvelopeProgramIsWhatRunWrites(t *testing.T) {
	out := filepath.Join(t.TempDir(), "envelope_program_gen.go")
	var stderr bytes.Buffer
	require.Equal(t, 0, run([]string{out}, &stderr), stderr.String())
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	want, err := os.ReadFile(filepath.Join("..", "..", "envelope_program_gen.go"))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "run go generate ./rpc")
}

func TestRunRefusesAWrongCommandLineAndAnUnwritableFile(t *testing.T) {
	var stderr bytes.Buffer
	assert.Equal(t, 2, run(nil, &stderr))
	assert.Contains(t, stderr.String(), "usage: envprogram OUTPUT.go")
	stderr.Reset()
	assert.Equal(t, 1, run([]string{filepath.Join(t.TempDir(), "no", "such", "dir", "x.go")}, &stderr))
	assert.Contains(t, stderr.String(), "envprogram: ")
}
