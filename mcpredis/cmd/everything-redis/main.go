// Command everything-redis is the everything server (examples/everything) as one replica
// of many: it keeps its handshake sessions, its messages to the other replicas, its SSE
// events and its task records on Redis, so that a load balancer may send any request of a session to any
// replica started with the same -redis and -prefix. It takes the flags of everything
// (-http is required) and
//
//	-redis URL     the Redis server, redis://[user:password@]host:port/db (default redis://127.0.0.1:6379)
//	-prefix P      the prefix of every key and channel (default "everything:")
//	-state-key HEX the AES key (16, 24 or 32 bytes, in hex) that seals 2026-07-28 request state;
//	               replicas share one so that any opens what another sealed (default: a random
//	               key of this process, which only it can open)
//
// It exits 1, with one line naming the address, when Redis does not answer at the start.
//
//	everything-redis -http 127.0.0.1:3101 -redis redis://127.0.0.1:6379/0
//
// mcpredis/cmd/mcpcluster starts several of them behind a round-robin proxy.
package main

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/examples/everything/app"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "everything-redis:", err)
		os.Exit(1)
	}
}

// pingTimeout bounds the wait for Redis to answer at the start.
const pingTimeout = 5 * time.Second

// config is what the command line says.
type config struct {
	app.Config
	redisURL string
	prefix   string
	stateKey []byte
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("everything-redis", flag.ContinueOnError)
	fs.SetOutput(stderr)
	c.RegisterFlags(fs)
	fs.StringVar(&c.redisURL, "redis", "redis://127.0.0.1:6379", "the Redis server the replicas share, redis://[user:password@]host:port/db")
	fs.StringVar(&c.prefix, "prefix", "everything:", "the prefix of every Redis key and channel; replicas of one server share it")
	fs.Func("state-key", "the AES key (16, 24 or 32 bytes, hex) that seals 2026-07-28 request state; replicas share one (default: random per process)", func(v string) error {
		key, err := hex.DecodeString(v)
		if err != nil {
			return errors.New("not hex")
		}
		if n := len(key); n != 16 && n != 24 && n != 32 {
			return fmt.Errorf("%d bytes: want 16, 24 or 32", n)
		}
		c.stateKey = key
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments: %v", fs.Args())
	}
	if c.HTTPAddr == "" {
		return c, errors.New("-http is required: a replica serves Streamable HTTP")
	}
	return c, nil
}

// run serves one replica until ctx ends.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	ropts, err := redis.ParseURL(c.redisURL)
	if err != nil {
		return fmt.Errorf("-redis %s: %w", c.redisURL, err)
	}
	rdb := redis.NewClient(ropts)
	defer rdb.Close()
	pingCtx, cancel := context.WithTimeout(ctx, pingTimeout)
	err = rdb.Ping(pingCtx).Err()
	cancel()
	if err != nil {
		return fmt.Errorf("redis at %s does not answer: %w", ropts.Addr, err)
	}
	st := mcpredis.New(rdb, mcpredis.Options{Prefix: c.prefix})
	return app.Run(ctx, c.Config, stderr,
		app.WithServerOptions(func(o *mcp.ServerOptions) { o.StateKey = c.stateKey }),
		app.WithHTTPOptions(func(o *mcp.HTTPOptions) {
			o.Sessions = st.Sessions()
			o.Broker = st.Broker()
			o.EventStore = st.Events()
			o.Tasks = st.Tasks()
		}))
}
