package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
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
	"github.com/schemarpc/schemarpc/conformance/harness"
	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
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
		{"an OAuth flag without --oauth", []string{"--oauth-client-id", "x", "http://a/mcp"}, "need --oauth"},
		{"--oauth with a command", []string{"--oauth", "--", "everything"}, "stdio has no authorization"},
		{"client credentials without a secret", []string{"--oauth", "--oauth-client-credentials", "--oauth-client-id", "x", "http://a/mcp"}, "needs --oauth-client-id and --oauth-client-secret"},
		{"a redirect off loopback", []string{"--oauth", "--oauth-redirect", "http://example.com:80/cb", "http://a/mcp"}, "--oauth-redirect: want"},
		{"a redirect that is no URL", []string{"--oauth", "--oauth-redirect", "http://[::1", "http://a/mcp"}, "--oauth-redirect: parse"},
		{"a redirect without a port", []string{"--oauth", "--oauth-redirect", "http://127.0.0.1/cb", "http://a/mcp"}, "--oauth-redirect: want"},
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
	lines  chan string // what it prints on stdout
}

// startInspect runs "rpcgen inspect args..." and reads the URL it prints.
func startInspect(t *testing.T, args ...string) *inspectProcess {
	t.Helper()
	p := launchInspect(t, args...)
	p.url = p.line(t, "rpcgen inspect: open ")
	return p
}

// launchInspect runs "rpcgen inspect args...".
func launchInspect(t *testing.T, args ...string) *inspectProcess {
	t.Helper()
	cmd := exec.Command(testBinary(t), append([]string{"inspect"}, args...)...)
	cmd.Env = append(os.Environ(), proxyRoleEnv+"=rpcgen")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	p := &inspectProcess{cmd: cmd, stderr: &syncbuf.Buffer{}, done: make(chan struct{}), lines: make(chan string, 16)}
	cmd.Stderr = p.stderr
	require.NoError(t, cmd.Start())
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.done
	})
	return p
}

// line waits for the next line printed, which must start with prefix, and
// returns the rest of it.
func (p *inspectProcess) line(t *testing.T, prefix string) string {
	t.Helper()
	select {
	case line, ok := <-p.lines:
		require.True(t, ok, "rpcgen inspect printed nothing more: %s", p.stderr.String())
		rest, found := strings.CutPrefix(line, prefix)
		require.True(t, found, "want %q, got %q", prefix, line)
		return rest
	case <-time.After(60 * time.Second):
		t.Fatalf("rpcgen inspect printed no %q: %s", prefix, p.stderr.String())
		return ""
	}
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

// oauthServer is an MCP server behind OAuth: an authorization server that
// approves at once and issues one token, and a resource server that wants
// it. It returns the MCP endpoint.
func oauthServer(t *testing.T) string {
	asMux := http.NewServeMux()
	as := httptest.NewServer(asMux)
	t.Cleanup(as.Close)
	asMux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,"code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true}`,
			as.URL, as.URL+"/authorize", as.URL+"/token")
	})
	asMux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back := q.Get("redirect_uri") + "?" + url.Values{"code": {"c1"}, "state": {q.Get("state")}, "iss": {as.URL}}.Encode()
		http.Redirect(w, r, back, http.StatusFound)
	})
	asMux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token":"valid-token","token_type":"Bearer","expires_in":3600}`)
	})

	s := mcp.NewServer(&mcp.Implementation{Name: "guarded", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "secret", InputSchema: json.RawMessage(`{"type":"object"}`)}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("only for the signed in")}}, nil
	})
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	mux.Handle(auth.ProtectedResourceMetadataPath("/mcp"), auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{
		Resource: srv.URL + "/mcp", AuthorizationServers: []string{as.URL},
	}))
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{
		Verifier: auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
			if token != "valid-token" {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{Subject: "alice"}, nil
		}),
	})(mcp.NewStreamableHTTPHandler(s, nil)))
	return srv.URL + "/mcp"
}

func TestInspectSignsInWithOAuthInThePersonsBrowser(t *testing.T) {
	endpoint := oauthServer(t)
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	p := launchInspect(t, "--oauth", "--oauth-client-id", "inspector", "--oauth-redirect", "http://"+addr+"/callback", endpoint)
	signIn := p.line(t, "rpcgen inspect: sign in at ")
	// The person's browser: the authorization server sends it back to
	// the inspector's redirect.
	resp, err := http.Get(signIn)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, string(body), "signed in")

	p.url = p.line(t, "rpcgen inspect: open ")
	var tools struct{ Tools []struct{ Name string } }
	require.NoError(t, json.Unmarshal(p.api(t, "GET", "/api/tools", ""), &tools))
	require.Len(t, tools.Tools, 1)
	assert.Equal(t, "secret", tools.Tools[0].Name)
}

func TestInspectWithoutOAuthIsRefusedByAGuardedServer(t *testing.T) {
	code, _, stderr := rpcgen("inspect", "--connect-timeout", "20s", oauthServer(t))
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "401")
}
