package rpcotel

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/otelcore"
	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = otelcore.ScopeName + "/rpc/rpcotel"

// Metric names, after the RPC conventions.
const (
	MetricServerDuration = "rpc.server.call.duration"
	MetricClientDuration = "rpc.client.call.duration"
	MetricServerActive   = "rpc.server.active_requests"
)

// system is the rpc.system.name of every span and measurement.
var system = otelcore.KeyRPCSystem.String("jsonrpc")

// Instrumentation makes the middleware that traces and measures JSON-RPC
// traffic. It is safe for concurrent use.
type Instrumentation struct {
	cfg    otelcore.Config
	tracer trace.Tracer

	serverDuration, clientDuration metric.Float64Histogram
	serverActive                   metric.Int64UpDownCounter
}

// New returns an Instrumentation configured by opts.
func New(opts ...Option) *Instrumentation {
	i := &Instrumentation{}
	for _, o := range opts {
		o(&i.cfg)
	}
	i.cfg.Resolve()
	i.tracer = i.cfg.TracerProvider.Tracer(ScopeName)
	m := i.cfg.MeterProvider.Meter(ScopeName)
	buckets := metric.WithExplicitBucketBoundaries(otelcore.RPCDurationBuckets...)
	i.serverDuration, _ = m.Float64Histogram(MetricServerDuration, metric.WithUnit("s"), buckets,
		metric.WithDescription("How long the server took to handle a JSON-RPC call or notification."))
	i.clientDuration, _ = m.Float64Histogram(MetricClientDuration, metric.WithUnit("s"), buckets,
		metric.WithDescription("How long a JSON-RPC call took from sending it to its answer (a notification: to its sending)."))
	i.serverActive, _ = m.Int64UpDownCounter(MetricServerActive, metric.WithUnit("{request}"),
		metric.WithDescription("JSON-RPC requests being handled by the server."))
	return i
}

// ServerMiddleware returns the middleware for a Router (Router.Use,
// rpc.WithMiddleware) or any Handler: a SERVER span and the server's
// metrics for every call and notification. The span's parent is the trace
// context of params._meta, else that of the HTTP request's headers (or a
// span an HTTP middleware already started), else the ambient one.
func (i *Instrumentation) ServerMiddleware() rpc.Middleware {
	return func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			var meta []byte
			if m, ok := jsonscan.Member(req.Params, "_meta"); ok && len(m) > 0 && m[0] == '{' {
				meta = m
			}
			attrs := make([]attribute.KeyValue, 0, 8)
			attrs = append(attrs, system, otelcore.KeyRPCMethod.String(req.Method))
			if id := otelcore.RequestID(req.ID); id != "" {
				attrs = append(attrs, otelcore.KeyRequestID.String(id))
			}
			netFrom := len(attrs)
			attrs = otelcore.TransportAttrs(ctx, attrs)
			net := attrs[netFrom:]
			ctx, links := i.cfg.ServerParent(ctx, meta)
			ctx, span := i.tracer.Start(ctx, req.Method, trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attrs...), trace.WithLinks(links...))
			notification := req.IsNotification()
			if !notification {
				i.serverActive.Add(ctx, 1)
			}
			start := time.Now()
			res, err := next.Handle(ctx, req)
			elapsed := time.Since(start).Seconds()
			if !notification {
				i.serverActive.Add(ctx, -1)
			}
			out := otelcore.ErrorOutcome(err, true)
			otelcore.EndSpan(span, out)
			method := req.Method
			if out.Code == "-32601" {
				method = otelcore.OtherValue // a peer's made-up names stay out of metrics
			}
			i.serverDuration.Record(ctx, elapsed, metric.WithAttributes(i.metricAttrs(method, out, net)...))
			return res, err
		})
	}
}

// metricAttrs are the attributes of one duration measurement.
func (i *Instrumentation) metricAttrs(method string, out otelcore.Outcome, net []attribute.KeyValue) []attribute.KeyValue {
	attrs := make([]attribute.KeyValue, 0, 8)
	attrs = append(attrs, system, otelcore.KeyRPCMethod.String(method))
	attrs = append(attrs, net...)
	return otelcore.OutcomeAttrs(out, attrs)
}

