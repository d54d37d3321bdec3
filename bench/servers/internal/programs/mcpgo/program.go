// Package mcpgo is the benchmark server built with
// github.com/mark3labs/mcp-go.
package mcpgo

import (
	"context"
	"io"
	"net/http"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
)

// Program serves the surface with mcp-go and its default options (no
// schema validation); it picks the era per request, so the stateless flag
// changes nothing.
var Program = serve.Program{
	Name: "mcpgo",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpgoserver.NewStdioServer(mcpgo.New()).Listen(ctx, in, out)
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		h := mcpgoserver.NewStreamableHTTPServer(mcpgo.New(), mcpgoserver.WithStreamableHTTPLogger(serve.Logger()))
		return h, func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			h.Shutdown(ctx)
		}
	},
}
