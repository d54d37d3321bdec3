// Package scale measures a replicated MCP server on one machine: 1, 2 and
// 3 replicas of the benchmark surface (servers/replica) sharing sessions,
// broker and SSE events through one redis-server, behind a round-robin
// proxy, driven by the load package's HTTP clients. Each setup starts
// afresh in every round, and the rounds interleave the setups, as the load
// package interleaves servers. The CPU figure sums the replicas and Redis;
// the proxy runs in the driver and is not counted.
package scale
