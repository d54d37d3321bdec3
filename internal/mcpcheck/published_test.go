package mcpcheck_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// spec writes a fake spec directory holding one version's schema.json.
func spec(t *testing.T, version, content string) string {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, version), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, version, "schema.json"), []byte(content), 0o644))
	return dir
}

const fakeSchema = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$defs": {
    "ClientRequest": {"anyOf": [{"$ref": "#/$defs/EchoRequest"}], "properties": {"method": {"const": "echo"}}},
    "EchoRequest": {"type": "object", "properties": {"method": {"const": "echo"}, "params": {"type": "object"}}},
    "EchoResult": {"type": "object", "required": ["text"]},
    "PingRequest": {"type": "object", "properties": {"method": {"const": "ping"}}},
    "EmptyResult": {"type": "object"},
    "Odd/Name": {"type": "string"}
  }
}`

func TestLoadPublishedReportsBadFiles(t *testing.T) {
	cases := []struct {
		name, content, want string
	}{
		{"not JSON", `{`, "schema.json"},
		{"not an object", `[]`, "is not a JSON object"},
		{"no definitions", `{"$schema": "http://json-schema.org/draft-07/schema#"}`, "neither $defs nor definitions"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := mcpcheck.LoadPublished(spec(t, "2025-11-25", tc.content), "2025-11-25")
			require.ErrorContains(t, err, tc.want)
		})
	}
	t.Run("a missing version", func(t *testing.T) {
		_, err := mcpcheck.LoadPublished(t.TempDir(), "2025-11-25")
		require.ErrorContains(t, err, "schema.json")
	})
}

func TestPublishedDerivesMessagesAndResults(t *testing.T) {
	p, err := mcpcheck.LoadPublished(spec(t, "2025-11-25", fakeSchema), "2025-11-25")
	require.NoError(t, err)

	def, ok := p.MessageDef("echo")
	assert.True(t, ok)
	assert.Equal(t, "EchoRequest", def, "union definitions are not messages")
	_, ok = p.MessageDef("nope")
	assert.False(t, ok)

	assert.Equal(t, []string{"EchoResult"}, p.ResultDefs("echo"), "FooRequest → FooResult")
	assert.Equal(t, []string{"EmptyResult"}, p.ResultDefs("ping"), "ping answers EmptyResult")
	assert.Empty(t, p.ResultDefs("nope"))

	sch, err := p.Def("EchoResult")
	require.NoError(t, err)
	assert.Error(t, sch.Validate(map[string]any{}))
	again, err := p.Def("EchoResult")
	require.NoError(t, err)
	assert.Same(t, sch, again, "compiled definitions are cached")

	_, err = p.Def("Odd/Name")
	assert.NoError(t, err, "names are escaped in the pointer")
	_, err = p.Def("Missing")
	assert.ErrorContains(t, err, "has no definition Missing")
}

func TestPublishedResultsIncludeTheTaskAlternativeWhereItExists(t *testing.T) {
	dir, err := mcpcheck.FindSpecDir()
	if err != nil {
		t.Skipf("the published MCP schemas are not available: %v", err)
	}
	cases := map[string][]string{
		"2024-11-05": {"CallToolResult"},
		"2025-11-25": {"CallToolResult", "CreateTaskResult"},
	}
	for version, want := range cases {
		p, err := mcpcheck.LoadPublished(dir, version)
		require.NoError(t, err)
		assert.Equal(t, want, p.ResultDefs("tools/call"), version)
	}
}

func TestOurSchemaIndexesEveryMethod(t *testing.T) {
	o, err := mcpcheck.LoadOurs()
	require.NoError(t, err)
	assert.Len(t, o.Methods(), 31)
	m, ok := o.Method("tools/call")
	require.True(t, ok)
	assert.Equal(t, "client-to-server", m.Direction)
	assert.Contains(t, m.Result, "tools.json#/$defs/CallToolOutcome")
	n, ok := o.Method("notifications/progress")
	require.True(t, ok)
	assert.True(t, n.Notification)
	assert.Equal(t, "both", n.Direction)
	assert.Empty(t, n.Result)
	assert.True(t, o.HasDef("ContentBlock"))
	_, err = o.Def("NoSuchThing")
	assert.ErrorContains(t, err, "no definition NoSuchThing")
	assert.Contains(t, o.Defs(), "Task")
}
