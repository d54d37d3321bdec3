package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/validate"
)

// TestTranscriptRecordsKeepTheSessionAndHeaderAsTheyCame: whatever a
// session id or an MCP-Protocol-Version header holds, its record is JSON
// that reads back to it.
func TestTranscriptRecordsKeepTheSessionAndHeaderAsTheyCame(t *testing.T) {
	set, err := validate.Open(validate.EnvelopeSet)
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "t.jsonl")
	m, err := openMonitor(proxyConfig{format: "text", transcript: path, maxMessage: validate.DefaultMaxMessage}, set, io.Discard)
	require.NoError(t, err)
	session, version := "s\"<1>&\n\\", "2025-06-18\"\u2028\x01"
	m.check(set.NewChecker(), []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), validate.FromClient, session, version)
	_, err = m.close()
	require.NoError(t, err)

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var items []validate.Item
	require.NoError(t, validate.Read(f, path, validate.JSONLines, 0, func(it validate.Item) error {
		items = append(items, it)
		return nil
	}))
	require.Len(t, items, 1)
	assert.Empty(t, items[0].Broken)
	assert.Equal(t, session, items[0].Session)
	assert.Equal(t, version, items[0].ProtocolVersion)
	assert.Equal(t, validate.FromClient, items[0].From)
}
