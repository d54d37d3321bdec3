package mcpotel

import (
	"github.com/schemarpc/schemarpc/internal/otelcore"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// An Option configures an [Instrumentation].
type Option func(*otelcore.Config)

// WithTracerProvider sets where spans go; the default is the global
// TracerProvider (otel.GetTracerProvider).
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(c *otelcore.Config) { c.TracerProvider = tp }
}

// WithMeterProvider sets where metrics go; the default is the global
// MeterProvider (otel.GetMeterProvider).
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *otelcore.Config) { c.MeterProvider = mp }
}

// WithPropagators sets how trace context is written into and read from
// params._meta and HTTP headers; the default is the global
// TextMapPropagator (otel.GetTextMapPropagator), which applications
// usually set to TraceContext and Baggage.
func WithPropagators(p propagation.TextMapPropagator) Option {
	return func(c *otelcore.Config) { c.Propagator = p }
}

// WithResourceURIInSpanName makes the resource URI the target of the span
// name of resources/read, resources/subscribe, resources/unsubscribe and
// notifications/resources/updated ("resources/read file:///a.txt"). Off by
// default: URIs make span names of high cardinality. The URI is an
// attribute (mcp.resource.uri) either way.
func WithResourceURIInSpanName() Option {
	return func(c *otelcore.Config) { c.ResourceURIInSpanName = true }
}
