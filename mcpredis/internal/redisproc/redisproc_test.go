package redisproc_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcpredis/internal/redisproc"
)

// redisServer returns the redis-server on PATH, or skips the test when there is none
// (fails it instead when SCHEMARPC_REQUIRE_REDIS=1, as in CI).
func redisServer(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("SCHEMARPC_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server is not on PATH and SCHEMARPC_REQUIRE_REDIS=1")
		}
		t.Skip("redis-server is not on PATH: install it to run this test")
	}
	return path
}

// script writes an executable shell script and returns its path.
func script(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fake-redis")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return path
}

func TestAStartedServerAnswersUntilStopped(t *testing.T) {
	s, err := redisproc.Start(context.Background(), redisServer(t), t.TempDir())
	require.NoError(t, err)
	defer s.Stop()
	host, _, err := net.SplitHostPort(s.Addr)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1", host)

	opts, err := redis.ParseURL(s.URL())
	require.NoError(t, err)
	c := redis.NewClient(opts)
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, c.Set(ctx, "k", "v", 0).Err())
	assert.Equal(t, "v", c.Get(ctx, "k").Val())

	s.Stop()
	select {
	case <-s.Done():
	default:
		t.Fatal("Stop returned before the server exited")
	}
	_, err = net.DialTimeout("tcp", s.Addr, time.Second)
	assert.Error(t, err, "something still listens at %s", s.Addr)
	s.Stop() // a second Stop is harmless
}

func TestStartFailsWithoutTheBinary(t *testing.T) {
	_, err := redisproc.Start(context.Background(), filepath.Join(t.TempDir(), "no-such-redis"), t.TempDir())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-such-redis")
}

func TestStartReportsAServerThatExitsWithItsOutput(t *testing.T) {
	_, err := redisproc.Start(context.Background(), script(t, "echo 'bad config line'; exit 1"), t.TempDir())
	var se *redisproc.StartError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, "exited", se.Reason)
	assert.Contains(t, se.Output, "bad config line")
	assert.Contains(t, err.Error(), se.Addr)
}

// silentServer is a script that never answers PING; it writes its pid to pidFile first.
func silentServer(t *testing.T, pidFile string, ignoreTERM bool) string {
	trap := ""
	if ignoreTERM {
		trap = "trap '' TERM; "
	}
	return script(t, "echo $$ > "+pidFile+"; "+trap+"exec sleep 30")
}

// assertGone checks that the process whose pid is in pidFile no longer exists.
func assertGone(t *testing.T, pidFile string) {
	t.Helper()
	b, err := os.ReadFile(pidFile)
	require.NoError(t, err)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	require.NoError(t, err)
	assert.ErrorIs(t, syscall.Kill(pid, 0), syscall.ESRCH, "process %d is still there", pid)
}

func TestStartStopsTheServerWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := redisproc.Start(ctx, silentServer(t, pidFile, false), t.TempDir())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assertGone(t, pidFile)
}

func TestStopKillsAServerThatIgnoresSIGTERM(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	pidFile := filepath.Join(t.TempDir(), "pid")
	_, err := redisproc.Start(ctx, silentServer(t, pidFile, true), t.TempDir())
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assertGone(t, pidFile)
}

// Kill ends a server at once; StartAt starts one again at the same
// address, where clients find it, without what the first one held.
func TestAKilledServerStartsAgainAtItsAddress(t *testing.T) {
	bin, dir := redisServer(t), t.TempDir()
	s, err := redisproc.Start(context.Background(), bin, dir)
	require.NoError(t, err)
	c := redis.NewClient(&redis.Options{Addr: s.Addr})
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Set(ctx, "k", "v", 0).Err())

	s.Kill()
	select {
	case <-s.Done():
	default:
		t.Fatal("Kill returned before the server exited")
	}
	again, err := redisproc.StartAt(ctx, bin, dir, s.Addr)
	require.NoError(t, err)
	defer again.Stop()
	assert.Equal(t, s.Addr, again.Addr)
	assert.Equal(t, redis.Nil, c.Get(ctx, "k").Err(), "no persistence: the restarted server is empty")
}

func TestStartAtAnAddressWithoutAPortIsAnError(t *testing.T) {
	_, err := redisproc.StartAt(context.Background(), "redis-server", t.TempDir(), "127.0.0.1")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing port")
}
