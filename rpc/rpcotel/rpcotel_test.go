package rpcotel_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/schemarpc/schemarpc/rpc/rpcotel"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

type telemetry struct {
	spans  *tracetest.SpanRecorder
	reader *sdkmetric.ManualReader
	opts   []rpcotel.Option
}

func newTelemetry() *telemetry {
	sr := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	return &telemetry{spans: sr, reader: reader, opts: []rpcotel.Option{
		rpcotel.WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(sr))),
		rpcotel.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		rpcotel.WithPropagators(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})),
	}}
}

func (tm *telemetry) span(t *testing.T, kind trace.SpanKind, name string) sdktrace.ReadOnlySpan {
	t.Helper()
	var found sdktrace.ReadOnlySpan
	require.Eventually(t, func() bool {
		for _, s := range tm.spans.Ended() {
			if s.SpanKind() == kind && s.Name() == name {
				found = s
				return true
			}
		}
		return false
	}, 5*time.Second, 5*time.Millisecond, "%s span %q", kind, name)
	return found
}

func attrs(s sdktrace.ReadOnlySpan) map[string]string {
	m := map[string]string{}
	for _, kv := range s.Attributes() {
		m[string(kv.Key)] = kv.Value.Emit()
	}
	return m
}

// count is the number of measurements of histogram name whose attributes
// include match.
func (tm *telemetry) count(t *testing.T, name string, match map[string]string) uint64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, tm.reader.Collect(context.Background(), &rm))
	var n uint64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			h, ok := m.Data.(metricdata.Histogram[float64])
			if !ok || m.Name != name {
				continue
			}
		points:
			for _, p := range h.DataPoints {
				for k, v := range match {
					if got, ok := p.Attributes.Value(attribute.Key(k)); !ok || got.Emit() != v {
						continue points
					}
				}
				n += p.Count
			}
		}
	}
	return n
}

// recordingRouter serves echo (returns its params) and records the params
// it saw.
type recordingRouter struct {
	*rpc.Router
	mu   sync.Mutex
	seen []string
}

func newRouter(i *rpcotel.Instrumentation) *recordingRouter {
	r := &recordingRouter{Router: rpc.NewRouter()}
	r.Use(i.ServerMiddleware())
	r.Register("echo", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		r.mu.Lock()
		r.seen = append(r.seen, string(req.Params))
		r.mu.Unlock()
		return json.RawMessage(`{}`), nil
	}})
	return r
}

func TestConnSpansOverAPipeWithMetaInjection(t *testing.T) {
	for _, inject := range []bool{false, true} {
		t.Run(map[bool]string{false: "default", true: "WithMetaInjection"}[inject], func(t *testing.T) {
			tm := newTelemetry()
			opts := tm.opts
			if inject {
				opts = append(opts, rpcotel.WithMetaInjection())
			}
			i := rpcotel.New(opts...)
			router := newRouter(i)
			srvEnd, cliEnd := rpc.NewPipe()
			srv := rpc.NewConn(srvEnd, rpc.WithHandler(router))
			defer srv.Close()
			conn := rpc.NewConn(cliEnd, i.ConnOption())
			defer conn.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()

			require.NoError(t, conn.Call(ctx, "echo", map[string]any{"x": 1}, nil))
			var rerr *rpc.Error
			require.ErrorAs(t, conn.Call(ctx, "nope", nil, nil), &rerr)

			client, server := tm.span(t, trace.SpanKindClient, "echo"), tm.span(t, trace.SpanKindServer, "echo")
			assert.Equal(t, "jsonrpc", attrs(server)["rpc.system.name"])
			assert.Equal(t, "echo", attrs(server)["rpc.method"])
			assert.Equal(t, "pipe", attrs(server)["network.transport"])
			assert.Equal(t, attrs(client)["jsonrpc.request.id"], attrs(server)["jsonrpc.request.id"])
			router.mu.Lock()
			seen := router.seen[0]
			router.mu.Unlock()
			if inject {
				assert.Equal(t, client.SpanContext().SpanID(), server.Parent().SpanID(), "parented through _meta")
				assert.Contains(t, seen, `"traceparent"`)
				assert.Contains(t, seen, `"x":1`)
			} else {
				assert.False(t, server.Parent().IsValid(), "no context crossed the pipe")
				assert.JSONEq(t, `{"x":1}`, seen, "params are sent as they are")
			}
			for _, kind := range []trace.SpanKind{trace.SpanKindClient, trace.SpanKindServer} {
				s := tm.span(t, kind, "nope")
				assert.Equal(t, "-32601", attrs(s)["rpc.response.status_code"])
				assert.Equal(t, "-32601", attrs(s)["error.type"])
				assert.Equal(t, codes.Error, s.Status().Code)
			}
			assert.Equal(t, uint64(1), tm.count(t, rpcotel.MetricServerDuration, map[string]string{"rpc.method": "_OTHER", "error.type": "-32601"}))
			assert.Equal(t, uint64(1), tm.count(t, rpcotel.MetricServerDuration, map[string]string{"rpc.method": "echo"}))
			assert.Equal(t, uint64(1), tm.count(t, rpcotel.MetricClientDuration, map[string]string{"rpc.method": "nope", "rpc.response.status_code": "-32601"}))
		})
	}
}

