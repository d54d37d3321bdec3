// Package ours builds the benchmark surface with this project's mcp
// package: typed tools through mcp.AddTool, every message validated (the
// default).
package ours

import (
	"context"
	"encoding/json"
	"log/slog"

	"github.com/schemarpc/schemarpc/bench/surface"
	"github.com/schemarpc/schemarpc/mcp"
)

// New returns a server with the tools echo and add. logger may be nil (no
// logs).
func New(logger *slog.Logger) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: surface.Name, Version: surface.Version}, &mcp.ServerOptions{Logger: logger})
	must(mcp.AddTool(s, &mcp.Tool{
		Name:        surface.EchoTool,
		Description: surface.EchoDescription,
		InputSchema: json.RawMessage(surface.EchoInputSchema),
	}, echo))
	must(mcp.AddTool(s, &mcp.Tool{
		Name:         surface.AddTool,
		Description:  surface.AddDescription,
		InputSchema:  json.RawMessage(surface.AddInputSchema),
		OutputSchema: json.RawMessage(surface.AddOutputSchema),
	}, add))
	return s
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in surface.EchoIn) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil, nil
}

func add(_ context.Context, _ *mcp.CallToolRequest, in surface.AddIn) (*mcp.CallToolResult, surface.AddOut, error) {
	sum := in.A + in.B
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(surface.FormatSum(sum))}}, surface.AddOut{Sum: sum}, nil
}

// must stops on a registration error, which only a broken constant schema
// could cause.
func must(err error) {
	if err != nil {
		panic(err)
	}
}
