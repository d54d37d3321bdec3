package rpcotel

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

// WithPropagators sets how trace context is written and read; the default
// is the global TextMapPropagator (otel.GetTextMapPropagator).
func WithPropagators(p propagation.TextMapPropagator) Option {
	return func(c *otelcore.Config) { c.Propagator = p }
}

// WithMetaInjection makes the client side write the trace context into
// params._meta of every call and notification it sends (params given as
// an object or absent; positional params are left alone). Off by
// default: a plain JSON-RPC server may refuse members it does not know.
// Servers instrumented with this package read _meta either way.
func WithMetaInjection() Option {
	return func(c *otelcore.Config) { c.InjectMeta = true }
}
