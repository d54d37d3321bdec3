package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestABadCommandLineIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"unexpected argument", []string{"more"}, 2, "unexpected arguments"},
		{"replica count not a number", []string{"-replicas", "1,x"}, 2, `-replicas: "x" is not a count`},
		{"replica count zero", []string{"-replicas", "0"}, 2, `-replicas: "0" is not a count`},
		{"unknown format", []string{"-format", "csv"}, 2, `-format: unknown "csv"`},
		{"unknown flag", []string{"-bogus"}, 2, "flag provided but not defined"},
		{"missing replica program", []string{"-replica", "/nonexistent/replica", "-q"}, 1, "the replica program"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tc.code, run(context.Background(), tc.args, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String())
		})
	}
}
