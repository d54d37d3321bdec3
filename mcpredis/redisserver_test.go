package mcpredis_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcpredis/internal/redisproc"
)

// redisServer is a redis-server a test started on a free port of
// 127.0.0.1, without persistence, stopped when the test ends.
type redisServer struct {
	t    *testing.T
	addr string
	dir  string

	mu  sync.Mutex
	srv *redisproc.Server // nil while stopped
}

// startRedis starts a redis-server, or skips the test when there is none
// on PATH (fails it instead when SCHEMARPC_REQUIRE_REDIS=1, as in CI).
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("SCHEMARPC_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server is not on PATH and SCHEMARPC_REQUIRE_REDIS=1: install it (Debian: apt-get install redis-server)")
		}
		t.Skip("redis-server is not on PATH: install it (Debian: apt-get install redis-server) to run the Redis tests")
	}
	s := &redisServer{t: t, dir: t.TempDir()}
	srv, err := redisproc.Start(context.Background(), "redis-server", s.dir)
	require.NoError(t, err)
	s.srv, s.addr = srv, srv.Addr
	t.Cleanup(s.stop)
	return s
}

// stop kills the server, as a crash of Redis would, and waits for it to
// exit.
func (s *redisServer) stop() {
	s.mu.Lock()
	srv := s.srv
	s.srv = nil
	s.mu.Unlock()
	if srv != nil {
		srv.Kill()
	}
}

// restart starts the server again on the same address.
func (s *redisServer) restart() {
	s.t.Helper()
	s.stop()
	srv, err := redisproc.StartAt(context.Background(), "redis-server", s.dir, s.addr)
	require.NoError(s.t, err)
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
}

// freeAddr returns a loopback address with a port nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// client returns a client of the server, closed when the test ends.
func (s *redisServer) client(t *testing.T) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: s.addr})
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// prefixes hands out a new key prefix to each store a test makes, so that
// the stores of subtests share one server and nothing else.
var prefixes struct {
	mu sync.Mutex
	n  int
}

func newPrefix() string {
	prefixes.mu.Lock()
	defer prefixes.mu.Unlock()
	prefixes.n++
	return "test" + strconv.Itoa(prefixes.n) + ":"
}
