package mcp_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// blockingServer has a tool "wait" that blocks until its call is
// cancelled, reporting the cancellation on the returned channel.
func blockingServer(t *testing.T) (*mcp.Server, <-chan struct{}) {
	s := newServer(t, nil)
	stopped := make(chan struct{}, 1)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-ctx.Done():
				stopped <- struct{}{}
				return nil, ctx.Err()
			case <-time.After(5 * time.Second):
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
			}
		}))
	return s, stopped
}

// A call whose context ends is cancelled: on a stream, in both eras, the
// server gets notifications/cancelled with the request's id and stops.
func TestAnAbandonedCallIsCancelled(t *testing.T) {
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(v, func(t *testing.T) {
			s, stopped := blockingServer(t)
			f := connect(t, s, versionOptions(v))
			ctx, cancel := context.WithTimeout(bg(t), 100*time.Millisecond)
			defer cancel()
			_, err := f.session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "wait"})
			assert.ErrorIs(t, err, context.DeadlineExceeded)
			receive(t, stopped)
			call := f.wire.requests("tools/call")[0]
			cancels := f.wire.requests("notifications/cancelled")
			require.Len(t, cancels, 1)
			assert.Equal(t, call["id"], cancels[0]["params"].(map[string]any)["requestId"])
			// The session goes on.
			_, err = f.session.ListTools(bg(t), nil)
			require.NoError(t, err)
		})
	}
}

