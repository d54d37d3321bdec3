// Package gosdk is the benchmark server built with the official Go SDK,
// github.com/modelcontextprotocol/go-sdk.
package gosdk

import (
	"context"
	"io"
	"net/http"

	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/gosdk"
)

// Program serves the surface with the official Go SDK and its default
// options, except that the stateless flag sets
// StreamableHTTPOptions.Stateless, without which the SDK refuses
// 2026-07-28 requests over HTTP.
//
// On stdio it uses IOTransport, which StdioTransport is over os.Stdin and
// os.Stdout.
var Program = serve.Program{
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
