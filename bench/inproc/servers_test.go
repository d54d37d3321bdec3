package inproc_test

import (
	"context"
	"io"

	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"

	"github.com/schemarpc/schemarpc/bench/surface/gosdk"
	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
	"github.com/schemarpc/schemarpc/bench/surface/ours"
	"github.com/schemarpc/schemarpc/rpc"
)

// stdioServer serves one session of a library's own stdio server, reading
// requests from in and writing responses to out, until ctx ends or in
// closes.
type stdioServer func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error

// libraries are the servers measured, each through its own stdio path.
var libraries = []struct {
	name  string
	serve stdioServer
}{
	{"schemarpc", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return ours.New(nil).Serve(ctx, rpc.NewStreamTransport(in, out))
	}},
	{"gosdk", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return gosdk.New(nil).Run(ctx, &gosdkmcp.IOTransport{Reader: in, Writer: out})
	}},
	{"mcpgo", func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpgoserver.NewStdioServer(mcpgo.New()).Listen(ctx, in, out)
	}},
}
