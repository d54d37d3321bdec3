// Package mcpotel instruments MCP servers and clients with OpenTelemetry,
// following the semantic conventions for MCP: a span per request and
// notification in both directions, trace context carried in
// params._meta (traceparent, tracestate, baggage), and metrics for
// operation durations, requests in flight, notifications, sessions and
// subscriptions/listen streams.
//
// It is middleware: a server or client built without it pays nothing.
// Install it with [Instrumentation.Instrument] on mcp.ServerOptions and
// [Instrumentation.InstrumentClient] on mcp.ClientOptions. No exporter is
// linked in: spans and metrics go to the configured (by default the
// global) TracerProvider and MeterProvider.
package mcpotel
