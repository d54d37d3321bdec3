package inspect

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp"
)

func TestCheckOutputPointsIntoTheStructuredContent(t *testing.T) {
	yes := true
	schema := json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n"]}`)
	tests := []struct {
		name     string
		schema   json.RawMessage
		res      mcp.CallToolResult
		pointers []string
		reason   string
	}{
		{"no output schema", nil, mcp.CallToolResult{StructuredContent: json.RawMessage(`{"n":"x"}`)}, nil, ""},
		{"valid", schema, mcp.CallToolResult{StructuredContent: json.RawMessage(`{"n":1}`)}, nil, ""},
		{"two violations", schema, mcp.CallToolResult{StructuredContent: json.RawMessage(`{"n":"x","s":2}`)}, []string{"/structuredContent/n", "/structuredContent/s"}, "not integer"},
		{"a missing member", schema, mcp.CallToolResult{StructuredContent: json.RawMessage(`{}`)}, []string{"/structuredContent"}, "missing required member"},
		{"no structured content", schema, mcp.CallToolResult{}, []string{""}, "no structuredContent"},
		{"a tool error needs none", schema, mcp.CallToolResult{IsError: &yes}, nil, ""},
		{"a schema that does not compile", json.RawMessage(`{"type":5}`), mcp.CallToolResult{StructuredContent: json.RawMessage(`{}`)}, []string{""}, "does not compile"},
		{"content that is not JSON", schema, mcp.CallToolResult{StructuredContent: json.RawMessage(`{`)}, []string{"/structuredContent"}, "malformed JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := checkOutput(tt.schema, &tt.res)
			var pointers []string
			for _, f := range fs {
				pointers = append(pointers, f.Pointer)
			}
			assert.Equal(t, tt.pointers, pointers)
			if tt.reason != "" {
				assert.Contains(t, fs[0].Reason, tt.reason)
			}
		})
	}
}
