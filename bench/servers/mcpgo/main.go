// Command mcpgo serves the benchmark surface (tools echo and add) with
// github.com/mark3labs/mcp-go, its optional schema validation off (the
// default).
//
// With no flags it serves one session on stdin and stdout (its
// StdioServer); with -http ADDR, Streamable HTTP at http://ADDR/mcp with the
// default options. mcp-go picks the era per request on both transports, so
// it answers the 2025-11-25 handshake and 2026-07-28 stateless requests
// alike and -stateless changes nothing. Logs go to stderr.
package main

import (
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/mcpgo"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func main() { serve.Main(mcpgo.Program) }
