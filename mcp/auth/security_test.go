package auth_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
)

// secTokens are the bearer tokens the tests' verifier knows: subject,
// client and scopes by token. "expired" has expired, "foreign" was issued
// for another resource, "broken" makes the verifier fail.
var secTokens = map[string]struct {
	subject, client string
	scopes          []string
}{
	"tok-alice-9f8e7d": {"alice", "app", []string{"mcp"}},
	"tok-alice-other":  {"alice", "other-app", []string{"mcp"}},
	"tok-bob-1a2b3c":   {"bob", "app", []string{"mcp"}},
	"tok-noscope-4d5e": {"carol", "app", nil},
	"tok-expired-6f7a": {"dave", "app", []string{"mcp"}},
	"tok-foreign-8b9c": {"erin", "app", []string{"mcp"}},
	"tok-anon-1111":    {"", "", []string{"mcp"}}, // tokens that identify no one
	"tok-anon-2222":    {"", "", []string{"mcp"}},
}

// secUpstream is a service the MCP server's tool calls; it records the
// Authorization headers it is sent.
type secUpstream struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

// secProtected serves an MCP server behind Require (with sessions, the
// given SessionTokens, possibly nil) whose "fetch" tool calls the
// upstream, logging everything at debug level into logs. seen records the
// Authorization headers that reached the MCP handler.
func secProtected(t *testing.T, sessions *auth.SessionTokens, logs *syncbuf.Buffer) (url string, up *secUpstream, seen *[]string) {
	t.Helper()
	up = &secUpstream{}
	up.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		up.mu.Lock()
		up.auth = append(up.auth, r.Header.Get("Authorization"))
		up.mu.Unlock()
		io.WriteString(w, "upstream ok")
	}))
	t.Cleanup(up.srv.Close)
	logger := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))

	s := mcp.NewServer(&mcp.Implementation{Name: "sec", Version: "1"}, &mcp.ServerOptions{Logger: logger})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "fetch"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, err := http.NewRequestWithContext(ctx, http.MethodGet, up.srv.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(string(b))}}, nil
	}))
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	resource := srv.URL + "/mcp"
	verify := auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
		if token == "tok-broken-0000" {
			return nil, errors.New("the introspection endpoint is down")
		}
		who, ok := secTokens[token]
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		info := &auth.TokenInfo{Subject: who.subject, ClientID: who.client, Scopes: who.scopes, Audience: []string{resource}, Expiry: time.Now().Add(time.Hour)}
		switch who.subject {
		case "dave":
			info.Expiry = time.Now().Add(-time.Minute)
		case "erin":
			info.Audience = []string{"https://elsewhere.example/mcp"}
		}
		return info, nil
	})
	var seenAuth []string
	var seenMu sync.Mutex
	inner := mcp.NewStreamableHTTPHandler(s, nil)
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{
		Verifier: verify, Resource: resource, Scopes: []string{"mcp"}, Sessions: sessions, Logger: logger,
		ResourceMetadataURL: srv.URL + "/.well-known/oauth-protected-resource/mcp",
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seenMu.Lock()
		seenAuth = append(seenAuth, r.Header.Get("Authorization"))
		seenMu.Unlock()
		inner.ServeHTTP(w, r)
	})))
	return resource, up, &seenAuth
}

