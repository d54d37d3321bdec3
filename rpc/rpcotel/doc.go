// Package rpcotel instruments JSON-RPC servers and clients of package rpc
// with OpenTelemetry, following the semantic conventions for JSON-RPC: a
// SERVER span per call a Router handles, a CLIENT span per call a Conn or
// any rpc.Caller sends, the JSON-RPC error code on both, and the
// rpc.server.call.duration and rpc.client.call.duration histograms.
//
// Trace context travels in HTTP headers ([Instrumentation.HTTPTransport]
// on the client, read by [Instrumentation.ServerMiddleware] on the
// server) and, with [WithMetaInjection], in params._meta, which the
// server middleware always reads. Nothing changes for code that does not
// install it; no exporter is linked in.
package rpcotel