// A response that comes after the call was abandoned is ignored.
func TestALateResponseIsIgnored(t *testing.T) {
	release := make(chan struct{})
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "initialize":
			return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`), nil
		case "tools/call":
			<-release
			return json.RawMessage(`{"content":[{"type":"text","text":"late"}]}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[]}`), nil
		}
		return nil, nil
	})
	s, err := mcp.NewClient(nil, versionOptions(mcp.Version20251125)).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithTimeout(bg(t), 50*time.Millisecond)
	defer cancel()
	_, err = s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "slow"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	close(release)
	res, err := s.ListTools(bg(t), nil)
	require.NoError(t, err)
	assert.Empty(t, res.Tools)
	assert.Contains(t, log.methods(), "notifications/cancelled")
}

// initialize is never cancelled, nor an unanswered discovery probe.
func TestConnectingIsNeverCancelled(t *testing.T) {
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		time.Sleep(200 * time.Millisecond)
		return nil, nil
	})
	ctx, cancel := context.WithTimeout(bg(t), 100*time.Millisecond)
	defer cancel()
	_, err := mcp.NewClient(nil, &mcp.ClientOptions{DiscoverTimeout: 30 * time.Millisecond}).Connect(ctx, tr)
	require.Error(t, err)
	assert.Equal(t, []string{"server/discover", "initialize"}, log.methods())
}

// Progress of a call reaches the handler of its context and OnProgress,
// in both eras.
func TestProgressReachesItsCall(t *testing.T) {
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "work", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					for _, p := range []float64{1, 2, 3} {
						require.NoError(t, req.Progress(ctx, p, 3, "step"))
					}
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
				}))
			var mu sync.Mutex
			var all []float64
			opts := versionOptions(v)
			opts.OnProgress = func(_ context.Context, p *mcp.ProgressNotificationParams) {
				mu.Lock()
				all = append(all, p.Progress)
				mu.Unlock()
			}
			f := connect(t, s, opts)
			var mine []float64
			ctx := mcp.WithProgressHandler(bg(t), func(p *mcp.ProgressNotificationParams) {
				mu.Lock()
				mine = append(mine, p.Progress)
				mu.Unlock()
			})
			_, err := f.session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "work"})
			require.NoError(t, err)
			// The call's own handler has everything when the call
			// returns; OnProgress gets the same, in order, soon after.
			mu.Lock()
			assert.Equal(t, []float64{1, 2, 3}, mine)
			mu.Unlock()
			assert.Eventually(t, func() bool {
				mu.Lock()
				defer mu.Unlock()
				return len(all) == 3
			}, 5*time.Second, 5*time.Millisecond)
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, []float64{1, 2, 3}, all)
			meta := f.wire.requests("tools/call")[0]["params"].(map[string]any)["_meta"].(map[string]any)
			assert.NotEmpty(t, meta["progressToken"])
		})
	}
}

// Log messages reach OnLog: a session's level is set with
// logging/setLevel; a stateless session sends its level with every request.
func TestLogMessagesFollowTheLevel(t *testing.T) {
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "chatty", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					require.NoError(t, req.Log(ctx, "debug", "t", "quiet"))
					require.NoError(t, req.Log(ctx, "warning", "t", "loud"))
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
				}))
			logs := make(chan string, 4)
			opts := versionOptions(v)
			opts.OnLog = func(_ context.Context, p *mcp.LoggingMessageNotificationParams) { logs <- string(p.Data) }
			f := connect(t, s, opts)
			_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "chatty"})
			require.NoError(t, err)
			require.NoError(t, f.session.SetLoggingLevel(bg(t), "info"))
			_, err = f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "chatty"})
			require.NoError(t, err)
			assert.Equal(t, `"loud"`, receive(t, logs))
			select {
			case extra := <-logs:
				t.Errorf("unexpected log %s", extra)
			case <-time.After(50 * time.Millisecond):
			}
			if v == mcp.Version20260728 {
				calls := f.wire.requests("tools/call")
				assert.NotContains(t, calls[0]["params"].(map[string]any)["_meta"], "io.modelcontextprotocol/logLevel")
				assert.Equal(t, "info", calls[1]["params"].(map[string]any)["_meta"].(map[string]any)["io.modelcontextprotocol/logLevel"])
				assert.NotContains(t, f.wire.methods(), "logging/setLevel")
			}
		})
	}
}

// A handshake session hears of list changes through the OnX handlers.
func TestListChangesReachTheHandlersInASession(t *testing.T) {
	s := newServer(t, nil)
	changed := make(chan string, 4)
	opts := versionOptions(mcp.Version20251125)
	opts.OnToolsListChanged = func(context.Context) { changed <- "tools" }
	connect(t, s, opts)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "new", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	assert.Equal(t, "tools", receive(t, changed))
}

// A 2026-07-28 listen is acknowledged, delivers the changes it asked for
// to the OnX handlers, and returns nil when the server ends it.
func TestListenDeliversChangesUntilTheServerEndsIt(t *testing.T) {
	srv := richServer(t)
	changed := make(chan string, 8)
	opts := &mcp.ClientOptions{
		OnToolsListChanged: func(context.Context) { changed <- "tools" },
		OnResourceUpdated:  func(_ context.Context, p *mcp.ResourceUpdatedNotificationParams) { changed <- "updated " + p.URI },
	}
	f := connect(t, srv, opts)
	acked := make(chan mcp.ListenFilter, 1)
	done := make(chan error, 1)
	go func() {
		done <- f.session.Listen(bg(t), &mcp.ListenFilter{ToolsListChanged: true, PromptsListChanged: true,
			ResourceSubscriptions: []string{"test://r/1"}, Acknowledged: func(h mcp.ListenFilter) { acked <- h }})
	}()
	honoured := receive(t, acked)
	assert.True(t, honoured.ToolsListChanged)
	assert.True(t, honoured.PromptsListChanged)
	assert.Equal(t, []string{"test://r/1"}, honoured.ResourceSubscriptions)
	require.NoError(t, srv.AddTool(&mcp.Tool{Name: "new", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	assert.Equal(t, "tools", receive(t, changed))
	srv.ResourceUpdated(bg(t), "test://r/1")
	assert.Equal(t, "updated test://r/1", receive(t, changed))
	srv.CloseSubscriptions()
	assert.NoError(t, receive(t, done))
}

// A listen whose context ends returns the context's error; on a stream the
// server is told with notifications/cancelled.
func TestListenEndsWithItsContext(t *testing.T) {
	f := connect(t, richServer(t), nil)
	ctx, cancel := context.WithCancel(bg(t))
	acked := make(chan mcp.ListenFilter, 1)
	done := make(chan error, 1)
	go func() {
		done <- f.session.Listen(ctx, &mcp.ListenFilter{ToolsListChanged: true, Acknowledged: func(h mcp.ListenFilter) { acked <- h }})
	}()
	receive(t, acked)
	cancel()
	assert.ErrorIs(t, receive(t, done), context.Canceled)
	listen := f.wire.requests("subscriptions/listen")[0]
	cancels := f.wire.requests("notifications/cancelled")
	require.Len(t, cancels, 1)
	assert.Equal(t, listen["id"], cancels[0]["params"].(map[string]any)["requestId"])
}

// A stateless server may end a listen on a stream with
// notifications/cancelled naming it; Listen returns nil.
func TestListenEndsWhenTheServerCancelsIt(t *testing.T) {
	tr, _ := fakeServerConn(t)
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), tr.transport)
	require.NoError(t, err)
	defer s.Close()
	done := make(chan error, 1)
	go func() { done <- s.Listen(bg(t), &mcp.ListenFilter{ToolsListChanged: true}) }()
	id := receive(t, tr.listenIDs)
	require.NoError(t, tr.conn.Notify(bg(t), "notifications/cancelled", map[string]any{"requestId": id, "reason": "shutting down"}))
	assert.NoError(t, receive(t, done))
}

// Over 2026-07-28 HTTP, cancelling is the link's business (closing the
// request's stream): no notifications/cancelled is sent.
func TestNoCancelNotificationOverStatelessHTTP(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	tr, log := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		if method == "server/discover" {
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private"}`), nil
		}
		<-release
		return nil, nil
	})
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), mcp.FakeHTTPTransport(tr.Transport))
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithTimeout(bg(t), 50*time.Millisecond)
	defer cancel()
	_, err = s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "slow"})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.NotContains(t, log.methods(), "notifications/cancelled")
}

