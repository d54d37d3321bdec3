package mcpotel_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

const (
	headerTrace = "00-11111111111111111111111111111111-2222222222222222-01"
	metaTrace   = "00-33333333333333333333333333333333-4444444444444444-01"
)

// postStateless POSTs one 2026-07-28 tools/call of echo to the server at
// url, with meta added to its _meta and header as its traceparent header
// (each skipped when empty).
func postStateless(t *testing.T, url, traceparentMeta, traceparentHeader string) {
	t.Helper()
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
		"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "raw", "version": "1"},
	}
	if traceparentMeta != "" {
		meta["traceparent"] = traceparentMeta
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call",
		"params": map[string]any{"name": "echo", "arguments": map[string]any{}, "_meta": meta}})
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(bounded(t), http.MethodPost, url, strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set(mcp.HeaderProtocolVersion, mcp.Version20260728)
	req.Header.Set(mcp.HeaderMethod, "tools/call")
	req.Header.Set(mcp.HeaderName, "echo")
	if traceparentHeader != "" {
		req.Header.Set("traceparent", traceparentHeader)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	require.Equal(t, http.StatusOK, resp.StatusCode, string(b))
	require.Contains(t, string(b), `"result"`)
}

func TestServerSpanParentFromMetaHeaderOrBothWithALink(t *testing.T) {
	tests := []struct {
		name         string
		meta, header string
		parent       string // trace id of the parent
		link         string // trace id of the link, "" for none
	}{
		{name: "header only", header: headerTrace, parent: "11111111111111111111111111111111"},
		{name: "_meta only", meta: metaTrace, parent: "33333333333333333333333333333333"},
		{name: "both: _meta wins, the header is a link", meta: metaTrace, header: headerTrace,
			parent: "33333333333333333333333333333333", link: "11111111111111111111111111111111"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tm := newTelemetry(t)
			ts := httptest.NewServer(mcp.NewStreamableHTTPHandler(tm.newServer(t), nil))
			t.Cleanup(ts.Close)
			postStateless(t, ts.URL, tt.meta, tt.header)
			s := tm.waitSpan(t, trace.SpanKindServer, "tools/call echo")
			assert.Equal(t, tt.parent, s.Parent().TraceID().String())
			assert.Equal(t, tt.parent, s.SpanContext().TraceID().String())
			if tt.link == "" {
				assert.Empty(t, s.Links())
			} else {
				require.Len(t, s.Links(), 1)
				assert.Equal(t, tt.link, s.Links()[0].SpanContext.TraceID().String())
			}
			assert.Equal(t, mcp.Version20260728, attrs(s)["mcp.protocol.version"])
		})
	}
}

func TestJSONRPCErrorCodesOnSpansAndMetrics(t *testing.T) {
	tm := newTelemetry(t)
	srvEnd, cliEnd := rpc.NewPipe()
	s := tm.newServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Serve(ctx, srvEnd)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	conn := rpc.NewConn(cliEnd)
	t.Cleanup(func() { conn.Close() })
	require.NoError(t, conn.Call(bounded(t), "initialize", json.RawMessage(fmt.Sprintf(
		`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}`, mcp.Version20251125)), nil))
	require.NoError(t, conn.Notify(bounded(t), "notifications/initialized", nil))

	var rerr *rpc.Error
	require.ErrorAs(t, conn.Call(bounded(t), "made/up", nil, nil), &rerr)
	require.Equal(t, -32601, rerr.Code)
	require.ErrorAs(t, conn.Call(bounded(t), "tools/call", map[string]any{"name": 5}, nil), &rerr)
	require.Equal(t, -32602, rerr.Code)

	for name, code := range map[string]string{"made/up": "-32601", "tools/call": "-32602"} {
		sp := tm.waitSpan(t, trace.SpanKindServer, name)
		a := attrs(sp)
		assert.Equal(t, code, a["rpc.response.status_code"], name)
		assert.Equal(t, code, a["error.type"], name)
		assert.Equal(t, codes.Error, sp.Status().Code, name)
		assert.NotEmpty(t, sp.Status().Description, name)
	}
	// Errors by code are one query away; an unknown method is _OTHER.
	assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"mcp.method.name": "_OTHER", "rpc.response.status_code": "-32601", "error.type": "-32601"}))
	assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"mcp.method.name": "tools/call", "error.type": "-32602"}))
	assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"mcp.method.name": "initialize", "error.type": ""}))
}

func TestInFlightRequestsReturnToZero(t *testing.T) {
	for _, version := range eras {
		t.Run(version, func(t *testing.T) {
			tm := newTelemetry(t)
			s := tm.newServer(t)
			release := make(chan struct{})
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "wait", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					select {
					case <-release:
					case <-ctx.Done():
					}
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
				}))
			cs := tm.connect(t, s, "http", version)
			errc := make(chan error, 1)
			go func() {
				_, err := cs.CallTool(bounded(t), &mcp.CallToolRequestParams{Name: "wait"})
				errc <- err
			}()
			require.Eventually(t, func() bool {
				return tm.value(t, mcpotel.MetricServerActive, nil) == 1 && tm.value(t, mcpotel.MetricClientActive, nil) == 1
			}, 5*time.Second, 5*time.Millisecond)
			close(release)
			require.NoError(t, <-errc)
			require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricServerActive, nil) == 0 }, 5*time.Second, 5*time.Millisecond)
			assert.Equal(t, 0.0, tm.value(t, mcpotel.MetricClientActive, nil))
		})
	}
}

func TestSessionsCountFromInitializeToTheirEnd(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport, func(t *testing.T) {
			tm := newTelemetry(t)
			cs := tm.connect(t, tm.newServer(t), transport, mcp.Version20251125)
			require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricActiveSessions, nil) == 1 }, 5*time.Second, 5*time.Millisecond)
			assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricActiveSessions, map[string]string{"mcp.protocol.version": mcp.Version20251125}))
			assert.Equal(t, 0.0, tm.value(t, mcpotel.MetricSessionDuration, nil))
			require.NoError(t, cs.Close())
			require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricActiveSessions, nil) == 0 }, 5*time.Second, 5*time.Millisecond)
			assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricSessionDuration, nil))
		})
	}
}

func TestListenStreamsAreCounted(t *testing.T) {
	tm := newTelemetry(t)
	cs := tm.connect(t, tm.newServer(t), "http", mcp.Version20260728)
	ctx, cancel := context.WithCancel(bounded(t))
	errc := make(chan error, 1)
	go func() { errc <- cs.Listen(ctx, &mcp.ListenFilter{ToolsListChanged: true}) }()
	require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricActiveListenStream, nil) == 1 }, 5*time.Second, 5*time.Millisecond)
	cancel()
	<-errc
	require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricActiveListenStream, nil) == 0 }, 5*time.Second, 5*time.Millisecond)
}
