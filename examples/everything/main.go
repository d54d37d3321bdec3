// Command everything is an MCP server that offers every tool, resource, prompt and
// behaviour the official MCP conformance suite's server scenarios name, so that the suite
// and other tools can drive it. It also serves the interop tests in conformance/.
//
// By default it serves one session on stdin and stdout. With -http ADDR it serves
// Streamable HTTP at http://ADDR/mcp instead. Logs go to stderr only.
//
//	everything                      # stdio
//	everything -http 127.0.0.1:3001 # Streamable HTTP at http://127.0.0.1:3001/mcp
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "everything:", err)
		os.Exit(1)
	}
}

// config is what the command line says.
type config struct {
	httpAddr      string
	pageSize      int
	watchInterval time.Duration
	dynamicAfter  time.Duration
	logLevel      slog.Level
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("everything", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.httpAddr, "http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:3001")
	fs.IntVar(&c.pageSize, "page-size", 0, "items per page of the list results (0: the server's default)")
	fs.DurationVar(&c.watchInterval, "watch-interval", 3*time.Second, "how often test://watched-resource changes (0: never)")
	fs.DurationVar(&c.dynamicAfter, "dynamic-after", 2*time.Second, "when test_dynamic_tool appears (0: never)")
	fs.TextVar(&c.logLevel, "log-level", slog.LevelInfo, "level of the logs written to stderr")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return c, nil
}

func run(args []string, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.logLevel}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	w := &watched{}
	s, err := newServer(logger, c.pageSize, w)
	if err != nil {
		return err
	}
	if c.watchInterval > 0 {
		go w.run(ctx, s, c.watchInterval)
	}
	if c.dynamicAfter > 0 {
		go addDynamicToolAfter(ctx, s, c.dynamicAfter, logger)
	}
	if c.httpAddr == "" {
		logger.Info("serving on stdio")
		err = s.ServeStdio(ctx)
	} else {
		err = serveHTTP(ctx, s, c.httpAddr, logger)
	}
	if ctx.Err() != nil {
		return nil // stopped by a signal
	}
	return err
}
