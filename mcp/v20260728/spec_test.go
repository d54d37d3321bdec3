package v20260728_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// published loads the published 2026-07-28 schema.json, or skips the test
// when ../shared/mcp-spec (relative to the repository root) is absent.
func published(t *testing.T) (*mcpcheck.Published, string) {
	t.Helper()
	dir, err := mcpcheck.FindSpecDir()
	if errors.Is(err, mcpcheck.ErrNoSpec) {
		t.Skip("../shared/mcp-spec not found above the working directory: the published MCP schemas are not available, so the differential checks are skipped")
	}
	require.NoError(t, err)
	p, err := mcpcheck.LoadPublished(dir, mcpcheck.StatelessVersion)
	require.NoError(t, err)
	return p, dir
}

// examplesDir is where the published example corpus lives.
func examplesDir(specDir string) string {
	return filepath.Join(specDir, mcpcheck.StatelessVersion, "examples")
}

// ours loads our 2026-07-28 MCP schema.
func ours(t *testing.T) *mcpcheck.Ours {
	t.Helper()
	o, err := mcpcheck.LoadOursFor(mcpcheck.StatelessVersion)
	require.NoError(t, err)
	return o
}
