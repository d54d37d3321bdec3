package ratelimit_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
	"github.com/schemarpc/schemarpc/mcp/ratelimit"
	"github.com/schemarpc/schemarpc/rpc"
)

// The eras a client may speak.
var (
	handshakeEra = []string{mcp.Version20251125}
	statelessEra = []string{mcp.Version20260728}
)

// limitedServer is a server with tools "a" and "b" whose requests pass
// through l.
func limitedServer(t *testing.T, l *ratelimit.Limiter) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "limited", Version: "1"}, &mcp.ServerOptions{
		Middleware: []rpc.Middleware{l.Middleware()},
	})
	for _, name := range []string{"a", "b"} {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(name)}}, nil
			}))
	}
	return s
}

// overPipe connects a client of versions to s over an in-memory stream,
// as over stdio.
func overPipe(t *testing.T, s *mcp.Server, versions []string) *mcp.ClientSession {
	t.Helper()
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	return connect(t, &mcp.StreamTransport{Transport: cli}, versions)
}

// overHTTP connects a client of versions to s over Streamable HTTP;
// header is sent with every request.
func overHTTP(t *testing.T, url string, versions []string, header http.Header) *mcp.ClientSession {
	t.Helper()
	return connect(t, &mcp.StreamableHTTPTransport{URL: url, Header: header, DisableSSEFallback: true}, versions)
}

func connect(t *testing.T, tr mcp.ClientTransport, versions []string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: versions}).Connect(ctx, tr)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serveHTTP serves s on a test server; wrap (when not nil) goes around the
// MCP handler.
func serveHTTP(t *testing.T, s *mcp.Server, opts *mcp.HTTPOptions, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	var h http.Handler = mcp.NewStreamableHTTPHandler(s, opts)
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

func callTool(cs *mcp.ClientSession, name string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: json.RawMessage(`{}`)})
	return err
}

// twoPerHourOfA is the limiter of these tests: tool "a" twice an hour per
// client, on a clock that stands still.
func twoPerHourOfA(t *testing.T, key ratelimit.KeyFunc) *ratelimit.Limiter {
	t.Helper()
	l, err := ratelimit.New(ratelimit.Options{Now: newFakeClock().Now}, ratelimit.Quota(2, time.Hour).For("tools/call", "a").By(key))
	require.NoError(t, err)
	return l
}

// assertRefused checks that err is the refusal of tool "a"'s quota, and
// returns its HTTP status (0 when it did not come as one).
func assertRefused(t *testing.T, err error) int {
	t.Helper()
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, -32000, e.Code)
	wait, ok := rpc.RetryAfter(err)
	require.True(t, ok, "a retry hint: %v", err)
	assert.Equal(t, 30*time.Minute, wait)
	assert.JSONEq(t, `"tools/call \"a\": 2 per 1h0m0s"`, string(mustMember(t, e.Data, "limit")))
	var he *mcp.HTTPStatusError
	if errors.As(err, &he) {
		return he.StatusCode
	}
	return 0
}

func mustMember(t *testing.T, data json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(data, &m))
	return m[name]
}

func TestAToolQuotaInEachEraAndTransport(t *testing.T) {
	cases := []struct {
		name      string
		dial      func(t *testing.T, s *mcp.Server) *mcp.ClientSession
		status    int // of the refusal, 0 when it is not an HTTP status
		stateless bool
		sessions  bool
	}{
		{"handshake over stdio", func(t *testing.T, s *mcp.Server) *mcp.ClientSession {
			return overPipe(t, s, handshakeEra)
		}, 0, false, true},
		{"2026-07-28 over stdio", func(t *testing.T, s *mcp.Server) *mcp.ClientSession {
			return overPipe(t, s, statelessEra)
		}, 0, true, true},
		{"handshake over HTTP, JSON answers", func(t *testing.T, s *mcp.Server) *mcp.ClientSession {
			return overHTTP(t, serveHTTP(t, s, &mcp.HTTPOptions{JSONResponse: true}, nil), handshakeEra, nil)
		}, http.StatusTooManyRequests, false, true},
		{"handshake over HTTP, SSE answers", func(t *testing.T, s *mcp.Server) *mcp.ClientSession {
			return overHTTP(t, serveHTTP(t, s, nil, nil), handshakeEra, nil)
		}, 0, false, true},
		{"2026-07-28 over HTTP", func(t *testing.T, s *mcp.Server) *mcp.ClientSession {
			return overHTTP(t, serveHTTP(t, s, nil, nil), statelessEra, nil)
		}, http.StatusTooManyRequests, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := limitedServer(t, twoPerHourOfA(t, ratelimit.BySession))
			cs := c.dial(t, s)
			require.Equal(t, c.stateless, cs.Stateless())
			require.NoError(t, callTool(cs, "a"))
			require.NoError(t, callTool(cs, "a"))
			assert.Equal(t, c.status, assertRefused(t, callTool(cs, "a")))
			assert.Equal(t, c.status, assertRefused(t, callTool(cs, "a")), "refused again")
			require.NoError(t, callTool(cs, "b"), "tool b has no limit")

			// A second client: a session of its own, or over 2026-07-28
			// HTTP, the same address.
			other := c.dial(t, s)
			err := callTool(other, "a")
			if c.sessions {
				assert.NoError(t, err, "another session has its own quota")
			} else {
				assertRefused(t, err)
			}
		})
	}
}

