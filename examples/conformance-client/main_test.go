package main

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp"
)

// environ returns a getenv over a fixed map.
func environ(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// addServer serves an MCP server with the tool add_numbers over Streamable HTTP.
func addServer(t *testing.T) string {
	t.Helper()
	type args struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "adder", Version: "1.0.0"}, nil)
	err := mcp.AddTool(s, &mcp.Tool{Name: "add_numbers", Description: "Adds two numbers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(fmt.Sprintf("The sum is %g", in.A+in.B))}}, nil, nil
		})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func TestRunPlaysTheNamedScenarioOnEitherWire(t *testing.T) {
	url := addServer(t)
	for _, version := range []string{"", "2025-11-25", "2026-07-28"} {
		var stderr strings.Builder
		code := run([]string{url}, environ(map[string]string{
			"MCP_CONFORMANCE_SCENARIO":         "tools_call",
			"MCP_CONFORMANCE_PROTOCOL_VERSION": version,
		}), &stderr)
		assert.Equal(t, 0, code, "wire %q: %s", version, stderr.String())
	}
}

func TestRunFailures(t *testing.T) {
	url := addServer(t)
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"no URL", nil, map[string]string{"MCP_CONFORMANCE_SCENARIO": "initialize"}, "usage: conformance-client SERVER-URL"},
		{"two arguments", []string{url, url}, map[string]string{"MCP_CONFORMANCE_SCENARIO": "initialize"}, "usage: conformance-client SERVER-URL"},
		{"context not JSON", []string{url}, map[string]string{"MCP_CONFORMANCE_SCENARIO": "initialize", "MCP_CONFORMANCE_CONTEXT": "{client_id"}, "MCP_CONFORMANCE_CONTEXT is not JSON"},
		{"unknown scenario", []string{url}, map[string]string{"MCP_CONFORMANCE_SCENARIO": "no-such-scenario"}, `unknown scenario "no-such-scenario"; known: [`},
		{"no scenario", []string{url}, nil, `unknown scenario ""`},
		{"scenario that fails", []string{url}, map[string]string{"MCP_CONFORMANCE_SCENARIO": "sse-retry"}, "conformance-client: sse-retry: "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr strings.Builder
			assert.Equal(t, 1, run(tt.args, environ(tt.env), &stderr))
			assert.Contains(t, stderr.String(), tt.want)
		})
	}
}
