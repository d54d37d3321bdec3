package inproc_test

import (
	"context"
	"io"

	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/schemarpc/schemarpc/bench/surface/gosdk"
	"github.com/schemarpc/schemarpc/bench/surface/limit"
	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
	"github.com/schemarpc/schemarpc/bench/surface/ours"
	"github.com/schemarpc/schemarpc/rpc"
)

// stdioServer serves one session of a library's own stdio server, reading
// requests from in and writing responses to out, until ctx ends or in
// closes.
type stdioServer func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error

// servers are the servers measured, each through its own stdio path. mcp-go
// keeps its stdio session in a package variable: its sessions must not
// overlap, so every test and benchmark here runs them one at a time.
var servers = []struct {
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
	{"limit", func(_ context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return limit.Serve(in, out)
	}},
}
