// Command everything is an MCP server that offers every tool, resource, prompt and
// behaviour the official MCP conformance suite's server scenarios name, so that the suite
// and other tools can drive it. It also serves the interop tests in conformance/. The
// server itself is package app, which mcpredis/cmd/everything-redis also serves.
//
// By default it serves one session on stdin and stdout. With -http ADDR it serves
// Streamable HTTP at http://ADDR/mcp instead. Logs go to stderr only.
//
//	everything                      # stdio
//	everything -http 127.0.0.1:3001 # Streamable HTTP at http://127.0.0.1:3001/mcp
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/schemarpc/schemarpc/examples/everything/app"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
}

// run serves as args say until SIGINT or SIGTERM.
func run(args []string, stderr io.Writer) error {
	c, err := app.ParseFlags(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return app.Run(ctx, c, stderr)
}
