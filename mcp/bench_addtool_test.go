package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
)

// searchSchema is the input schema of a typical tool: a few properties
// with descriptions, bounds and an enum.
const searchSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","description":"what to look for","minLength":1},` +
	`"limit":{"type":"integer","description":"how many results, at most","minimum":1,"maximum":100,"default":10},` +
	`"sort":{"type":"string","enum":["relevance","date","title"],"description":"the order of the results"},` +
	`"filters":{"type":"object","properties":{"lang":{"type":"string"},"after":{"type":"string","format":"date"}},"additionalProperties":false}},` +
	`"required":["query"],"additionalProperties":false}`

// BenchmarkAddTool measures registering one tool with a raw input schema
// and an output schema, what a server pays per tool at start-up.
func BenchmarkAddTool(b *testing.B) {
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	tool := &mcp.Tool{Name: "search", InputSchema: json.RawMessage(searchSchema),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"hits":{"type":"array","items":{"type":"string"}}}}`)}
	b.ReportAllocs()
	for b.Loop() {
		s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
		if err := s.AddTool(tool, h); err != nil {
			b.Fatal(err)
		}
	}
}