// The server's notifications/cancelled stops the handler serving its
// request.
func TestTheServerCanCancelItsRequest(t *testing.T) {
	srvEnd, cliEnd := rpc.NewPipe()
	server := rpc.NewConn(srvEnd, rpc.WithHandler(rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}`), nil
	})))
	defer server.Close()
	started := make(chan struct{})
	handlerStopped := make(chan error, 1)
	c := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125},
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			close(started)
			<-ctx.Done()
			handlerStopped <- ctx.Err()
			return nil, ctx.Err()
		}})
	s, err := c.Connect(bg(t), &mcp.StreamTransport{Transport: cliEnd})
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithCancel(bg(t))
	defer cancel()
	go server.Call(ctx, "elicitation/create", map[string]any{"message": "?", "requestedSchema": map[string]any{"type": "object", "properties": map[string]any{}}}, nil)
	receive(t, started)
	// The server connection's first request has id 1.
	require.NoError(t, server.Notify(bg(t), "notifications/cancelled", map[string]any{"requestId": 1, "reason": "never mind"}))
	assert.ErrorIs(t, receive(t, handlerStopped), context.Canceled)
}

// notifications/elicitation/complete (2025-11-25) reaches
// OnElicitationComplete.
func TestElicitationCompleteReachesItsHandler(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "done", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			require.NoError(t, req.Session.ElicitationComplete(ctx, "el-1"))
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	completed := make(chan string, 1)
	f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}, ElicitURL: true,
		Elicit: func(context.Context, *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "cancel"}, nil
		},
		OnElicitationComplete: func(_ context.Context, p *mcp.ElicitationCompleteNotificationParams) { completed <- p.ElicitationID }})
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "done"})
	require.NoError(t, err)
	assert.Equal(t, "el-1", receive(t, completed))
}
