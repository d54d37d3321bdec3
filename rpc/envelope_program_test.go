package rpc

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/schema"
)

// TestTheEnvelopeProgramIsWhatTheRuntimeCompiles pins that envprogram
// compiles the envelopes as a SchemaSet does: its committed program equals
// the one made from the set's compiled schemas now.
func TestTheEnvelopeProgramIsWhatTheRuntimeCompiles(t *testing.T) {
	base := schema.BaseURL + "jsonrpc/"
	set, err := NewSchemaSetFS(schema.FS, "jsonrpc", base)
	require.NoError(t, err)
	locs := make([]string, len(envelopeFiles))
	for i, f := range envelopeFiles {
		locs[i] = base + f
	}
	want, err := set.Program(locs...)
	require.NoError(t, err)
	require.Equal(t, want, envelopeProgram, "run go generate ./rpc")
	env := envelopeSchemas()
	for _, s := range []*Schema{env.request, env.notification, env.response, env.errorResponse} {
		require.GreaterOrEqual(t, s.root, 0, "%s is in the program", s.location)
		require.NotNil(t, s.set.program(s.root), "the program reads")
	}
}
