package mcpotel_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// telemetry is an in-memory trace and metric pipeline with one
// Instrumentation for the server and one for the client.
type telemetry struct {
	spans          *tracetest.SpanRecorder
	reader         *sdkmetric.ManualReader
	server, client *mcpotel.Instrumentation
	tp             *sdktrace.TracerProvider
	prop           propagation.TextMapPropagator
}

func newTelemetry(t testing.TB, opts ...mcpotel.Option) *telemetry {
	t.Helper()
	sr := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	prop := propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})
	all := append([]mcpotel.Option{mcpotel.WithTracerProvider(tp), mcpotel.WithMeterProvider(mp), mcpotel.WithPropagators(prop)}, opts...)
	return &telemetry{spans: sr, reader: reader, tp: tp, prop: prop, server: mcpotel.New(all...), client: mcpotel.New(all...)}
}

// span returns the one ended span of that kind and name.
func (tm *telemetry) span(t *testing.T, kind trace.SpanKind, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found []sdktrace.ReadOnlySpan
	for _, s := range tm.spans.Ended() {
		if s.SpanKind() == kind && s.Name() == name {
			found = append(found, s)
		}
	}
	require.Len(t, found, 1, "%s span %q among %v", kind, name, tm.names())
	return found[0]
}

// waitSpan waits (bounded) for a span that ends after the call returned.
func (tm *telemetry) waitSpan(t *testing.T, kind trace.SpanKind, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	require.Eventually(t, func() bool {
		for _, s := range tm.spans.Ended() {
			if s.SpanKind() == kind && s.Name() == name {
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "%s span %q among %v", kind, name, tm.names())
	return tm.span(t, kind, name)
}

func (tm *telemetry) names() []string {
	var out []string
	for _, s := range tm.spans.Ended() {
		out = append(out, s.SpanKind().String()+" "+s.Name())
	}
	return out
}

// attrs returns a span's attributes as strings.
func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// value sums, over the data points of metric name whose attributes
// include match, the counts of a histogram or the values of a sum.
func (tm *telemetry) value(t *testing.T, name string, match map[string]string) float64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tm.reader.Collect(context.Background(), &rm))
	total := 0.0
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					if matches(p.Attributes, match) {
						total += float64(p.Count)
					}
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					if matches(p.Attributes, match) {
						total += float64(p.Value)
					}
				}
			}
		}
	}
	return total
}

// metricAttrs lists the attribute keys used by any data point of name.
func (tm *telemetry) metricKeys(t *testing.T, name string) map[string]bool {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tm.reader.Collect(context.Background(), &rm))
	keys := map[string]bool{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if h, ok := m.Data.(metricdata.Histogram[float64]); ok && m.Name == name {
				for _, p := range h.DataPoints {
					for _, kv := range p.Attributes.ToSlice() {
						keys[string(kv.Key)] = true
					}
				}
			}
		}
	}
	return keys
}

func matches(set attribute.Set, match map[string]string) bool {
	for k, v := range match {
		got, ok := set.Value(attribute.Key(k))
		if v == "" {
			if ok {
				return false
			}
			continue
		}
		if !ok || got.Emit() != v {
			return false
		}
	}
	return true
}

// newServer is an instrumented server with tools echo (echoes text),
// broken (a tool error) and steps (reports progress).
func (tm *telemetry) newServer(t *testing.T) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "otel", Version: "1"}, tm.server.Instrument(&mcp.ServerOptions{}))
	obj := json.RawMessage(`{"type":"object"}`)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("ok")}}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "broken", InputSchema: obj},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.ToolError("it broke"), nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "steps", InputSchema: obj},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for _, p := range []float64{1, 2} {
				if err := req.Progress(ctx, p, 2, "step"); err != nil {
					return nil, err
				}
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	return s
}

// transports are the ways a test reaches a server.
var transports = []string{"pipe", "http"}

// connect serves s over transport and connects an instrumented client
// speaking version.
func (tm *telemetry) connect(t *testing.T, s *mcp.Server, transport, version string) *mcp.ClientSession {
	t.Helper()
	var ct mcp.ClientTransport
	switch transport {
	case "pipe":
		srvEnd, cliEnd := rpc.NewPipe()
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
		ct = &mcp.StreamTransport{Transport: cliEnd}
	case "http":
		h := mcp.NewStreamableHTTPHandler(s, nil)
		ts := httptest.NewServer(h)
		t.Cleanup(func() {
			h.Close()
			ts.Close()
		})
		ct = &mcp.StreamableHTTPTransport{URL: ts.URL}
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, tm.client.InstrumentClient(&mcp.ClientOptions{ProtocolVersions: []string{version}}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cs, err := c.Connect(ctx, ct)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// bounded is a context for one call of a test.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	t.Cleanup(cancel)
	return ctx
}
