package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// needRedis skips the test when there is no redis-server on PATH (fails it instead when
// SCHEMARPC_REQUIRE_REDIS=1, as in CI).
func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("SCHEMARPC_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server is not on PATH and SCHEMARPC_REQUIRE_REDIS=1")
		}
		t.Skip("redis-server is not on PATH: install it to run this test")
	}
}

// executable writes a file that exists and runs the shell script body.
func executable(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "everything-redis")
	require.NoError(t, os.WriteFile(path, []byte("#!/bin/sh\n"+body+"\n"), 0o755))
	return path
}

func TestParseFlagsRefusesWhatCannotRun(t *testing.T) {
	replica := executable(t, "exit 0")
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no -http", []string{"-replica", replica}, "-http is required"},
		{"no replicas", []string{"-http", "127.0.0.1:1", "-replica", replica, "-replicas", "0"}, "-replicas 0"},
		{"stray argument", []string{"-http", "127.0.0.1:1", "-replica", replica, "go"}, "unexpected arguments"},
		{"unknown flag", []string{"-http", "127.0.0.1:1", "-nope"}, "flag provided but not defined"},
		{"no replica binary", []string{"-http", "127.0.0.1:1", "-replica", filepath.Join(t.TempDir(), "missing")}, "the replica binary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stderr)
			require.Error(t, err)
			assert.Contains(t, err.Error()+stderr.String(), tt.wantErr)
		})
	}
}

func TestTheEverythingFlagsGoToEveryReplica(t *testing.T) {
	c, err := parseFlags([]string{"-http", "127.0.0.1:3001", "-replica", executable(t, "exit 0"),
		"-page-size", "4", "-log-level", "debug", "-replicas", "2", "-dynamic-after", "0"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, []string{"-dynamic-after=0s", "-log-level=DEBUG", "-page-size=4"}, c.forward,
		"the everything flags given, but not -http, which is the proxy's")
	assert.Equal(t, 2, c.replicas)
}

func TestTheReplicaBinaryIsFoundBesideThisOne(t *testing.T) {
	_, err := parseFlags([]string{"-http", "127.0.0.1:3001"}, &bytes.Buffer{})
	self, _ := os.Executable()
	require.Error(t, err, "no everything-redis beside the test binary")
	assert.Contains(t, err.Error(), filepath.Join(filepath.Dir(self), "everything-redis"))
}

func TestARedisServerThatCannotStartFailsTheCluster(t *testing.T) {
	err := run(context.Background(), []string{"-http", "127.0.0.1:0", "-replica", executable(t, "exit 0"),
		"-redis-server", filepath.Join(t.TempDir(), "no-redis-server")}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no-redis-server")
}

func TestAReplicaThatExitsAtOnceFailsTheCluster(t *testing.T) {
	needRedis(t)
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"-http", "127.0.0.1:0",
		"-replica", executable(t, "echo 'cannot serve' >&2; exit 1")}, &stderr)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replica 0 exited before it answered")
	assert.Contains(t, stderr.String(), "replica 0: cannot serve")
}

// loopbackAddr returns a loopback address nothing listened on a moment ago.
func loopbackAddr(t *testing.T) string {
	t.Helper()
	addr, err := freeAddr()
	require.NoError(t, err)
	return addr
}

// post sends one JSON-RPC message and returns the status and the session id.
func post(t *testing.T, url, session, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id")
}

func TestTheClusterServesOneSessionOverItsReplicasAndStopsThemAll(t *testing.T) {
	needRedis(t)
	bin := filepath.Join(t.TempDir(), "everything-redis")
	out, err := exec.Command("go", "build", "-o", bin, "../everything-redis").CombinedOutput()
	require.NoError(t, err, "%s", out)

	addr := loopbackAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr lockedLog
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"-http", addr, "-replica", bin, "-replicas", "2", "-dynamic-after", "0", "-watch-interval", "0"}, &stderr)
	}()
	url := "http://" + addr + "/mcp"
	deadline := time.Now().Add(20 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			_ = resp.Body.Close()
			break
		}
		require.True(t, time.Now().Before(deadline), "the cluster never answered: %v\n%s", err, stderr.String())
		time.Sleep(50 * time.Millisecond)
	}

	status, session := post(t, url, "", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	require.Equal(t, http.StatusOK, status)
	status, _ = post(t, url, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	assert.Equal(t, http.StatusAccepted, status)
	for i := range 2 {
		status, _ = post(t, url, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		assert.Equal(t, http.StatusOK, status, "request %d", i)
	}
	log := stderr.String()
	assert.Contains(t, log, "replica 0: ")
	assert.Contains(t, log, "replica 1: ")
	assert.Contains(t, log, "serving the cluster")

	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(15 * time.Second):
		t.Fatal("the cluster did not stop")
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if i := strings.Index(line, `msg="serving Streamable HTTP" url=`); i >= 0 {
			replica := strings.TrimSuffix(strings.TrimPrefix(line[i:], `msg="serving Streamable HTTP" url=http://`), "/mcp")
			_, err := net.DialTimeout("tcp", replica, time.Second)
			assert.Error(t, err, "a replica still listens at %s", replica)
		}
		if i := strings.Index(line, `msg="started redis-server" addr=`); i >= 0 {
			redis := strings.TrimPrefix(line[i:], `msg="started redis-server" addr=`)
			_, err := net.DialTimeout("tcp", redis, time.Second)
			assert.Error(t, err, "the redis-server still listens at %s", redis)
		}
	}
	_, err = net.DialTimeout("tcp", addr, time.Second)
	assert.Error(t, err, "the proxy still listens")
}

// lockedLog is a buffer for the cluster's log, read while it is written.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
