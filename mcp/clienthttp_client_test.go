package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// End to end: mcp.Client over the HTTP transports.

// chClientText returns the first text block of a tool result.
func chClientText(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	raw, err := json.Marshal(res)
	require.NoError(t, err)
	return chToolText(t, raw)
}

func TestClientOverStreamableHTTPSpeaks20260728WithOurServer(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		o := chOurServer(t, &mcp.HTTPOptions{JSONResponse: jsonResponse})
		c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
		s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: o.ts.URL})
		require.NoError(t, err)
		assert.True(t, s.Stateless())
		assert.Equal(t, mcp.Version20260728, s.ProtocolVersion())

		_, err = s.ListTools(chCtx(t), nil)
		require.NoError(t, err)
		res, err := s.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "geo", Arguments: json.RawMessage(`{"region":"Ünterland"}`)})
		require.NoError(t, err)
		assert.Equal(t, "region Ünterland", chClientText(t, res))

		ctx, cancel := context.WithCancel(chCtx(t))
		go func() {
			<-o.started
			cancel()
		}()
		_, err = s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "block"})
		require.ErrorIs(t, err, context.Canceled)
		select {
		case <-o.ended:
		case <-time.After(chTimeout):
			t.Fatal("the server did not see the call cancelled")
		}
		require.NoError(t, s.Close())
		assert.Zero(t, o.rec.count(http.MethodGet))
	}
}

func TestClientOverStreamableHTTPRunsAHandshakeSessionWithOurServer(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		o := chOurServer(t, &mcp.HTTPOptions{JSONResponse: jsonResponse, RetryInterval: 30 * time.Millisecond})
		changed := make(chan struct{}, 4)
		c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
			ProtocolVersions: []string{mcp.Version20251125},
			ListRoots: func(ctx context.Context) (*mcp.ListRootsResult, error) {
				return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///e2e"}}}, nil
			},
			OnToolsListChanged: func(ctx context.Context) { changed <- struct{}{} },
		})
		s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: o.ts.URL})
		require.NoError(t, err)
		assert.False(t, s.Stateless())
		assert.Equal(t, mcp.Version20251125, s.ProtocolVersion())

		res, err := s.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "roots"})
		require.NoError(t, err)
		assert.Equal(t, "1 roots, first file:///e2e", chClientText(t, res))
		res, err = s.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "poll"})
		require.NoError(t, err)
		if jsonResponse {
			assert.Equal(t, "not closed", chClientText(t, res), "a JSON answer has no stream to close")
		} else {
			assert.Equal(t, "polled", chClientText(t, res), "the client resumed the stream the server closed")
		}

		require.Eventually(t, func() bool { return o.rec.count(http.MethodGet) > 0 }, chTimeout, 5*time.Millisecond)
		require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
		select {
		case <-changed:
		case <-time.After(chTimeout):
			t.Fatal("the list change did not arrive on the GET stream")
		}

		require.NoError(t, s.Close())
		require.Eventually(t, func() bool { return mcp.SessionCountForTest(o.h) == 0 }, chTimeout, 5*time.Millisecond)
	}
}

func TestClientOverStreamableHTTPSeesTheSessionExpire(t *testing.T) {
	o := chOurServer(t, nil)
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20250618}})
	s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: o.ts.URL})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Ping(chCtx(t)))
	for _, ss := range o.s.Sessions() {
		ss.Close()
	}
	err = s.Ping(chCtx(t))
	require.ErrorIs(t, err, mcp.ErrSessionExpired)
	var expired *mcp.SessionExpiredError
	require.True(t, errors.As(err, &expired))
	assert.NotEmpty(t, expired.SessionID)
}

func TestClientOverStreamableHTTPFallsBackToAnHTTPPlusSSEServer(t *testing.T) {
	old := newChOld(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: old.ts.URL + "/mcp"})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, mcp.Version20241105, s.ProtocolVersion())
	res, err := s.ListTools(chCtx(t), nil)
	require.NoError(t, err)
	require.Len(t, res.Tools, 1)
	assert.Equal(t, "t", res.Tools[0].Name)
}

func TestClientOverSSETransport(t *testing.T) {
	old := newChOld(t)
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	s, err := c.Connect(chCtx(t), &mcp.SSETransport{URL: old.ts.URL + "/mcp"})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, mcp.Version20241105, s.ProtocolVersion())
	require.NoError(t, s.Ping(chCtx(t)))
}

// The conformance suite's sse-retry scenario, end to end: a server that
// primes the call's stream with retry: 500 and closes it; the client takes
// the result from a GET with Last-Event-ID about half a second later.
func TestClientOverStreamableHTTPPassesTheSSERetryScenario(t *testing.T) {
	var mu sync.Mutex
	var closedAt, resumedAt time.Time
	var callID json.RawMessage
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			mu.Lock()
			id := callID
			mu.Unlock()
			if r.Header.Get("Last-Event-ID") != "prime-1" || id == nil {
				http.Error(w, "", http.StatusMethodNotAllowed)
				return
			}
			mu.Lock()
			resumedAt = time.Now()
			mu.Unlock()
			startEvents(w)("id: 2\nevent: message\ndata: " + chResult(id, `{"content":[{"type":"text","text":"Reconnection test completed"}]}`) + "\n\n")
			return
		}
		m := readFakeMsg(r)
		switch {
		case m.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case m.Method == "initialize":
			writeJSON(w, http.StatusOK, chResult(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"sse-retry","version":"1"}}`))
		case m.Method == "tools/call":
			mu.Lock()
			callID = m.ID
			mu.Unlock()
			startEvents(w)("id: prime-1\nretry: 500\ndata: \n\n")
			mu.Lock()
			closedAt = time.Now()
			mu.Unlock()
		default:
			writeJSON(w, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: no session"}}`)
		}
	}))
	c := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: ts.URL})
	require.NoError(t, err)
	defer s.Close()
	assert.Equal(t, mcp.Version20251125, s.ProtocolVersion())
	res, err := s.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "test_reconnection"})
	require.NoError(t, err)
	assert.Equal(t, "Reconnection test completed", chClientText(t, res))
	mu.Lock()
	defer mu.Unlock()
	delay := resumedAt.Sub(closedAt)
	assert.GreaterOrEqual(t, delay, 450*time.Millisecond)
	assert.Less(t, delay, 700*time.Millisecond)
}
