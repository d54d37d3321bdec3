package app

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    Config
		wantErr string
	}{
		{"defaults: stdio", nil, Config{WatchInterval: 3 * time.Second, DynamicAfter: 2 * time.Second, LogLevel: slog.LevelInfo}, ""},
		{"http and options", []string{"-http", "127.0.0.1:3001", "-page-size", "5", "-watch-interval", "0", "-dynamic-after", "0", "-log-level", "debug"},
			Config{HTTPAddr: "127.0.0.1:3001", PageSize: 5, LogLevel: slog.LevelDebug}, ""},
		{"unknown flag", []string{"-port", "1"}, Config{}, "flag provided but not defined"},
		{"bad level", []string{"-log-level", "loud"}, Config{}, "invalid value"},
		{"stray argument", []string{"serve"}, Config{}, "unexpected arguments"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			got, err := ParseFlags(tt.args, &stderr)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error()+stderr.String(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
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

// serve runs Run in the background until the test ends and returns the endpoint once it
// answers.
func serve(t *testing.T, c Config, opts ...Option) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Run(ctx, c, &bytes.Buffer{}, opts...) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after its context ended")
		}
	})
	url := "http://" + c.HTTPAddr + "/mcp"
	waitUp(t, url)
	return url
}

// waitUp polls url (at most 10 s) until something answers there.
func waitUp(t *testing.T, url string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			_ = resp.Body.Close()
			return
		}
		require.True(t, time.Now().Before(deadline), "the server never answered at %s: %v", url, err)
		time.Sleep(20 * time.Millisecond)
	}
}

// initialize POSTs an initialize request and returns the response's content type.
func initialize(t *testing.T, url string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return resp.Header.Get("Content-Type")
}

func TestRunServesStreamableHTTPWithTheDefaultOptions(t *testing.T) {
	url := serve(t, Config{HTTPAddr: freeAddr(t)})
	assert.Contains(t, initialize(t, url), "text/event-stream")
}

func TestRunAppliesEveryHTTPOptionsAdjustmentInOrder(t *testing.T) {
	var order []string
	url := serve(t, Config{HTTPAddr: freeAddr(t)},
		WithHTTPOptions(func(o *mcp.HTTPOptions) { order = append(order, "first"); o.JSONResponse = false }),
		WithHTTPOptions(func(o *mcp.HTTPOptions) { order = append(order, "second"); o.JSONResponse = true }))
	assert.Contains(t, initialize(t, url), "application/json")
	assert.Equal(t, []string{"first", "second"}, order)
}

func TestRunReturnsNilWhenItsContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	addr := freeAddr(t)
	c := Config{HTTPAddr: addr, WatchInterval: time.Millisecond, DynamicAfter: time.Millisecond}
	go func() { done <- Run(ctx, c, &bytes.Buffer{}) }()
	waitUp(t, "http://"+addr+"/mcp")
	cancel()
	select {
	case err := <-done:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
}

func TestRunFailsWhenItCannotListen(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	err = Run(context.Background(), Config{HTTPAddr: l.Addr().String()}, &bytes.Buffer{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "address already in use")
}

func TestRunAppliesEveryServerOptionsAdjustmentInOrder(t *testing.T) {
	var order []string
	url := serve(t, Config{HTTPAddr: freeAddr(t)},
		WithServerOptions(func(o *mcp.ServerOptions) { order = append(order, "first"); o.Instructions = "first" }),
		WithServerOptions(func(o *mcp.ServerOptions) { order = append(order, "second"); o.Instructions = "Adjusted." }))
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Contains(t, string(body), `"instructions":"Adjusted."`)
	assert.Equal(t, []string{"first", "second"}, order)
}
