package mcpotel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

var eras = []string{mcp.Version20251125, mcp.Version20260728}

func TestClientSpanParentsServerSpanAcrossTheWire(t *testing.T) {
	for _, version := range eras {
		for _, transport := range transports {
			t.Run(version+"/"+transport, func(t *testing.T) {
				tm := newTelemetry(t)
				cs := tm.connect(t, tm.newServer(t), transport, version)
				_, err := cs.CallTool(bounded(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"secret-argument"}`)})
				require.NoError(t, err)

				client := tm.span(t, trace.SpanKindClient, "tools/call echo")
				server := tm.waitSpan(t, trace.SpanKindServer, "tools/call echo")
				assert.Equal(t, client.SpanContext().TraceID(), server.SpanContext().TraceID(), "one trace")
				assert.Equal(t, client.SpanContext().SpanID(), server.Parent().SpanID(), "the client span is the server span's parent")
				assert.True(t, server.Parent().IsRemote())

				sa := attrs(server)
				assert.Equal(t, "tools/call", sa["mcp.method.name"])
				assert.Equal(t, "echo", sa["gen_ai.tool.name"])
				assert.Equal(t, "execute_tool", sa["gen_ai.operation.name"])
				assert.Equal(t, version, sa["mcp.protocol.version"])
				assert.NotEmpty(t, sa["jsonrpc.request.id"])
				assert.Equal(t, attrs(client)["jsonrpc.request.id"], sa["jsonrpc.request.id"])
				assert.Equal(t, codes.Unset, server.Status().Code)
				if transport == "http" {
					assert.Equal(t, "tcp", sa["network.transport"])
					assert.Equal(t, "http", sa["network.protocol.name"])
					assert.Equal(t, "1.1", sa["network.protocol.version"])
				} else {
					assert.Equal(t, "pipe", sa["network.transport"])
				}
				if transport == "http" && version == mcp.Version20251125 {
					assert.NotEmpty(t, sa["mcp.session.id"], "a Streamable HTTP session has an id")
				}
				for _, s := range tm.spans.Ended() {
					for _, kv := range s.Attributes() {
						assert.NotContains(t, kv.Value.Emit(), "secret-argument", "arguments are never recorded (%s %s)", s.Name(), kv.Key)
					}
				}
				assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo", "error.type": ""}))
				assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricClientDuration, map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "echo"}))
				for key := range tm.metricKeys(t, mcpotel.MetricServerDuration) {
					assert.NotContains(t, []string{"jsonrpc.request.id", "mcp.session.id", "mcp.resource.uri"}, key, "no high-cardinality attribute in metrics")
				}
			})
		}
	}
}

func TestToolErrorIsRecordedAsToolError(t *testing.T) {
	for _, version := range eras {
		t.Run(version, func(t *testing.T) {
			tm := newTelemetry(t)
			cs := tm.connect(t, tm.newServer(t), "pipe", version)
			res, err := cs.CallTool(bounded(t), &mcp.CallToolRequestParams{Name: "broken"})
			require.NoError(t, err)
			require.NotNil(t, res.IsError)

			for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
				s := tm.waitSpan(t, kind, "tools/call broken")
				assert.Equal(t, "tool_error", attrs(s)["error.type"], kind.String())
				assert.Equal(t, codes.Error, s.Status().Code, kind.String())
				assert.NotContains(t, attrs(s), "rpc.response.status_code", "a tool error is a result, not a JSON-RPC error")
			}
			assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"gen_ai.tool.name": "broken", "error.type": "tool_error"}))
		})
	}
}

func TestNotificationsAreCountedByMethod(t *testing.T) {
	for _, version := range eras {
		t.Run(version, func(t *testing.T) {
			tm := newTelemetry(t)
			cs := tm.connect(t, tm.newServer(t), "pipe", version)
			ctx := mcp.WithProgressHandler(bounded(t), func(*mcp.ProgressNotificationParams) {})
			_, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "steps"})
			require.NoError(t, err)

			progress := map[string]string{"mcp.method.name": "notifications/progress"}
			assert.Equal(t, 2.0, tm.value(t, mcpotel.MetricServerNotesOut, progress))
			require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricClientNotesIn, progress) == 2 }, 5e9, 5e6)
			// The progress notifications are children of the tool's span.
			server := tm.waitSpan(t, trace.SpanKindServer, "tools/call steps")
			for _, s := range tm.spans.Ended() {
				if s.Name() == "notifications/progress" && s.SpanKind() == trace.SpanKindClient {
					assert.Equal(t, server.SpanContext().SpanID(), s.Parent().SpanID())
				}
			}
			if version == mcp.Version20251125 {
				initialized := map[string]string{"mcp.method.name": "notifications/initialized"}
				assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricClientNotesOut, initialized))
				require.Eventually(t, func() bool { return tm.value(t, mcpotel.MetricServerNotesIn, initialized) == 1 }, 5e9, 5e6)
			}
		})
	}
}

func TestResourceURIIsAnAttributeAndOnlyOptionallyInTheSpanName(t *testing.T) {
	for _, withURI := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "WithResourceURIInSpanName"}[withURI], func(t *testing.T) {
			var tm *telemetry
			if withURI {
				tm = newTelemetry(t, mcpotel.WithResourceURIInSpanName())
			} else {
				tm = newTelemetry(t)
			}
			s := tm.newServer(t)
			require.NoError(t, s.AddResource(&mcp.Resource{URI: "file:///notes.txt", Name: "notes"},
				func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{}}, nil
				}))
			cs := tm.connect(t, s, "pipe", mcp.Version20251125)
			_, err := cs.ReadResource(bounded(t), &mcp.ReadResourceRequestParams{URI: "file:///notes.txt"})
			require.NoError(t, err)
			name := "resources/read"
			if withURI {
				name += " file:///notes.txt"
			}
			server := tm.waitSpan(t, trace.SpanKindServer, name)
			assert.Equal(t, "file:///notes.txt", attrs(server)["mcp.resource.uri"])
			assert.Equal(t, 1.0, tm.value(t, mcpotel.MetricServerDuration, map[string]string{"mcp.method.name": "resources/read"}))
			assert.NotContains(t, tm.metricKeys(t, mcpotel.MetricServerDuration), "mcp.resource.uri")
		})
	}
}
