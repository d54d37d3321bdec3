// Command schemarpc serves the benchmark surface (tools echo and add) with
// this project's mcp package, every message validated (the default).
//
// With no flags it serves one session on stdin and stdout; with -http ADDR,
// Streamable HTTP at http://ADDR/mcp with the default HTTP options (one
// endpoint answers both eras, so -stateless changes nothing). It answers
// the 2025-11-25 handshake and 2026-07-28 stateless requests on both
// transports. Logs go to stderr.
package main

import (
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/schemarpc"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func main() { serve.Main(schemarpc.Program) }
