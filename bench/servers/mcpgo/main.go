// Command mcpgo serves the benchmark surface (tools echo and add) with
// github.com/mark3labs/mcp-go, its optional schema validation off (the
// default).
//
// With no flags it serves one session on stdin and stdout (its
// StdioServer); with -http ADDR, Streamable HTTP at http://ADDR/mcp with the
// default options. mcp-go picks the era per request on both transports, so
// it answers the 2025-11-25 handshake and 2026-07-28 stateless requests
// alike and -stateless changes nothing. Logs go to stderr.
package main

import (
	"context"
	"net/http"
	"os"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
)

// program is this server for serve.Main.
var program = serve.Program{
	Name: "mcpgo",
	Stdio: func(ctx context.Context) error {
		return server.NewStdioServer(mcpgo.New()).Listen(ctx, os.Stdin, os.Stdout)
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		h := server.NewStreamableHTTPServer(mcpgo.New(), server.WithStreamableHTTPLogger(serve.Logger()))
		return h, func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			h.Shutdown(ctx)
		}
	},
}

func main() { serve.Main(program) }
