package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"

	"github.com/schemarpc/schemarpc/mcpredis/internal/redisproc"
	"github.com/schemarpc/schemarpc/mcpredis/internal/roundrobin"
)

// run starts the cluster as args say, serves the proxy until ctx ends, then stops
// everything it started.
func run(ctx context.Context, args []string, stderr io.Writer) error {
	c, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	log := &lineLog{out: stderr}
	logger := slog.New(slog.NewTextHandler(log.writer("mcpcluster: "), &slog.HandlerOptions{Level: c.LogLevel}))

	redisURL := c.redisURL
	if redisURL == "" {
		dir, err := os.MkdirTemp("", "mcpcluster-redis-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		rs, err := redisproc.Start(ctx, c.redisServer, dir)
		if err != nil {
			return err
		}
		defer rs.Stop()
		redisURL = rs.URL()
		logger.Info("started redis-server", "addr", rs.Addr)
	}

	l, err := net.Listen("tcp", c.HTTPAddr)
	if err != nil {
		return err
	}
	defer l.Close()

	replicas, err := startReplicas(ctx, c, redisURL, log)
	defer stopAll(replicas)
	if err != nil {
		return err
	}
	backends := make([]*url.URL, len(replicas))
	for i, r := range replicas {
		backends[i], _ = url.Parse(r.url())
		go func() {
			<-r.done
			if ctx.Err() == nil {
				logger.Warn("a replica exited; the proxy skips it", "replica", r.n, "addr", r.addr, "exit", r.err)
			}
		}()
	}
	b, err := roundrobin.New(backends, &roundrobin.Options{Logger: logger})
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: b, ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(l) }()
	logger.Info("serving the cluster", "url", "http://"+l.Addr().String()+"/mcp", "replicas", len(replicas), "redis", redisURL)

	select {
	case <-ctx.Done():
		_ = srv.Close() // open SSE streams end with it
		logger.Info("stopping")
		return nil
	case err := <-served:
		return err
	}
}

// startReplicas starts c.replicas replicas on redisURL, one after the other so that each
// finds a port of its own, all with one new key for the 2026-07-28 request state; on a
// failure it returns those started with the error.
func startReplicas(ctx context.Context, c config, redisURL string, log *lineLog) ([]*replica, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	args := append([]string{"-redis", redisURL, "-prefix", c.prefix, "-state-key", hex.EncodeToString(key)}, c.forward...)
	var replicas []*replica
	for n := range c.replicas {
		r, err := startReplica(ctx, n, c.replica, args, log)
		if err != nil {
			return replicas, err
		}
		replicas = append(replicas, r)
	}
	return replicas, nil
}

// stopAll stops the replicas at once and returns when all are gone.
func stopAll(replicas []*replica) {
	var wg sync.WaitGroup
	for _, r := range replicas {
		wg.Go(r.stop)
	}
	wg.Wait()
}
