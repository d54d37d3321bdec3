package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunRefusesBadFlags(t *testing.T) {
	var stderr bytes.Buffer
	err := run([]string{"-nope"}, &stderr)
	require.Error(t, err)
	assert.Contains(t, stderr.String(), "-nope")
}

func TestRunRefusesStrayArguments(t *testing.T) {
	err := run([]string{"serve"}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unexpected arguments")
}
