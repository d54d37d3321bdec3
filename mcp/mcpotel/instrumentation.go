package mcpotel

import (
	"net/http"
	"sync"

	"github.com/schemarpc/schemarpc/internal/otelcore"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope of the tracer and meter.
const ScopeName = otelcore.ScopeName + "/mcp/mcpotel"

// Metric names. Durations follow the conventions: the side that handles a
// message records mcp.server.operation.duration, the side that sends it
// mcp.client.operation.duration (so requests a server sends its client,
// such as sampling, land in the latter).
const (
	MetricServerDuration     = "mcp.server.operation.duration"
	MetricClientDuration     = "mcp.client.operation.duration"
	MetricServerActive       = "mcp.server.active_requests"
	MetricClientActive       = "mcp.client.active_requests"
	MetricServerNotesIn      = "mcp.server.notifications.received"
	MetricServerNotesOut     = "mcp.server.notifications.sent"
	MetricClientNotesIn      = "mcp.client.notifications.received"
	MetricClientNotesOut     = "mcp.client.notifications.sent"
	MetricSessionDuration    = "mcp.server.session.duration"
	MetricActiveSessions     = "mcp.server.active_sessions"
	MetricActiveListenStream = "mcp.server.active_listen_streams"
)

// Instrumentation makes the middleware that traces and measures MCP
// traffic. One Instrumentation may serve any number of servers and
// clients; it is safe for concurrent use.
type Instrumentation struct {
	cfg    otelcore.Config
	tracer trace.Tracer

	serverDuration, clientDuration metric.Float64Histogram
	serverActive, clientActive     metric.Int64UpDownCounter
	notes                          [2][2]metric.Int64Counter // [role][received, sent]
	sessionDuration                metric.Float64Histogram
	activeSessions, activeListens  metric.Int64UpDownCounter

	sessions sync.Map // *mcp.ServerSession: counted sessions
}

// New returns an Instrumentation configured by opts. Instruments the
// meter cannot create are replaced by ones that record nothing (the
// meter reports such errors to the OpenTelemetry error handler).
func New(opts ...Option) *Instrumentation {
	i := &Instrumentation{}
	for _, o := range opts {
		o(&i.cfg)
	}
	i.cfg.Resolve()
	i.tracer = i.cfg.TracerProvider.Tracer(ScopeName)
	m := i.cfg.MeterProvider.Meter(ScopeName)
	buckets := metric.WithExplicitBucketBoundaries(otelcore.DurationBuckets...)
	i.serverDuration, _ = m.Float64Histogram(MetricServerDuration, metric.WithUnit("s"), buckets,
		metric.WithDescription("How long handling an MCP request or notification took, as seen by the side that handled it."))
	i.clientDuration, _ = m.Float64Histogram(MetricClientDuration, metric.WithUnit("s"), buckets,
		metric.WithDescription("How long an MCP request took from sending it to its answer (a notification: to its sending), as seen by the side that sent it."))
	i.serverActive, _ = m.Int64UpDownCounter(MetricServerActive, metric.WithUnit("{request}"),
		metric.WithDescription("MCP requests from clients being handled by the server."))
	i.clientActive, _ = m.Int64UpDownCounter(MetricClientActive, metric.WithUnit("{request}"),
		metric.WithDescription("MCP requests the client sent that await their answer."))
	i.notes[roleServer][received], _ = m.Int64Counter(MetricServerNotesIn, metric.WithUnit("{notification}"),
		metric.WithDescription("MCP notifications the server received, by method."))
	i.notes[roleServer][sent], _ = m.Int64Counter(MetricServerNotesOut, metric.WithUnit("{notification}"),
		metric.WithDescription("MCP notifications the server sent, by method."))
	i.notes[roleClient][received], _ = m.Int64Counter(MetricClientNotesIn, metric.WithUnit("{notification}"),
		metric.WithDescription("MCP notifications the client received, by method."))
	i.notes[roleClient][sent], _ = m.Int64Counter(MetricClientNotesOut, metric.WithUnit("{notification}"),
		metric.WithDescription("MCP notifications the client sent, by method."))
	i.sessionDuration, _ = m.Float64Histogram(MetricSessionDuration, metric.WithUnit("s"), buckets,
		metric.WithDescription("How long MCP sessions lasted, from a successful initialize to their end."))
	i.activeSessions, _ = m.Int64UpDownCounter(MetricActiveSessions, metric.WithUnit("{session}"),
		metric.WithDescription("MCP sessions open on the server (initialized and not yet ended)."))
	i.activeListens, _ = m.Int64UpDownCounter(MetricActiveListenStream, metric.WithUnit("{stream}"),
		metric.WithDescription("2026-07-28 subscriptions/listen requests open on the server."))
	return i
}

// ServerMiddleware returns the middleware for mcp.ServerOptions.Middleware:
// a SERVER span and the server's metrics for every message a client sends.
func (i *Instrumentation) ServerMiddleware() rpc.Middleware {
	return i.middleware(serverIn)
}

// ServerOutgoing returns the middleware for mcp.ServerOptions.Outgoing: a
// CLIENT span and metrics for every request and notification the server
// sends, with the trace context written into params._meta.
func (i *Instrumentation) ServerOutgoing() rpc.Middleware {
	return i.middleware(serverOut)
}

// ClientMiddleware returns the middleware for mcp.ClientOptions.Middleware:
// a SERVER span and metrics for every request and notification the server
// sends the client.
func (i *Instrumentation) ClientMiddleware() rpc.Middleware {
	return i.middleware(clientIn)
}

// ClientOutgoing returns the middleware for mcp.ClientOptions.Outgoing: a
// CLIENT span and metrics for every request and notification the client
// sends, with the trace context written into params._meta.
func (i *Instrumentation) ClientOutgoing() rpc.Middleware {
	return i.middleware(clientOut)
}

// Instrument appends the server middleware to opts (Middleware and
// Outgoing) and returns opts.
func (i *Instrumentation) Instrument(opts *mcp.ServerOptions) *mcp.ServerOptions {
	opts.Middleware = append(opts.Middleware, i.ServerMiddleware())
	opts.Outgoing = append(opts.Outgoing, i.ServerOutgoing())
	return opts
}

// InstrumentClient appends the client middleware to opts (Middleware and
// Outgoing) and returns opts.
func (i *Instrumentation) InstrumentClient(opts *mcp.ClientOptions) *mcp.ClientOptions {
	opts.Middleware = append(opts.Middleware, i.ClientMiddleware())
	opts.Outgoing = append(opts.Outgoing, i.ClientOutgoing())
	return opts
}

// HTTPTransport wraps base (nil: http.DefaultTransport) so that the HTTP
// requests of a Streamable HTTP client carry the trace context of the call
// they send in their headers too (traceparent, tracestate, baggage), for
// proxies and HTTP middleware that read them. Use it as the Transport of
// the http.Client given to mcp.StreamableHTTPTransport.
func (i *Instrumentation) HTTPTransport(base http.RoundTripper) http.RoundTripper {
	return &otelcore.HeaderTransport{Base: base, Config: &i.cfg}
}
