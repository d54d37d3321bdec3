// Command ask is a small MCP server whose one tool, plan_trip, asks its client for
// what it needs: the user's preferences (elicitation), an idea from the client's
// language model (sampling), and it logs as it goes. The tool is written once, against
// the methods of mcp.Request, and works in both protocol eras: in a handshake session
// (2024-11-05 … 2025-11-25) the server sends the client requests and waits; with a
// stateless client (2026-07-28) each question becomes an input_required round that the
// client answers by retrying the call.
//
// By default it serves stdin and stdout; with -http ADDR, Streamable HTTP at
// http://ADDR/mcp. Logs go to stderr only.
//
//	ask                      # stdio
//	ask -http 127.0.0.1:3002 # Streamable HTTP at http://127.0.0.1:3002/mcp
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"github.com/schemarpc/schemarpc/mcp"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ask:", err)
		os.Exit(1)
	}
}

// run serves as args say until SIGINT or SIGTERM.
func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	s, err := newServer(slog.New(slog.NewTextHandler(stderr, nil)))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *addr == "" {
		err = s.ServeStdio(ctx)
	} else {
		mux := http.NewServeMux()
		mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(s, nil))
		err = mcp.ListenAndServe(ctx, *addr, mux)
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}
