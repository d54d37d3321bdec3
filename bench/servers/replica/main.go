// Command replica serves the benchmark surface over Streamable HTTP as
// schemarpc does, as one replica of several behind a load balancer: with
// -redis URL, its handshake-era sessions, its broker, its SSE events and its tasks
// are on that Redis (package mcpredis), shared with every replica started
// with the same URL and -prefix; without, they are in memory, which is one
// process serving alone. The scale-out measurement (cmd/scaleload) starts
// it; logs go to stderr.
//
//	replica -http 127.0.0.1:3001 -redis redis://127.0.0.1:6379/0
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
	"github.com/schemarpc/schemarpc/bench/surface/ours"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		os.Exit(1)
	}
}

// redisTimeout bounds the first contact with Redis.
const redisTimeout = 5 * time.Second

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("replica", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("http", "", "serve Streamable HTTP at http://ADDR"+serve.Path+" (required), e.g. 127.0.0.1:3001")
	redisURL := fs.String("redis", "", "share sessions, broker and events through the Redis at this URL, e.g. redis://127.0.0.1:6379/0 (empty: in memory)")
	prefix := fs.String("prefix", "mcpload:", "the Redis key prefix; replicas of one server use the same")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *addr == "" || fs.NArg() > 0 {
		return fmt.Errorf("usage: replica -http ADDR [-redis URL] [-prefix P]")
	}
	opts := &mcp.HTTPOptions{JSONResponse: true}
	if *redisURL != "" {
		ro, err := redis.ParseURL(*redisURL)
		if err != nil {
			return fmt.Errorf("-redis: %w", err)
		}
		rdb := redis.NewClient(ro)
		defer rdb.Close()
		pctx, cancel := context.WithTimeout(ctx, redisTimeout)
		err = rdb.Ping(pctx).Err()
		cancel()
		if err != nil {
			return fmt.Errorf("redis at %s does not answer: %w", ro.Addr, err)
		}
		st := mcpredis.New(rdb, mcpredis.Options{Prefix: *prefix})
		opts.Sessions, opts.Broker, opts.EventStore, opts.Tasks = st.Sessions(), st.Broker(), st.Events(), st.Tasks()
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	program := serve.Program{Name: "replica", HTTP: func(serve.Flags) (http.Handler, func()) {
		h := mcp.NewStreamableHTTPHandler(ours.New(serve.Logger()), opts)
		return h, func() { h.Close() }
	}}
	err = serve.ServeHTTP(ctx, ln, program, serve.Flags{HTTP: *addr})
	if ctx.Err() != nil {
		return nil
	}
	return err
}
