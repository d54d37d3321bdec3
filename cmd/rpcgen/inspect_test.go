package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/internal/syncbuf"
)

func TestInspectRejectsBadUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no server", nil, "name the server"},
		{"two URLs", []string{"http://a/mcp", "http://b/mcp"}, "one URL"},
		{"a command without --", []string{"everything"}, "not an http(s) URL"},
		{"--sse with a command", []string{"--sse", "--", "everything"}, "--sse is for a URL"},
		{"--header with a command", []string{"--header", "A: b", "--", "everything"}, "--header is for a URL"},
		{"a header without a colon", []string{"--header", "Authorization", "http://a/mcp"}, `want "Name: value"`},
		{"no connect time", []string{"--connect-timeout", "0s", "http://a/mcp"}, "--connect-timeout must be positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := rpcgen(append([]string{"inspect"}, tt.args...)...)
			assert.Equal(t, exitUsage, code)
			assert.Contains(t, stderr, tt.want)
		})
	}
}

func TestInspectHelpNamesBothModesAndTheSecurityModel(t *testing.T) {
	code, stdout, _ := rpcgen("inspect", "-h")
	assert.Equal(t, exitOK, code)
	for _, want := range []string{"-- COMMAND", "rpcgen inspect [flags] URL", "127.0.0.1", "token", "-transcript", "-protocol-version"} {
		assert.Contains(t, stdout, want)
	}
}

func TestInspectFailsWhenTheServerCannotBeStarted(t *testing.T) {
	code, _, stderr := rpcgen("inspect", "--connect-timeout", "10s", "--", filepath.Join(t.TempDir(), "no-such-server"))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "rpcgen inspect: inspect: connecting to")
}

// inspectProcess is a running "rpcgen inspect" and the page URL it printed.
type inspectProcess struct {
	cmd    *exec.Cmd
	url    string
	stderr *syncbuf.Buffer
	done   chan struct{}
}

// startInspect runs "rpcgen inspect args..." and reads the URL it prints.
func startInspect(t *testing.T, args ...string) *inspectProcess {
	t.Helper()
	cmd := exec.Command(testBinary(t), append([]string{"inspect"}, args...)...)
	cmd.Env = append(os.Environ(), proxyRoleEnv+"=rpcgen")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &inspectProcess{cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	go func() {
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case line, ok := <-lines:
		require.True(t, ok, "rpcgen inspect printed nothing: %s", p.stderr.String())
		u, found := strings.CutPrefix(line, "rpcgen inspect: open ")
		require.True(t, found, line)
		p.url = u
	case <-time.After(60 * time.Second):
		t.Fatalf("rpcgen inspect printed no URL: %s", p.stderr.String())
	}
	return p
}

// api calls the inspector's API as its page does.
func (p *inspectProcess) api(t *testing.T, method, path, body string) []byte {
	t.Helper()
	base, token, _ := strings.Cut(p.url, "/?token=")
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, r)
	require.NoError(t, err)
	req.Header.Set(inspect.TokenHeader, token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	return b
}

func TestInspectExportsATranscriptThatValidatePasses(t *testing.T) {
	everything := everythingBinary(t)
	dir := t.TempDir()
	onExit := filepath.Join(dir, "on-exit.jsonl")
	for _, versions := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(versions, func(t *testing.T) {
			p := startInspect(t, "--protocol-version", versions, "--transcript", onExit, "--", everything, "-dynamic-after", "0", "-watch-interval", "0")
			var tools struct{ Tools []json.RawMessage }
			require.NoError(t, json.Unmarshal(p.api(t, "GET", "/api/tools", ""), &tools))
			assert.NotEmpty(t, tools.Tools)
			p.api(t, "POST", "/api/tools/call", `{"name":"test_simple_text","arguments":{}}`)

			exported := filepath.Join(dir, "exported.jsonl")
			require.NoError(t, os.WriteFile(exported, p.api(t, "GET", "/api/export", ""), 0o644))
			code, stdout, stderr := rpcgen("validate", exported)
			assert.Equal(t, exitOK, code, stdout+stderr)
			assert.Contains(t, stdout, "0 findings")
			// initialize (or discover), its answer, tools/list and its
			// answer, tools/call and its answer at least.
			b, err := os.ReadFile(exported)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, strings.Count(string(b), "\n"), 6)

			require.NoError(t, p.cmd.Process.Signal(syscall.SIGINT))
			select {
			case <-p.done:
			case <-time.After(30 * time.Second):
				t.Fatal("rpcgen inspect did not exit on SIGINT")
			}
			assert.Equal(t, exitOK, p.cmd.ProcessState.ExitCode(), p.stderr.String())
			code, stdout, stderr = rpcgen("validate", onExit)
			assert.Equal(t, exitOK, code, stdout+stderr)
		})
	}
}
