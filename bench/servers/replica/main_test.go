package main

import (
	"bytes"
	"context"
	"net"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestABadCommandLineIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no address", nil, "usage: replica -http ADDR"},
		{"extra arguments", []string{"-http", "127.0.0.1:0", "more"}, "usage: replica -http ADDR"},
		{"unknown flag", []string{"-bogus"}, "flag provided but not defined"},
		{"bad Redis URL", []string{"-http", "127.0.0.1:0", "-redis", "http://nowhere"}, "-redis:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(context.Background(), tc.args, &stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error()+stderr.String(), tc.want)
		})
	}
}

// A Redis that does not answer fails the start with its address, before
// anything listens.
func TestARedisThatDoesNotAnswerFailsTheStart(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	dead := l.Addr().String()
	require.NoError(t, l.Close())
	err = run(context.Background(), []string{"-http", "127.0.0.1:0", "-redis", "redis://" + dead + "/0"}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "redis at "+dead+" does not answer")
}
