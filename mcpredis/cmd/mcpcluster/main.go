// Command mcpcluster runs the everything server as a cluster on one machine: several
// everything-redis replicas on free ports of 127.0.0.1, sharing one Redis, behind a
// round-robin reverse proxy at -http ADDR /mcp that sends each request to the next
// replica, with no affinity. It takes the everything flags, so that whatever drives one
// everything process (the conformance suites, with -binary) drives the cluster the same
// way: -http is the proxy's address and the other everything flags go to every replica.
// Its own flags:
//
//	-replicas N         how many replicas (default 3)
//	-replica PATH       the everything-redis binary (default: everything-redis beside this one)
//	-redis URL          a Redis to use (default: start a redis-server of its own on a free port)
//	-redis-server PATH  the redis-server to start (default: redis-server on PATH)
//	-prefix P           the replicas' key prefix (default "everything:")
//
// On SIGINT or SIGTERM it stops the proxy, the replicas and its redis-server, and exits 0.
//
//	go build -o bin/ ./cmd/everything-redis ./cmd/mcpcluster   # in mcpredis/
//	bin/mcpcluster -http 127.0.0.1:3001
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mcpcluster:", err)
		os.Exit(1)
	}
}
