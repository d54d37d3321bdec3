// Package gosdk builds the benchmark surface with the official Go SDK
// (github.com/modelcontextprotocol/go-sdk): typed tools through its
// mcp.AddTool, which validates the arguments and the output against the
// tool's schemas, as it always does.
package gosdk

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/schemarpc/schemarpc/bench/surface"
)

// New returns a server with the tools echo and add. logger may be nil (the
// SDK's default: no logs).
func New(logger *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: surface.Name, Version: surface.Version}, &mcp.ServerOptions{Logger: logger})
	mcp.AddTool(s, &mcp.Tool{
		Name:        surface.EchoTool,
		Description: surface.EchoDescription,
		InputSchema: json.RawMessage(surface.EchoInputSchema),
	}, echo)
	mcp.AddTool(s, &mcp.Tool{
		Name:         surface.AddTool,
		Description:  surface.AddDescription,
		InputSchema:  json.RawMessage(surface.AddInputSchema),
		OutputSchema: json.RawMessage(surface.AddOutputSchema),
	}, add)
	return s
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in surface.EchoIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Text}}}, nil, nil
}

func add(_ context.Context, _ *mcp.CallToolRequest, in surface.AddIn) (*mcp.CallToolResult, surface.AddOut, error) {
	sum := in.A + in.B
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: surface.FormatSum(sum)}}}, surface.AddOut{Sum: sum}, nil
}
