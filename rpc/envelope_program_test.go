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

// TestTheEnvelopeSetNamesEveryEnvelopeDocument pins that the envelope
// schemas, whose set is made from the generated list of documents rather
// than by listing schema/jsonrpc, name every document there, and that each
// envelope compiles from them, as explaining a failed message needs.
func TestTheEnvelopeSetNamesEveryEnvelopeDocument(t *testing.T) {
	listed, err := NewSchemaSetFS(schema.FS, "jsonrpc", schema.BaseURL+"jsonrpc/")
	require.NoError(t, err)
	env := envelopeSchemas()
	require.Equal(t, listed.URLs(), env.request.set.URLs(), "run go generate ./rpc")
	for _, s := range []*Schema{env.request, env.notification, env.response, env.errorResponse} {
		_, err := s.compiled()
		require.NoError(t, err, s.location)
	}
}