// secDo sends one request with a bearer token and returns the response
// with its body read.
func secDo(t *testing.T, method, url, token, body string, hdr ...string) (*http.Response, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := secClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// secClient gives up after a few seconds, so that a stream that should
// have been refused fails the test instead of hanging it.
var secClient = &http.Client{Timeout: 5 * time.Second}

const (
	secInit = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sec","version":"1"}}}`
	secCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"fetch","arguments":{}}}`
)

// secOpen initializes a session with token and returns its headers.
func secOpen(t *testing.T, url, token string) []string {
	resp, _ := secDo(t, http.MethodPost, url, token, secInit)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	sid := resp.Header.Get(mcp.HeaderSessionID)
	require.NotEmpty(t, sid)
	resp, _ = secDo(t, http.MethodPost, url, token, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, mcp.HeaderSessionID, sid, mcp.HeaderProtocolVersion, "2025-11-25")
	require.Equal(t, http.StatusAccepted, resp.StatusCode)
	return []string{mcp.HeaderSessionID, sid, mcp.HeaderProtocolVersion, "2025-11-25"}
}

func TestASessionIsBoundToTheSubjectThatOpenedIt(t *testing.T) {
	for name, sessions := range map[string]*auth.SessionTokens{
		"with SessionTokens":    auth.NewSessionTokens(0),
		"without SessionTokens": nil, // binding is on whenever Require is
	} {
		t.Run(name, func(t *testing.T) {
			var logs syncbuf.Buffer
			url, _, _ := secProtected(t, sessions, &logs)
			alice := secOpen(t, url, "tok-alice-9f8e7d")

			for _, intruder := range []string{"tok-bob-1a2b3c", "tok-alice-other"} {
				resp, body := secDo(t, http.MethodPost, url, intruder, secCall, alice...)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s on alice's session: %s", intruder, body)
				assert.Contains(t, body, `"code":-31003`)
				assert.NotContains(t, body, "upstream ok")
				resp, _ = secDo(t, http.MethodGet, url, intruder, "", append(alice, "Accept", "text/event-stream")...)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s cannot open alice's GET stream", intruder)
				resp, _ = secDo(t, http.MethodDelete, url, intruder, "", alice...)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s cannot end alice's session", intruder)
			}

			resp, body := secDo(t, http.MethodPost, url, "tok-alice-9f8e7d", secCall, alice...)
			require.Equal(t, http.StatusOK, resp.StatusCode, "the session still works for alice: %s", body)
			assert.Contains(t, body, "upstream ok")
			resp, _ = secDo(t, http.MethodDelete, url, "tok-alice-9f8e7d", "", alice...)
			assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		})
	}
}

func TestASessionOpenedByATokenThatIdentifiesNoOneIsBoundToThatToken(t *testing.T) {
	var logs syncbuf.Buffer
	url, _, _ := secProtected(t, nil, &logs)
	anon := secOpen(t, url, "tok-anon-1111")
	for _, intruder := range []string{"tok-anon-2222", "tok-alice-9f8e7d"} {
		resp, body := secDo(t, http.MethodPost, url, intruder, secCall, anon...)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, "%s on the session of another token: %s", intruder, body)
		assert.NotContains(t, body, "upstream ok")
	}
	resp, body := secDo(t, http.MethodPost, url, "tok-anon-1111", secCall, anon...)
	require.Equal(t, http.StatusOK, resp.StatusCode, "the session still works for its token: %s", body)
	assert.Contains(t, body, "upstream ok")

	alice := secOpen(t, url, "tok-alice-9f8e7d")
	resp, body = secDo(t, http.MethodPost, url, "tok-anon-1111", secCall, alice...)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a token that identifies no one on alice's session: %s", body)
}

func TestTheBearerTokenGoesNowhereElse(t *testing.T) {
	var logs syncbuf.Buffer
	url, up, seen := secProtected(t, auth.NewSessionTokens(0), &logs)
	alice := secOpen(t, url, "tok-alice-9f8e7d")
	stateless := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"fetch","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	statelessHdr := []string{mcp.HeaderProtocolVersion, "2026-07-28", mcp.HeaderMethod, "tools/call", mcp.HeaderName, "fetch"}

	var transcript strings.Builder
	record := func(resp *http.Response, body string) {
		for k, vs := range resp.Header {
			transcript.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
		}
		transcript.WriteString(body + "\n")
	}
	tests := []struct {
		name, token, body string
		hdr               []string
		status            int
	}{
		{"a session call", "tok-alice-9f8e7d", secCall, alice, http.StatusOK},
		{"a stateless call", "tok-alice-9f8e7d", stateless, statelessHdr, http.StatusOK},
		{"another subject on the session", "tok-bob-1a2b3c", secCall, alice, http.StatusForbidden},
		{"a token without the scope", "tok-noscope-4d5e", stateless, statelessHdr, http.StatusForbidden},
		{"an expired token", "tok-expired-6f7a", stateless, statelessHdr, http.StatusUnauthorized},
		{"a token for another resource", "tok-foreign-8b9c", stateless, statelessHdr, http.StatusUnauthorized},
		{"an unknown token", "tok-unknown-5555", stateless, statelessHdr, http.StatusUnauthorized},
		{"a verifier failure", "tok-broken-0000", stateless, statelessHdr, http.StatusInternalServerError},
	}
	for _, tt := range tests {
		resp, body := secDo(t, http.MethodPost, url, tt.token, tt.body, tt.hdr...)
		assert.Equal(t, tt.status, resp.StatusCode, "%s: %s", tt.name, body)
		if tt.status == http.StatusOK {
			assert.Contains(t, body, "upstream ok", tt.name)
		}
		record(resp, body)
	}
	tokens := []string{"tok-alice-9f8e7d", "tok-bob-1a2b3c", "tok-noscope-4d5e", "tok-expired-6f7a", "tok-foreign-8b9c", "tok-unknown-5555", "tok-broken-0000"}
	for _, tok := range tokens {
		assert.NotContains(t, transcript.String(), tok, "a response carries a bearer token")
		assert.NotContains(t, logs.String(), tok, "a log line carries a bearer token")
	}
	assert.NotEmpty(t, logs.String(), "the servers did log (the capture works)")

	up.mu.Lock()
	defer up.mu.Unlock()
	require.Len(t, up.auth, 2, "the tool called the upstream once per admitted call")
	for _, a := range up.auth {
		assert.Empty(t, a, "the upstream got an Authorization header")
	}
	for _, a := range *seen {
		assert.Empty(t, a, "the MCP handler behind Require saw the Authorization header")
	}
}
