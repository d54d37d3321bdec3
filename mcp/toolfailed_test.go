package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
)

func TestToolFailedReadsIsErrorInEveryFormOfAResult(t *testing.T) {
	yes, no := true, false
	type eraResult struct{ IsError bool }
	type wrapped struct{ Result *eraResult }
	tests := []struct {
		name string
		res  any
		want bool
	}{
		{"nil", nil, false},
		{"raw JSON with isError true", json.RawMessage(`{"content":[],"isError":true}`), true},
		{"raw JSON with isError false", json.RawMessage(`{"content":[],"isError":false}`), false},
		{"raw JSON without isError", json.RawMessage(`{"content":[]}`), false},
		{"a result pointer", &mcp.CallToolResult{IsError: &yes}, true},
		{"a result pointer that succeeded", &mcp.CallToolResult{IsError: &no}, false},
		{"a nil result pointer", (*mcp.CallToolResult)(nil), false},
		{"a result value", mcp.CallToolResult{IsError: &yes}, true},
		{"an outcome", &mcp.CallToolOutcome{Value: mcp.ToolError("boom")}, true},
		{"an outcome that succeeded", &mcp.CallToolOutcome{Value: mcp.CallToolResult{}}, false},
		{"a stateless outcome carrying raw JSON", &v20260728.CallToolOutcome{Value: &v20260728.UnknownCallToolOutcome{Raw: json.RawMessage(`{"isError":true}`)}}, true},
		{"a stateless outcome carrying raw JSON that succeeded", &v20260728.CallToolOutcome{Value: v20260728.UnknownCallToolOutcome{Raw: json.RawMessage(`{"content":[]}`)}}, false},
		{"a stateless outcome carrying a result", &v20260728.CallToolOutcome{Value: v20260728.CallToolResult{IsError: &yes}}, true},
		{"a nil stateless outcome", (*v20260728.CallToolOutcome)(nil), false},
		{"an era's own result", &eraResult{IsError: true}, true},
		{"an era's own result, wrapped", wrapped{Result: &eraResult{IsError: true}}, true},
		{"something else", "isError", false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, mcp.ToolFailed(tt.res), tt.name)
	}
}