func TestHTTPClientHeadersParentTheServerSpan(t *testing.T) {
	tm := newTelemetry()
	i := rpcotel.New(tm.opts...)
	router := newRouter(i)
	router.Register("strict", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.InvalidParams("no")
	}})
	ts := httptest.NewServer(rpc.NewHTTPHandler(router))
	defer ts.Close()
	c := i.Caller(rpc.NewHTTPClient(ts.URL, &http.Client{Transport: i.HTTPTransport(nil)}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()

	require.NoError(t, c.Call(ctx, "echo", map[string]any{"x": 1}, nil))
	require.Error(t, c.Call(ctx, "strict", nil, nil))
	require.NoError(t, c.Notify(ctx, "echo", nil))

	client, server := tm.span(t, trace.SpanKindClient, "echo"), tm.span(t, trace.SpanKindServer, "echo")
	assert.Equal(t, client.SpanContext().TraceID(), server.SpanContext().TraceID())
	assert.Equal(t, client.SpanContext().SpanID(), server.Parent().SpanID(), "parented through the traceparent header")
	a := attrs(server)
	assert.Equal(t, "tcp", a["network.transport"])
	assert.Equal(t, "http", a["network.protocol.name"])
	router.mu.Lock()
	assert.JSONEq(t, `{"x":1}`, router.seen[0], "no _meta without WithMetaInjection")
	router.mu.Unlock()
	s := tm.span(t, trace.SpanKindServer, "strict")
	assert.Equal(t, "-32602", attrs(s)["rpc.response.status_code"])
	assert.Equal(t, uint64(1), tm.count(t, rpcotel.MetricClientDuration, map[string]string{"rpc.method": "strict", "error.type": "-32602"}))
	assert.Equal(t, uint64(2), tm.count(t, rpcotel.MetricClientDuration, map[string]string{"rpc.method": "echo"}), "a call and a notification")
}

func TestCallerInjectsMetaWhenAsked(t *testing.T) {
	tm := newTelemetry()
	i := rpcotel.New(append(tm.opts, rpcotel.WithMetaInjection())...)
	router := newRouter(i)
	ts := httptest.NewServer(rpc.NewHTTPHandler(router))
	defer ts.Close()
	c := i.Caller(rpc.NewHTTPClient(ts.URL, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.NoError(t, c.Call(ctx, "echo", nil, nil))
	require.Error(t, c.Call(ctx, "echo", func() {}, nil), "params that cannot be encoded fail the call")
	client, server := tm.span(t, trace.SpanKindClient, "echo"), tm.span(t, trace.SpanKindServer, "echo")
	assert.Equal(t, client.SpanContext().SpanID(), server.Parent().SpanID(), "parented through _meta")
}
