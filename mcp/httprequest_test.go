package mcp_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// probeTool answers with the X-Probe header and the remote address of the
// HTTP request its call arrived on, "none" without one.
func probeTool(t *testing.T, s *mcp.Server) {
	t.Helper()
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "probe", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r := rpc.HTTPRequestFromContext(ctx)
			if r == nil {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("none")}}, nil
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(r.Header.Get("X-Probe") + " " + r.RemoteAddr)}}, nil
		}))
}

func TestHandlersSeeTheHTTPRequestTheirCallCameIn(t *testing.T) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		t.Run(version, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			probeTool(t, s)
			f := newServerFixture(t, s, nil)
			c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{version}})
			cs, err := c.Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: f.ts.URL, Header: http.Header{"X-Probe": {"seen"}}})
			require.NoError(t, err)
			defer cs.Close()
			for range 2 { // each call, not only the first POST of a session
				res, err := cs.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "probe", Arguments: json.RawMessage(`{}`)})
				require.NoError(t, err)
				require.Len(t, res.Content, 1)
				b, err := json.Marshal(res.Content[0])
				require.NoError(t, err)
				var text struct{ Text string }
				require.NoError(t, json.Unmarshal(b, &text))
				assert.True(t, strings.HasPrefix(text.Text, "seen 127.0.0.1:"), text.Text)
			}
		})
	}
}

func TestHandlersOnAStreamHaveNoHTTPRequest(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	probeTool(t, s)
	a, b := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, a)
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamTransport{Transport: b})
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "probe", Arguments: json.RawMessage(`{}`)})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	assert.Contains(t, string(must(json.Marshal(res.Content[0]))), `"none"`)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestANotificationHandlerSeesTheHTTPRequestItCameIn(t *testing.T) {
	seen := make(chan string, 1)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{
		Initialized: func(ctx context.Context, ss *mcp.ServerSession) {
			probe := "none"
			if r := rpc.HTTPRequestFromContext(ctx); r != nil {
				probe = r.Header.Get("X-Probe")
			}
			seen <- probe
		},
	})
	f := newServerFixture(t, s, nil)
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: f.ts.URL, Header: http.Header{"X-Probe": {"notified"}}})
	require.NoError(t, err)
	defer cs.Close()
	select {
	case got := <-seen:
		assert.Equal(t, "notified", got, "notifications/initialized came in a POST of its own")
	case <-time.After(10 * time.Second):
		t.Fatal("notifications/initialized was not handled")
	}
}
