package main

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcpredis/internal/redisproc"
)

// startRedis starts a redis-server for the test, or skips the test when there is none on
// PATH (fails it instead when SCHEMARPC_REQUIRE_REDIS=1, as in CI).
func startRedis(t *testing.T) *redisproc.Server {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("SCHEMARPC_REQUIRE_REDIS") == "1" {
			t.Fatal("redis-server is not on PATH and SCHEMARPC_REQUIRE_REDIS=1")
		}
		t.Skip("redis-server is not on PATH: install it to run this test")
	}
	s, err := redisproc.Start(context.Background(), path, t.TempDir())
	require.NoError(t, err)
	t.Cleanup(s.Stop)
	return s
}

// freeAddr returns a loopback address nothing listened on a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

func TestParseFlagsRefusesWhatAReplicaCannotServe(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no -http", []string{"-redis", "redis://127.0.0.1:1"}, "-http is required"},
		{"unknown flag", []string{"-http", "127.0.0.1:1", "-nope"}, "flag provided but not defined"},
		{"stray argument", []string{"-http", "127.0.0.1:1", "serve"}, "unexpected arguments"},
		{"state key not hex", []string{"-http", "127.0.0.1:1", "-state-key", "xyz"}, "not hex"},
		{"state key of a bad length", []string{"-http", "127.0.0.1:1", "-state-key", "0011"}, "2 bytes: want 16, 24 or 32"},
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

func TestParseFlagsTakesTheEverythingFlagsAndTheRedisOnes(t *testing.T) {
	c, err := parseFlags([]string{"-http", "127.0.0.1:3101", "-dynamic-after", "0", "-page-size", "4",
		"-redis", "redis://10.0.0.1:6380/2", "-prefix", "p:", "-state-key", strings.Repeat("ab", 32)}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1:3101", c.HTTPAddr)
	assert.Equal(t, time.Duration(0), c.DynamicAfter)
	assert.Equal(t, 4, c.PageSize)
	assert.Equal(t, "redis://10.0.0.1:6380/2", c.redisURL)
	assert.Equal(t, "p:", c.prefix)
	assert.Equal(t, bytes.Repeat([]byte{0xab}, 32), c.stateKey)

	c, err = parseFlags([]string{"-http", "127.0.0.1:3101"}, &bytes.Buffer{})
	require.NoError(t, err)
	assert.Equal(t, "redis://127.0.0.1:6379", c.redisURL)
	assert.Equal(t, "everything:", c.prefix)
	assert.Nil(t, c.stateKey)
}

func TestABadRedisURLIsRefused(t *testing.T) {
	err := run(context.Background(), []string{"-http", freeAddr(t), "-redis", "http://127.0.0.1:6379"}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-redis http://127.0.0.1:6379")
}

func TestRedisThatDoesNotAnswerFailsTheStartNamingItsAddress(t *testing.T) {
	dead := freeAddr(t)
	err := run(context.Background(), []string{"-http", freeAddr(t), "-redis", "redis://" + dead}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "redis at "+dead+" does not answer")
	assert.NotContains(t, err.Error(), "\n", "the failure is one line")
}

// replica runs one replica in the background until the test ends and returns its MCP
// endpoint once it answers.
func replica(t *testing.T, args ...string) string {
	t.Helper()
	addr := freeAddr(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, append([]string{"-http", addr}, args...), &bytes.Buffer{}) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the replica did not stop")
		}
	})
	url := "http://" + addr + "/mcp"
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case err := <-done:
			t.Fatalf("the replica stopped: %v", err)
		default:
		}
		resp, err := http.Get(url)
		if err == nil {
			_ = resp.Body.Close()
			return url
		}
		require.True(t, time.Now().Before(deadline), "the replica never answered at %s: %v", url, err)
		time.Sleep(20 * time.Millisecond)
	}
}

// post sends one JSON-RPC message to url in session (empty: none) and returns the
// response's status and session id.
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

const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func TestReplicasWithOneRedisAndPrefixServeOneSession(t *testing.T) {
	r := startRedis(t)
	quiet := []string{"-redis", r.URL(), "-watch-interval", "0", "-dynamic-after", "0", "-log-level", "error"}
	a := replica(t, append(quiet, "-prefix", "one:")...)
	b := replica(t, append(quiet, "-prefix", "one:")...)
	other := replica(t, append(quiet, "-prefix", "two:")...)

	status, session := post(t, a, "", initialize)
	require.Equal(t, http.StatusOK, status)
	require.NotEmpty(t, session)
	status, _ = post(t, b, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	assert.Equal(t, http.StatusAccepted, status)
	status, _ = post(t, b, session, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	assert.Equal(t, http.StatusOK, status, "the replica with the same prefix serves the session")
	status, _ = post(t, other, session, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`)
	assert.Equal(t, http.StatusNotFound, status, "a replica with another prefix does not know the session")
}
