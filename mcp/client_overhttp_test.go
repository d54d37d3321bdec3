package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// httpServer serves s over Streamable HTTP on 127.0.0.1 and returns its URL.
func httpServer(t *testing.T, s *mcp.Server) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(s, nil)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		s.CloseSubscriptions()
		h.Close()
		ts.Close()
	})
	return ts.URL
}

// Over Streamable HTTP the client finds the era like on a stream, in both
// directions of the choice, and every kind of call works.
func TestClientOverStreamableHTTPInBothEras(t *testing.T) {
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125, mcp.Version20250326} {
		t.Run(v, func(t *testing.T) {
			srv := askingServer(t)
			url := httpServer(t, srv)
			opts := handlersOptions(v)
			s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: url})
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, v, s.ProtocolVersion())
			var names []string
			for tool, err := range s.Tools(bg(t)) {
				require.NoError(t, err)
				names = append(names, tool.Name)
			}
			assert.Equal(t, []string{"echo", "book"}, names)
			res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
			require.NoError(t, err)
			assert.Equal(t, "hi", toolText(t, res))
			if v == mcp.Version20250326 {
				return // no elicitation before 2025-06-18
			}
			res, err = s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "book"})
			require.NoError(t, err)
			assert.Contains(t, toolText(t, res), `accept "Ada"|42|`)
		})
	}
}

// A server of handshake versions only, over HTTP: the probe's error sends
// the client to initialize; the second connection to the same URL skips
// the probe.
func TestClientOverHTTPFindsAHandshakeServer(t *testing.T) {
	url := httpServer(t, newServer(t, &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20251125}}))
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	for range 2 {
		s, err := c.Connect(bg(t), &mcp.StreamableHTTPTransport{URL: url})
		require.NoError(t, err)
		assert.False(t, s.Stateless())
		assert.Equal(t, mcp.Version20251125, s.ProtocolVersion())
		require.NoError(t, s.Ping(bg(t)))
		require.NoError(t, s.Close())
	}
}

// Progress, logs, cancellation and Listen over stateless HTTP.
func TestClientOverStatelessHTTPNotifications(t *testing.T) {
	srv, stopped := blockingServer(t)
	require.NoError(t, srv.AddTool(&mcp.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for _, p := range []float64{1, 2} {
				require.NoError(t, req.Progress(ctx, p, 2, ""))
			}
			require.NoError(t, req.Log(ctx, "warning", "t", "careful"))
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	url := httpServer(t, srv)
	logs := make(chan string, 4)
	changed := make(chan string, 4)
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{
		OnLog:              func(_ context.Context, p *mcp.LoggingMessageNotificationParams) { logs <- string(p.Data) },
		OnToolsListChanged: func(context.Context) { changed <- "tools" },
	}).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: url})
	require.NoError(t, err)
	defer s.Close()
	require.True(t, s.Stateless())
	require.NoError(t, s.SetLoggingLevel(bg(t), "info"))
	var mu sync.Mutex
	var progress []float64
	_, err = s.CallTool(mcp.WithProgressHandler(bg(t), func(p *mcp.ProgressNotificationParams) {
		mu.Lock()
		progress = append(progress, p.Progress)
		mu.Unlock()
	}), &mcp.CallToolRequestParams{Name: "work"})
	require.NoError(t, err)
	mu.Lock()
	assert.Equal(t, []float64{1, 2}, progress)
	mu.Unlock()
	assert.Equal(t, `"careful"`, receive(t, logs))

	ctx, cancel := context.WithTimeout(bg(t), 100*time.Millisecond)
	defer cancel()
	_, err = s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "wait"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	receive(t, stopped) // the server saw its stream close

	acked := make(chan mcp.ListenFilter, 1)
	done := make(chan error, 1)
	go func() {
		done <- s.Listen(bg(t), &mcp.ListenFilter{ToolsListChanged: true, Acknowledged: func(h mcp.ListenFilter) { acked <- h }})
	}()
	receive(t, acked)
	require.NoError(t, srv.AddTool(&mcp.Tool{Name: "new", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	assert.Equal(t, "tools", receive(t, changed))
	srv.CloseSubscriptions()
	assert.NoError(t, receive(t, done))
}

// A notification's handler may ask the client and wait for the answer,
// which comes in another POST: over HTTP the notification must not hold up
// the session's other input meanwhile.
func TestANotificationHandlerThatAsksTheClientOverHTTPGetsItsAnswer(t *testing.T) {
	got := make(chan string, 1)
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
		RootsListChanged: func(ctx context.Context, ss *mcp.ServerSession) {
			r, err := ss.ListRoots(ctx)
			if err != nil {
				got <- "error: " + err.Error()
				return
			}
			got <- r.Roots[len(r.Roots)-1].URI
		},
	})
	url := httpServer(t, srv)
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, handlersOptions(mcp.Version20251125)).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: url})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.NotifyRootsListChanged(bg(t)))
	select {
	case uri := <-got:
		assert.Equal(t, "file:///b", uri)
	case <-time.After(30 * time.Second):
		t.Fatal("the handler never got the client's answer")
	}
}
