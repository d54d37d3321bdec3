// Command gosdk serves the benchmark surface (tools echo and add) with the
// official Go SDK, github.com/modelcontextprotocol/go-sdk, which validates
// tool arguments and output by default.
//
// With no flags it serves one session on stdin and stdout (StdioTransport),
// which answers the 2025-11-25 handshake and 2026-07-28 stateless requests.
// With -http ADDR it serves Streamable HTTP at http://ADDR/mcp with the
// default options, which answer the handshake era only: the SDK accepts
// 2026-07-28 over HTTP only on a stateless handler, so -stateless sets
// StreamableHTTPOptions.Stateless (which in turn issues no session ids).
// Logs go to stderr.
package main

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/gosdk"
)

// program is this server for serve.Main.
var program = serve.Program{
	Name: "gosdk",
	Stdio: func(ctx context.Context) error {
		return gosdk.New(serve.Logger()).Run(ctx, &mcp.StdioTransport{})
	},
	HTTP: func(f serve.Flags) (http.Handler, func()) {
		s := gosdk.New(serve.Logger())
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{
			Stateless: f.Stateless,
			Logger:    serve.Logger(),
		})
		return h, nil
	},
}

func main() { serve.Main(program) }
