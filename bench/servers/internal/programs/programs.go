// Package programs defines the four benchmark servers as serve.Programs, so
// that their commands stay one line and tests can serve each exactly as
// its command does.
package programs

import (
	"context"
	"io"
	"net/http"
	"time"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/gosdk"
	"github.com/schemarpc/schemarpc/bench/surface/limit"
	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
	"github.com/schemarpc/schemarpc/bench/surface/ours"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// SchemaRPC serves the surface with this project's mcp package and its
// default options (every message validated) but one: over HTTP a result
// is answered as application/json (HTTPOptions.JSONResponse), as mcp-go
// answers, rather than as a one-event SSE stream. One HTTP endpoint serves
// both eras, so the stateless flag changes nothing. On stdio it is what
// Server.ServeStdio does, over the given streams.
var SchemaRPC = serve.Program{
	Name: "schemarpc",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return ours.New(serve.Logger()).Serve(ctx, rpc.NewStreamTransport(in, out))
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		h := mcp.NewStreamableHTTPHandler(ours.New(serve.Logger()), &mcp.HTTPOptions{JSONResponse: true})
		return h, func() { h.Close() }
	},
}

// GoSDK serves the surface with the official Go SDK and its default
// options, except that the stateless flag sets
// StreamableHTTPOptions.Stateless, without which the SDK refuses
// 2026-07-28 requests over HTTP.
//
// On stdio it uses IOTransport, which StdioTransport is over os.Stdin and
// os.Stdout.
var GoSDK = serve.Program{
	Name: "gosdk",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return gosdk.New(serve.Logger()).Run(ctx, &gosdkmcp.IOTransport{Reader: in, Writer: out})
	},
	HTTP: func(f serve.Flags) (http.Handler, func()) {
		s := gosdk.New(serve.Logger())
		h := gosdkmcp.NewStreamableHTTPHandler(func(*http.Request) *gosdkmcp.Server { return s }, &gosdkmcp.StreamableHTTPOptions{
			Stateless: f.Stateless,
			Logger:    serve.Logger(),
		})
		return h, nil
	},
}

// MCPGo serves the surface with mcp-go and its default options (no schema
// validation); it picks the era per request, so the stateless flag changes
// nothing.
var MCPGo = serve.Program{
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

// Limit serves the surface with no library: package surface/limit's byte
// scanning and prebuilt replies. The stateless flag changes nothing.
var Limit = serve.Program{
	Name: "limit",
	Stdio: func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		errc := make(chan error, 1)
		go func() { errc <- limit.Serve(in, out) }()
		select {
		case err := <-errc:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	},
	HTTP: func(serve.Flags) (http.Handler, func()) {
		return &limit.Handler{}, nil
	},
}

// All lists the four programs.
var All = []serve.Program{SchemaRPC, GoSDK, MCPGo, Limit}
