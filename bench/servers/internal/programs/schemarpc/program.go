// Package schemarpc is the benchmark server built with this project's mcp
// package.
package schemarpc

import (
	"context"
	"io"
	"net/http"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/ours"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// Program serves the surface with this project's mcp package and its
// default options (every message validated) but one: over HTTP a result
// is answered as application/json (HTTPOptions.JSONResponse), as mcp-go
// answers, rather than as a one-event SSE stream. One HTTP endpoint serves
// both eras, so the stateless flag changes nothing. On stdio it is what
// Server.ServeStdio does, over the given streams.
var Program = serve.Program{
	Name: "schemarpc",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return ours.New(serve.Logger()).Serve(ctx, rpc.NewStreamTransport(in, out))
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		h := mcp.NewStreamableHTTPHandler(ours.New(serve.Logger()), &mcp.HTTPOptions{JSONResponse: true})
		return h, func() { h.Close() }
	},
}
