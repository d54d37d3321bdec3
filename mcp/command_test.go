package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// helperEnv makes the test binary a stdio server (TestHelperProcess).
const helperEnv = "MCP_CLIENT_TEST_HELPER"

// TestHelperProcess is not a test: run by helperCommand as a child
// process, it serves MCP on stdio and then behaves as its mode says.
func TestHelperProcess(t *testing.T) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	if mode == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
	}
	fmt.Fprintln(os.Stderr, "helper server starting")
	s := mcp.NewServer(&mcp.Implementation{Name: "helper", Version: "1"}, nil)
	_ = s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(string(req.Params.Arguments))}}, nil
		})
	_ = s.ServeStdio(context.Background())
	fmt.Fprintln(os.Stderr, "helper server saw the end of stdin")
	if mode == "serve" {
		os.Exit(3)
	}
	time.Sleep(time.Minute) // ignore-eof, ignore-term: linger
	os.Exit(0)
}

// helperCommand runs this test binary as a stdio server in mode.
func helperCommand(t *testing.T, mode string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$")
	cmd.Env = append(os.Environ(), helperEnv+"="+mode)
	return cmd
}

// A spawned server is reached over its stdin and stdout, its stderr is
// kept, and closing the session closes stdin, after which it exits (here
// with status 3, which Exited reports).
func TestCommandTransportSpawnsAServer(t *testing.T) {
	tr := &mcp.CommandTransport{Command: helperCommand(t, "serve"), CloseTimeout: 2 * time.Second}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	assert.True(t, s.Stateless())
	res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"x":1}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"x":1}`, toolText(t, res))
	exited, _ := tr.Exited()
	assert.False(t, exited)

	require.NoError(t, s.Close())
	exited, how := tr.Exited()
	assert.True(t, exited)
	var ee *exec.ExitError
	require.ErrorAs(t, how, &ee)
	assert.Equal(t, 3, ee.ExitCode())
	assert.Contains(t, tr.StderrOutput(), "helper server starting")
	assert.Contains(t, tr.StderrOutput(), "helper server saw the end of stdin")
}

// A server that stays after its stdin closes gets SIGTERM.
func TestCommandTransportTerminatesALingeringServer(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	tr := &mcp.CommandTransport{Command: helperCommand(t, "ignore-eof"), CloseTimeout: 200 * time.Millisecond}
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}}).Connect(bg(t), tr)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	exited, how := tr.Exited()
	require.True(t, exited)
	var ee *exec.ExitError
	require.ErrorAs(t, how, &ee)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.Equal(t, syscall.SIGTERM, ws.Signal())
}

// A server that ignores SIGTERM is killed.
func TestCommandTransportKillsAServerThatIgnoresSIGTERM(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM on Windows")
	}
	tr := &mcp.CommandTransport{Command: helperCommand(t, "ignore-term"), CloseTimeout: 200 * time.Millisecond}
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}}).Connect(bg(t), tr)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	exited, how := tr.Exited()
	require.True(t, exited)
	var ee *exec.ExitError
	require.ErrorAs(t, how, &ee)
	ws, ok := ee.Sys().(syscall.WaitStatus)
	require.True(t, ok)
	assert.Equal(t, syscall.SIGKILL, ws.Signal())
}

// The server's stderr goes to the Stderr writer when one is given.
func TestCommandTransportCopiesStderr(t *testing.T) {
	var buf strings.Builder
	w := &lockedWriter{b: &buf}
	tr := &mcp.CommandTransport{Command: helperCommand(t, "serve"), Stderr: w}
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	require.NoError(t, s.Close())
	assert.Contains(t, w.String(), "helper server starting")
	assert.Empty(t, tr.StderrOutput())
}

// A command that cannot start fails Connect; a CommandTransport is used
// once; a Command with its own stdout is refused.
func TestCommandTransportErrors(t *testing.T) {
	c := mcp.NewClient(nil, nil)
	_, err := c.Connect(bg(t), &mcp.CommandTransport{Command: exec.Command(filepath.Join(t.TempDir(), "missing"))})
	assert.Error(t, err)
	_, err = c.Connect(bg(t), &mcp.CommandTransport{})
	assert.Error(t, err)
	cmd := helperCommand(t, "serve")
	cmd.Stdout = os.Stdout
	_, err = c.Connect(bg(t), &mcp.CommandTransport{Command: cmd})
	assert.Error(t, err)

	tr := &mcp.CommandTransport{Command: helperCommand(t, "serve")}
	s, err := c.Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	_, err = c.Connect(bg(t), tr)
	assert.ErrorContains(t, err, "already started")
}

// A server process that dies ends the session: Wait returns, calls fail.
func TestSessionEndsWhenTheServerProcessDies(t *testing.T) {
	tr := &mcp.CommandTransport{Command: helperCommand(t, "ignore-eof"), CloseTimeout: 200 * time.Millisecond}
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	require.NoError(t, tr.Command.Process.Kill())
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	receive(t, done)
	_, err = s.ListTools(bg(t), nil)
	assert.Error(t, err)
	s.Close()
}

// The conformance server of examples/everything, built and spawned, talks
// to the client in both eras.
func TestCommandTransportWithTheEverythingServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds examples/everything")
	}
	bin := filepath.Join(t.TempDir(), "everything")
	build := exec.Command("go", "build", "-o", bin, "../examples/everything")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	for _, versions := range [][]string{nil, {mcp.Version20251125}} {
		tr := &mcp.CommandTransport{Command: exec.Command(bin), CloseTimeout: 2 * time.Second}
		s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: versions}).Connect(bg(t), tr)
		require.NoError(t, err)
		n := 0
		for _, err := range s.Tools(bg(t)) {
			require.NoError(t, err)
			n++
		}
		assert.Positive(t, n)
		require.NoError(t, s.Close())
	}
}

// lockedWriter is a strings.Builder safe for the copying goroutine.
type lockedWriter struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
