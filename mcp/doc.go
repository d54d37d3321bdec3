// Package mcp serves the Model Context Protocol of the handshake era
// (versions 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25).
//
// A [Server] holds tools, resources, resource templates, prompts and a
// completion handler, and serves any number of sessions over stdio
// ([Server.ServeStdio]), any rpc.Transport ([Server.Serve]) or Streamable
// HTTP ([NewStreamableHTTPHandler]). Each session negotiates its version in
// initialize; the server then speaks that version: methods it lacks are
// -32601, content it does not know is rewritten as text, batches are
// accepted only in 2025-03-26.
//
// Every message's params are validated against the schemas in
// schema/mcp/2025-11-25 before a handler runs; tool arguments are validated
// against the tool's input schema, and structured output against its output
// schema. The protocol types are generated from those schemas into package
// v20251125 and re-exported here as aliases.
//
// docs/mcp-server.md walks through building a server; the examples in this
// package run as tests.
package mcp