// Outgoing returns the middleware for rpc.WithOutgoing: a CLIENT span and
// the client's metrics for every call and notification a Conn sends, with
// the trace context in params._meta under [WithMetaInjection]. Over HTTP
// the span's context reaches the transport (see [Instrumentation.HTTPTransport]).
func (i *Instrumentation) Outgoing() rpc.Middleware {
	return func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (res any, err error) {
			ctx, end := i.startClient(ctx, req.Method, req.ID)
			defer func() { end(err) }()
			if i.cfg.InjectMeta {
				req.Params = i.inject(ctx, req.Params)
			}
			return next.Handle(ctx, req)
		})
	}
}

// ConnOption returns the rpc.Option that installs [Instrumentation.Outgoing]
// on a Conn.
func (i *Instrumentation) ConnOption() rpc.Option {
	return rpc.WithOutgoing(i.Outgoing())
}

// Caller wraps c (an rpc.HTTPClient, say) so that each call and
// notification it sends gets a CLIENT span and the client's metrics; with
// [WithMetaInjection] the trace context goes into params._meta too.
// Combine it with an http.Client whose Transport is
// [Instrumentation.HTTPTransport] to carry the context in headers.
func (i *Instrumentation) Caller(c rpc.Caller) rpc.Caller {
	return &caller{i: i, next: c}
}

// HTTPTransport wraps base (nil: http.DefaultTransport) so that each HTTP
// request carries the trace context of its context in its headers
// (traceparent, tracestate, baggage). Use it as the Transport of the
// http.Client of an rpc.HTTPClient.
func (i *Instrumentation) HTTPTransport(base http.RoundTripper) http.RoundTripper {
	return &otelcore.HeaderTransport{Base: base, Config: &i.cfg}
}

// startClient starts the CLIENT span of a call; end records its outcome.
func (i *Instrumentation) startClient(ctx context.Context, method string, id rpc.ID) (context.Context, func(error)) {
	attrs := make([]attribute.KeyValue, 0, 3)
	attrs = append(attrs, system, otelcore.KeyRPCMethod.String(method))
	if s := otelcore.RequestID(id); s != "" {
		attrs = append(attrs, otelcore.KeyRequestID.String(s))
	}
	ctx, span := i.tracer.Start(ctx, method, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	start := time.Now()
	return ctx, func(err error) {
		elapsed := time.Since(start).Seconds()
		out := otelcore.ErrorOutcome(err, false)
		otelcore.EndSpan(span, out)
		i.clientDuration.Record(ctx, elapsed, metric.WithAttributes(i.metricAttrs(method, out, nil)...))
	}
}

// inject writes the trace context of ctx into params._meta when it can.
func (i *Instrumentation) inject(ctx context.Context, params json.RawMessage) json.RawMessage {
	var f otelcore.Fields
	i.cfg.Propagator.Inject(ctx, &f)
	out, _ := otelcore.InjectMeta(params, &f)
	return out
}

// caller is the Caller that Instrumentation.Caller returns.
type caller struct {
	i    *Instrumentation
	next rpc.Caller
}

// Call sends the call inside a CLIENT span.
func (c *caller) Call(ctx context.Context, method string, params, result any) (err error) {
	ctx, end := c.i.startClient(ctx, method, rpc.ID{})
	defer func() { end(err) }()
	if params, err = c.params(ctx, params); err != nil {
		return err
	}
	return c.next.Call(ctx, method, params, result)
}

// Notify sends the notification inside a CLIENT span.
func (c *caller) Notify(ctx context.Context, method string, params any) (err error) {
	ctx, end := c.i.startClient(ctx, method, rpc.ID{})
	defer func() { end(err) }()
	if params, err = c.params(ctx, params); err != nil {
		return err
	}
	return c.next.Notify(ctx, method, params)
}

// params returns the params to send: as given, or encoded with the trace
// context in _meta under WithMetaInjection.
func (c *caller) params(ctx context.Context, params any) (any, error) {
	if !c.i.cfg.InjectMeta {
		return params, nil
	}
	var raw json.RawMessage
	if params != nil {
		b, err := json.Marshal(params)
		if err != nil {
			return nil, err
		}
		raw = b
	}
	out := c.i.inject(ctx, raw)
	if out == nil {
		return nil, nil
	}
	return out, nil
}
