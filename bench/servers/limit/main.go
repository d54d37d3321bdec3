// Command limit is the floor of the benchmark: it answers the benchmark
// surface (tools echo and add) with no library and no validation, by
// scanning each message's bytes once and answering from prebuilt templates
// (see package surface/limit). Whatever it costs is the cost of the machine,
// the transport and the load driver.
//
// With no flags it answers messages on stdin and stdout; with -http ADDR, a
// plain net/http handler at http://ADDR/mcp. Both eras are answered on
// both: initialize gets a Mcp-Session-Id over HTTP, 2026-07-28 requests are
// answered without one, and -stateless changes nothing.
package main

import (
	"github.com/schemarpc/schemarpc/bench/servers/internal/programs/limit"
	"github.com/schemarpc/schemarpc/bench/servers/internal/serve"
)

func main() { serve.Main(limit.Program) }
