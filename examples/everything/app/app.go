// Package app is the everything server, the MCP server the official conformance suites
// and the interop tests drive, as a package: the everything command is a thin main over
// it, and other commands serve the same server differently (mcpredis/cmd/everything-redis
// runs it as one replica of many, with its sessions, broker and events on Redis).
package app

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// Config is what the everything command line says.
type Config struct {
	// HTTPAddr serves Streamable HTTP at http://HTTPAddr/mcp; empty means stdio.
	HTTPAddr string
	// PageSize is the number of items per page of the list results; 0 means the
	// server's default.
	PageSize int
	// WatchInterval is how often test://watched-resource changes; 0 means never.
	WatchInterval time.Duration
	// DynamicAfter is when test_dynamic_tool appears after the start; 0 means never.
	DynamicAfter time.Duration
	// LogLevel is the level of the logs written to stderr.
	LogLevel slog.Level
}

// RegisterFlags defines the everything flags on fs, each storing into c, with the
// command's defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.HTTPAddr, "http", "", "serve Streamable HTTP at http://ADDR/mcp instead of stdio, e.g. 127.0.0.1:3001")
	fs.IntVar(&c.PageSize, "page-size", 0, "items per page of the list results (0: the server's default)")
	fs.DurationVar(&c.WatchInterval, "watch-interval", 3*time.Second, "how often test://watched-resource changes (0: never)")
	fs.DurationVar(&c.DynamicAfter, "dynamic-after", 2*time.Second, "when test_dynamic_tool appears (0: never)")
	fs.TextVar(&c.LogLevel, "log-level", slog.LevelInfo, "level of the logs written to stderr")
}

// ParseFlags reads the everything command line (without the program name); usage and
// flag errors are written to stderr. Arguments after the flags are an error.
func ParseFlags(args []string, stderr io.Writer) (Config, error) {
	var c Config
	fs := flag.NewFlagSet("everything", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	return c, nil
}

// Option changes how Run serves.
type Option func(*runOptions)

type runOptions struct {
	http   []func(*mcp.HTTPOptions)
	server []func(*mcp.ServerOptions)
}

// WithHTTPOptions lets adjust change the options of the Streamable HTTP handler before
// it is made (a replica sets the shared Sessions, Broker, EventStore and Tasks there).
// It has no effect on stdio.
func WithHTTPOptions(adjust func(*mcp.HTTPOptions)) Option {
	return func(o *runOptions) { o.http = append(o.http, adjust) }
}

// WithServerOptions lets adjust change the server's options before it is made (replicas
// behind one load balancer share ServerOptions.StateKey there, so that any of them opens
// the request state another sealed).
func WithServerOptions(adjust func(*mcp.ServerOptions)) Option {
	return func(o *runOptions) { o.server = append(o.server, adjust) }
}

// Run serves the everything server as c says, logging to stderr, until ctx ends (then it
// returns nil) or serving fails.
func Run(ctx context.Context, c Config, stderr io.Writer, opts ...Option) error {
	var o runOptions
	for _, opt := range opts {
		opt(&o)
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: c.LogLevel}))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	w := &watched{}
	s, err := newServer(logger, c.PageSize, w, o.server...)
	if err != nil {
		return err
	}
	if c.WatchInterval > 0 {
		go w.run(ctx, s, c.WatchInterval)
	}
	if c.DynamicAfter > 0 {
		go addDynamicToolAfter(ctx, s, c.DynamicAfter, logger)
	}
	if c.HTTPAddr == "" {
		logger.Info("serving on stdio")
		err = s.ServeStdio(ctx)
	} else {
		err = serveHTTP(ctx, s, c.HTTPAddr, logger, o.http)
	}
	if ctx.Err() != nil {
		return nil // stopped by the caller
	}
	return err
}
