// Package otelcore holds what the OpenTelemetry instrumentation of rpc
// (rpc/rpcotel) and of MCP (mcp/mcpotel) share: the configuration, the
// trace context carried in params._meta, the choice of a server span's
// parent, the classification of outcomes and the transport attributes.
package otelcore
