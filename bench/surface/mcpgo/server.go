// Package mcpgo builds the benchmark surface with mcp-go
// (github.com/mark3labs/mcp-go): tools declared with its builder options and
// handlers that read their arguments with RequireString and RequireFloat.
// Its optional input and output validation stays off, its default.
package mcpgo

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/schemarpc/schemarpc/bench/surface"
)

// New returns a server with the tools echo and add.
func New() *server.MCPServer {
	s := server.NewMCPServer(surface.Name, surface.Version, server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool(surface.EchoTool,
		mcp.WithDescription(surface.EchoDescription),
		mcp.WithString("text", mcp.Required()),
	), echo)
	s.AddTool(mcp.NewTool(surface.AddTool,
		mcp.WithDescription(surface.AddDescription),
		mcp.WithNumber("a", mcp.Required()),
		mcp.WithNumber("b", mcp.Required()),
		mcp.WithRawOutputSchema(json.RawMessage(surface.AddOutputSchema)),
	), add)
	return s
}

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(text), nil
}

func add(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := req.RequireFloat("a")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	b, err := req.RequireFloat("b")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	sum := a + b
	return mcp.NewToolResultStructured(surface.AddOut{Sum: sum}, surface.FormatSum(sum)), nil
}
