// Package load drives MCP servers with raw JSON-RPC and measures what each
// tools/call costs them.
//
// The driver speaks the wire protocol itself, so it favours no library: it
// builds every request byte by byte, sends it over stdio (one message per
// line) or Streamable HTTP, and checks every reply against the answer it
// expects. It covers the 2025-11-25 handshake protocol and the stateless
// 2026-07-28 protocol, three load shapes (sequential, pipelined, concurrent
// sessions), and reports server CPU time per 1000 calls read from /proc,
// calls per second, latency percentiles and peak RSS. Servers run
// interleaved for several rounds and the report gives medians and per-round
// ratios to the first server ("ours").
//
// RunStartup measures the other side: how long each server takes from its
// spawn to its first tools/call answered, its peak RSS then, and over HTTP
// what each idle session and each open GET stream adds to its RSS, with
// the ratios of ours to the best peer and to the limit server.
//
// docs/performance.md at the repository root explains the method and how to
// read the tables; cmd/mcpload and cmd/startload are the command lines.
package load
