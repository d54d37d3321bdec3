package mcpcheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

func TestOurSchemaOfEveryVersionLoads(t *testing.T) {
	want := map[string]int{"2024-11-05": 24, "2025-03-26": 24, "2025-06-18": 25, "2025-11-25": 31, "2026-07-28": 18}
	require.Len(t, want, len(mcpcheck.Versions))
	for _, v := range mcpcheck.Versions {
		o, err := mcpcheck.LoadOursFor(v)
		require.NoError(t, err, v)
		assert.Equal(t, v, o.Version())
		assert.Len(t, o.Methods(), want[v], v)
	}
	_, err := mcpcheck.LoadOursFor("2023-01-01")
	assert.ErrorContains(t, err, "no methods in mcp/2023-01-01/index.json")
}

func TestOlderSessionsAreCheckedAgainstOurSchemaOfTheirVersion(t *testing.T) {
	t.Chdir(t.TempDir()) // no published schemas: what is reported comes from ours
	cases := []struct {
		name, version, result, want string
	}{
		{"audio content did not exist in 2024-11-05", "2024-11-05",
			`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`, "against our tools.json#/$defs/CallToolResult"},
		{"text content did", "2024-11-05",
			`{"content":[{"type":"text","text":"hi"}]}`, ""},
		{"resource links did not exist in 2025-03-26", "2025-03-26",
			`{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}`, "against our tools.json#/$defs/CallToolResult"},
		{"audio content did", "2025-03-26",
			`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`, ""},
		{"tool use blocks did not exist in 2025-06-18", "2025-06-18",
			`{"content":[{"type":"tool_use","id":"u","name":"n","input":{}}]}`, "against our tools.json#/$defs/CallToolResult"},
		{"a task did not answer tools/call before 2025-11-25", "2025-06-18",
			`{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","ttl":null}}`, "against our tools.json#/$defs/CallToolResult"},
		{"structured content exists in 2025-06-18", "2025-06-18",
			`{"content":[],"structuredContent":{"a":1}}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpcheck.New(tc.version)
			require.NoError(t, err)
			require.False(t, c.Published())
			require.NoError(t, c.Check(c2s, []byte(toolCall)))
			err = c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":`+tc.result+`}`))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestAMethodMissingFromTheSessionVersionIsReportedWithItsHistory(t *testing.T) {
	t.Chdir(t.TempDir())
	cases := []struct {
		version string
		dir     mcpcheck.Direction
		msg     string
		want    string
	}{
		{"2025-03-26", s2c, `{"jsonrpc":"2.0","id":1,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}`, `request "elicitation/create" does not exist in protocol version 2025-03-26 (it appeared in 2025-06-18)`},
		{"2024-11-05", s2c, `{"jsonrpc":"2.0","method":"notifications/elicitation/complete","params":{"elicitationId":"e"}}`, `notification "notifications/elicitation/complete" does not exist in protocol version 2024-11-05 (it appeared in 2025-11-25)`},
		{"2025-11-25", c2s, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`, `request "server/discover" does not exist in protocol version 2025-11-25 (it appeared in 2026-07-28)`},
		{"2026-07-28", c2s, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"info"}}`, `request "logging/setLevel" is not an MCP method in 2026-07-28 (the last version that had it is 2025-11-25)`},
		{"2024-11-05", c2s, `{"jsonrpc":"2.0","id":1,"method":"tools/frobnicate"}`, `request "tools/frobnicate" is not an MCP method`},
	}
	for _, tc := range cases {
		t.Run(tc.version+" "+tc.want, func(t *testing.T) {
			c, err := mcpcheck.New(tc.version)
			require.NoError(t, err)
			require.ErrorContains(t, c.Check(tc.dir, []byte(tc.msg)), tc.want)
		})
	}
}
