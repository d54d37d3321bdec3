// Package harness runs the official MCP conformance suite and the interop clients against
// a server binary: it builds examples/everything, starts it on a free loopback port, waits
// until it answers HTTP, runs the pinned tools from the conformance directory, and reads
// and judges the suite's checks.json files.
package harness
