package harness_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// startHelper starts the test binary as a stand-in server in the given mode.
func startHelper(t *testing.T, mode string) *harness.Process {
	t.Helper()
	t.Setenv(helperEnv, mode)
	p, err := harness.Start(context.Background(), os.Args[0])
	require.NoError(t, err)
	t.Cleanup(p.Stop)
	return p
}

func TestFreeAddrIsALoopbackPortNobodyListensOn(t *testing.T) {
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	host, port, err := net.SplitHostPort(addr)
	require.NoError(t, err)
	assert.Equal(t, "127.0.0.1", host)
	assert.NotEqual(t, "0", port)
	l, err := net.Listen("tcp", addr)
	require.NoError(t, err, "the port is free again")
	require.NoError(t, l.Close())
}

func TestStartFailsForAMissingBinary(t *testing.T) {
	_, err := harness.Start(context.Background(), "/nonexistent/everything")
	assert.ErrorContains(t, err, "starting /nonexistent/everything")
}

func TestStopEndsTheProcessAndKeepsItsStderr(t *testing.T) {
	p := startHelper(t, "idle")
	require.Eventually(t, func() bool { return p.Stderr() != "" }, 10*time.Second, 10*time.Millisecond)
	assert.False(t, p.Exited())
	p.Stop()
	assert.True(t, p.Exited())
	assert.Equal(t, "helper idling\n", p.Stderr())
	p.Stop() // a second stop is harmless
}

func TestWaitHTTPReturnsOnceSomethingAnswers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusMethodNotAllowed) // any status means "up"
	}))
	defer srv.Close()
	p := startHelper(t, "idle")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	assert.NoError(t, harness.WaitHTTP(ctx, p, srv.URL+"/mcp"))
}

func TestWaitHTTPGivesUpWhenTheDeadlinePasses(t *testing.T) {
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	p := startHelper(t, "idle")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err = harness.WaitHTTP(ctx, p, "http://"+addr+"/mcp")
	assert.ErrorIs(t, err, harness.ErrNeverAnswered)
}

func TestWaitHTTPGivesUpWhenTheProcessExits(t *testing.T) {
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	p := startHelper(t, "exit")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err = harness.WaitHTTP(ctx, p, "http://"+addr+"/mcp")
	require.ErrorIs(t, err, harness.ErrNeverAnswered)
	assert.ErrorContains(t, err, "the process exited")
	assert.ErrorContains(t, err, "helper exiting")
}

func TestWaitHTTPRejectsABadURL(t *testing.T) {
	p := startHelper(t, "idle")
	err := harness.WaitHTTP(context.Background(), p, "http://bad host/")
	assert.ErrorContains(t, err, "polling")
}