func TestARefusedStatelessHTTPRequestGets429WithRetryAfter(t *testing.T) {
	s := limitedServer(t, twoPerHourOfA(t, ratelimit.Everyone))
	url := serveHTTP(t, s, nil, nil)
	post := func() *http.Response {
		body := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a","arguments":{},` +
			`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set(mcp.HeaderProtocolVersion, mcp.Version20260728)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "a")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for range 2 {
		require.Equal(t, http.StatusOK, post().StatusCode)
	}
	resp := post()
	require.Equal(t, http.StatusTooManyRequests, resp.StatusCode)
	assert.Equal(t, "1800", resp.Header.Get("Retry-After"))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	var msg struct {
		ID    int        `json:"id"`
		Error *rpc.Error `json:"error"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&msg))
	assert.Equal(t, 7, msg.ID)
	require.NotNil(t, msg.Error)
	assert.Equal(t, -32000, msg.Error.Code)
	assert.JSONEq(t, `{"retryAfterMs":1800000,"limit":"tools/call \"a\": 2 per 1h0m0s"}`, string(msg.Error.Data))
}

func TestAQuotaPerSubject(t *testing.T) {
	for _, era := range [][]string{handshakeEra, statelessEra} {
		t.Run(era[0], func(t *testing.T) {
			// A stand-in for auth.Require: the token's subject is the
			// X-Who header.
			fakeAuth := func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					next.ServeHTTP(w, r.WithContext(auth.WithTokenInfo(r.Context(), &auth.TokenInfo{Subject: r.Header.Get("X-Who")})))
				})
			}
			url := serveHTTP(t, limitedServer(t, twoPerHourOfA(t, ratelimit.BySubject)), &mcp.HTTPOptions{JSONResponse: true}, fakeAuth)
			ada := overHTTP(t, url, era, http.Header{"X-Who": {"ada"}})
			adaAgain := overHTTP(t, url, era, http.Header{"X-Who": {"ada"}})
			bob := overHTTP(t, url, era, http.Header{"X-Who": {"bob"}})
			require.NoError(t, callTool(ada, "a"))
			require.NoError(t, callTool(adaAgain, "a"))
			assertRefused(t, callTool(ada, "a"))
			assertRefused(t, callTool(adaAgain, "a"))
			assert.NoError(t, callTool(bob, "a"))
		})
	}
}

func TestAQuotaPerRemoteAddress(t *testing.T) {
	// A stand-in for distinct hosts: the test client names its address.
	fakeAddr := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			r.RemoteAddr = r.Header.Get("X-Addr")
			next.ServeHTTP(w, r)
		})
	}
	url := serveHTTP(t, limitedServer(t, twoPerHourOfA(t, ratelimit.ByRemoteAddr)), nil, fakeAddr)
	one := overHTTP(t, url, statelessEra, http.Header{"X-Addr": {"192.0.2.1:1000"}})
	samePort := overHTTP(t, url, statelessEra, http.Header{"X-Addr": {"192.0.2.1:2000"}})
	two := overHTTP(t, url, statelessEra, http.Header{"X-Addr": {"192.0.2.2:1000"}})
	require.NoError(t, callTool(one, "a"))
	require.NoError(t, callTool(samePort, "a"))
	assertRefused(t, callTool(one, "a"))
	assert.NoError(t, callTool(two, "a"))
}

func TestNotificationsFlowPastAnExhaustedLimit(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Options{}, ratelimit.Quota(1, time.Hour).By(ratelimit.Everyone))
	require.NoError(t, err)
	var notes atomic.Int32
	count := func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			if req.IsNotification() {
				notes.Add(1)
			}
			return next.Handle(ctx, req)
		})
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "limited", Version: "1"}, &mcp.ServerOptions{
		Middleware: []rpc.Middleware{l.Middleware(), count},
	})
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	c := rpc.NewConn(cli)
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, c.Call(ctx, "initialize", map[string]any{
		"protocolVersion": mcp.Version20251125, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"},
	}, nil))
	// The one request of the hour is spent: every request is refused now,
	// notifications still arrive.
	_, ok := rpc.RetryAfter(c.Call(ctx, "ping", nil, nil))
	require.True(t, ok)
	require.NoError(t, c.Notify(ctx, "notifications/initialized", nil))
	require.NoError(t, c.Notify(ctx, "notifications/cancelled", map[string]any{"requestId": 99}))
	// Notifications run on their own: wait for them to get past.
	assert.Eventually(t, func() bool { return notes.Load() == 2 }, 5*time.Second, 5*time.Millisecond)
}

func TestAClientLimitsWhatAServerAsksOfIt(t *testing.T) {
	l, err := ratelimit.New(ratelimit.Options{}, ratelimit.Quota(2, time.Hour).For("ping", "").By(ratelimit.Everyone))
	require.NoError(t, err)
	s := mcp.NewServer(&mcp.Implementation{Name: "pinger", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "ping3", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var errs []string
			for range 3 {
				if err := req.Session.Ping(ctx); err != nil {
					errs = append(errs, err.Error())
				}
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(strings.Join(errs, "; "))}}, nil
		}))
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProtocolVersions: handshakeEra, Middleware: []rpc.Middleware{l.Middleware()},
	}).Connect(ctx, &mcp.StreamTransport{Transport: cli})
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "ping3", Arguments: json.RawMessage(`{}`)})
	require.NoError(t, err)
	text, _ := json.Marshal(res.Content[0])
	assert.Contains(t, string(text), "rate limit exceeded", "the third ping was refused")
	assert.NotContains(t, string(text), ";", "only the third")
}
