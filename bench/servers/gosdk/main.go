// Command gosdk serves the benchmark surface (tools echo and add) with the
// official Go SDK, github.com/modelcontextprotocol/go-sdk, which validates
// tool arguments and output by default.
//
// With no flags it serves one session on stdin and stdout (StdioTransport),
// which answers the 2025-11-25 handshake and 2026-07-28 stateless requests
// (one era per process: once it has served a 2026-07-28 request it refuses
// a later initialize, with error code 0).
// With -http ADDR it serves Streamable HTTP at http://ADDR/mcp with the
// default options, which answer the handshake era only: the SDK accepts
// 2026-07-28 over HTTP only on a stateless handler, so -stateless sets
// StreamableHTTPOptions.Stateless (which in turn issues no session ids).
// Logs go to stderr.
package main

import (
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/gosdk"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func main() { serve.Main(gosdk.Program) }
