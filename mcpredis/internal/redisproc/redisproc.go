// Package redisproc runs a redis-server of its own on a free port of 127.0.0.1, without
// persistence, for a cluster that brings its own Redis (mcpredis/cmd/mcpcluster) and for
// the tests of mcpredis.
package redisproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"
)

// startTimeout bounds the wait for a started server to answer PING.
const startTimeout = 10 * time.Second

// stopGrace is how long Stop waits after SIGTERM before it kills.
const stopGrace = 5 * time.Second

// Server is a running redis-server.
type Server struct {
	// Addr is where it listens, 127.0.0.1:PORT.
	Addr string

	cmd  *exec.Cmd
	done chan struct{}
	out  *output
}

// Start runs binary (a redis-server) on a free port of 127.0.0.1 with its working
// directory dir, no snapshots and no append-only file, and returns once it answers PING.
// A port taken between the choice and the bind is tried again with another, up to three
// times.
func Start(ctx context.Context, binary, dir string) (*Server, error) {
	var err error
	for range 3 {
		var s *Server
		if s, err = start(ctx, binary, dir); err == nil {
			return s, nil
		}
		var se *StartError
		if !errors.As(err, &se) {
			return nil, err
		}
	}
	return nil, err
}

// StartError reports a redis-server that started but did not come up; Output is what it
// wrote.
type StartError struct {
	Addr   string
	Reason string
	Output string
}

func (e *StartError) Error() string {
	return fmt.Sprintf("redis-server at %s %s; its output:\n%s", e.Addr, e.Reason, e.Output)
}

func start(ctx context.Context, binary, dir string) (*Server, error) {
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	return StartAt(ctx, binary, dir, addr)
}

// StartAt is Start on a given 127.0.0.1 address, once: to start a server
// again where one was (a restart of Redis, for tests).
func StartAt(ctx context.Context, binary, dir, addr string) (*Server, error) {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(binary, "--bind", "127.0.0.1", "--port", port,
		"--save", "", "--appendonly", "no", "--dir", dir, "--logfile", "")
	s := &Server{Addr: addr, cmd: cmd, done: make(chan struct{}), out: &output{}}
	cmd.Stdout, cmd.Stderr = s.out, s.out
	cmd.WaitDelay = time.Second // a child that keeps the output open does not hold Wait
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", binary, err)
	}
	go func() {
		_ = cmd.Wait()
		close(s.done)
	}()
	if err := s.waitPing(ctx); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// waitPing polls the server until it answers PING, exits, or startTimeout or ctx ends.
func (s *Server) waitPing(ctx context.Context) error {
	c := redis.NewClient(&redis.Options{Addr: s.Addr, DialTimeout: 200 * time.Millisecond, MaxRetries: -1})
	defer c.Close()
	deadline := time.NewTimer(startTimeout)
	defer deadline.Stop()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		pingCtx, cancel := context.WithTimeout(ctx, time.Second)
		err := c.Ping(pingCtx).Err()
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.done:
			return &StartError{Addr: s.Addr, Reason: "exited", Output: s.out.String()}
		case <-ctx.Done():
			return fmt.Errorf("waiting for redis-server at %s: %w", s.Addr, ctx.Err())
		case <-deadline.C:
			return &StartError{Addr: s.Addr, Reason: "did not answer PING within " + startTimeout.String(), Output: s.out.String()}
		case <-tick.C:
		}
	}
}

// URL is the server's address as a redis:// URL of database 0.
func (s *Server) URL() string { return "redis://" + s.Addr + "/0" }

// Output is what the server wrote so far.
func (s *Server) Output() string { return s.out.String() }

// Done is closed when the server has exited.
func (s *Server) Done() <-chan struct{} { return s.done }

// Stop asks the server to exit (SIGTERM), kills it when it has not after a grace period,
// and returns once it is gone.
func (s *Server) Stop() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(stopGrace):
		_ = s.cmd.Process.Kill()
		<-s.done
	}
}

// Kill ends the server at once (SIGKILL), as a crash would, and returns
// once it is gone.
func (s *Server) Kill() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// freeAddr returns a loopback address with a port nothing listened on a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		return "", fmt.Errorf("finding a free port: %w", err)
	}
	return addr, nil
}

// output keeps what the server writes, up to a limit.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// outputLimit bounds what output keeps.
const outputLimit = 64 << 10

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if room := outputLimit - o.buf.Len(); room > 0 {
		o.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}
