package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A 2026-07-28 result's _meta carries the server's identity beside what
// the handler put there, and keeps an identity the handler chose.
func TestStatelessResultMetaGetsTheServerInfo(t *testing.T) {
	for name, tc := range map[string]struct {
		meta mcp.Meta
		want string
	}{
		"none": {nil, `{"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1"}}`},
		"own members": {mcp.Meta{"a": json.RawMessage(`1`), "b": json.RawMessage(`{"c":[2]}`)},
			`{"a":1,"b":{"c":[2]},"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1"}}`},
		"its own identity": {mcp.Meta{"a": json.RawMessage(`1`), "io.modelcontextprotocol/serverInfo": json.RawMessage(`{"name":"proxy","version":"9"}`)},
			`{"a":1,"io.modelcontextprotocol/serverInfo":{"name":"proxy","version":"9"}}`},
	} {
		t.Run(name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "m", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Meta: tc.meta, Content: []mcp.ContentBlock{mcp.Text("ok")}}, nil
				}))
			c := dialStateless(t, s)
			raw, rerr := c.call(t, "tools/call", statelessParams(map[string]any{"name": "m", "arguments": map[string]any{}}, "", nil))
			require.Nil(t, rerr)
			var res struct {
				ResultType string          `json:"resultType"`
				Meta       json.RawMessage `json:"_meta"`
			}
			require.NoError(t, json.Unmarshal(raw, &res))
			assert.Equal(t, "complete", res.ResultType)
			assert.JSONEq(t, tc.want, string(res.Meta))
		})
	}
}
