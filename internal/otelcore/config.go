package otelcore

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// ScopeName is the instrumentation scope both packages report under, with
// their own package path appended.
const ScopeName = "github.com/schemarpc/schemarpc"

// Config is what the options of rpcotel and mcpotel set.
type Config struct {
	// TracerProvider makes the tracer; nil means the global one.
	TracerProvider trace.TracerProvider
	// MeterProvider makes the meter; nil means the global one.
	MeterProvider metric.MeterProvider
	// Propagator injects and extracts trace context; nil means the global
	// TextMapPropagator.
	Propagator propagation.TextMapPropagator
	// ResourceURIInSpanName makes a resource URI the target of a span name.
	ResourceURIInSpanName bool
	// InjectMeta puts the trace context into params._meta of what is sent
	// (always on for MCP, an option for plain JSON-RPC).
	InjectMeta bool
}

// Resolve fills the providers and the propagator left nil with the
// global ones.
func (c *Config) Resolve() {
	if c.TracerProvider == nil {
		c.TracerProvider = otel.GetTracerProvider()
	}
	if c.MeterProvider == nil {
		c.MeterProvider = otel.GetMeterProvider()
	}
	if c.Propagator == nil {
		c.Propagator = otel.GetTextMapPropagator()
	}
}
