package mcpredis_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// redisServer is a redis-server a test started on a free port of
// 127.0.0.1, without persistence, stopped when the test ends.
type redisServer struct {
	t    *testing.T
	addr string
	dir  string

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
	log  bytes.Buffer
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
	var err error
	for range 3 { // a free port may be taken before the server binds it
		s.addr = freeAddr(t)
		if err = s.start(); err == nil {
			break
		}
	}
	require.NoError(t, err)
	t.Cleanup(s.stop)
	return s
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

// start runs redis-server on s.addr and waits until it answers PING.
func (s *redisServer) start() error {
	_, port, _ := net.SplitHostPort(s.addr)
	cmd := exec.Command("redis-server",
		"--bind", "127.0.0.1", "--port", port, "--save", "", "--appendonly", "no",
		"--dir", s.dir, "--logfile", "")
	s.mu.Lock()
	s.log.Reset()
	cmd.Stdout, cmd.Stderr = &lockedWriter{s}, &lockedWriter{s}
	s.mu.Unlock()
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
	s.mu.Lock()
	s.cmd, s.done = cmd, done
	s.mu.Unlock()

	c := redis.NewClient(&redis.Options{Addr: s.addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := c.Ping(ctx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-done:
			return &startError{s.output()}
		default:
		}
		if time.Now().After(deadline) {
			s.stop()
			return &startError{"no answer to PING within 10s: " + s.output()}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server and waits for it to exit.
func (s *redisServer) stop() {
	s.mu.Lock()
	cmd, done := s.cmd, s.done
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Kill()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		s.t.Errorf("redis-server (pid %d) did not exit", cmd.Process.Pid)
	}
}

// restart starts the server again on the same address.
func (s *redisServer) restart() {
	s.t.Helper()
	s.stop()
	require.NoError(s.t, s.start())
}

func (s *redisServer) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// lockedWriter appends to the server's log under its lock.
type lockedWriter struct{ s *redisServer }

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.log.Write(p)
}

// startError reports a redis-server that did not come up.
type startError struct{ output string }

func (e *startError) Error() string { return "redis-server did not start: " + e.output }

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
