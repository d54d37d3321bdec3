// Package soak holds the soak test of the MCP server: many clients send mixed
// valid and invalid traffic over Streamable HTTP (both protocol eras) and
// stdio for a bounded time, every outcome is checked against what its
// request deserved, and memory and goroutines must level off. It has no
// code of its own; see soak_test.go. SCHEMARPC_SOAK sets the duration (a
// time.Duration; about 10 s by default, 3 s with -short); `make soak` runs a
// long pass. SCHEMARPC_SOAK_STACKS=1 logs every goroutine at the end.
package soak
