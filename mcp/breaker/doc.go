// Package breaker fails calls fast while a method or a tool keeps failing:
// a circuit breaker per method, and per tool (or prompt), as
// [rpc.Middleware] for an MCP server (mcp.ServerOptions.Middleware) or a
// plain JSON-RPC router (rpc.Router.Use). It plugs in where
// mcp/ratelimit does, and is built on github.com/sony/gobreaker/v2.
//
// A [Breakers] holds [Rule]s. A rule picks the requests it guards (a
// method, or every request; for tools/call and prompts/get also one tool
// or prompt) and says when to open: after Failures failures in a row
// within a Window, the circuit of that method, tool or prompt opens, and
// its calls are answered at once, without running, with code -32000,
// message "circuit open" and data {"retryAfterMs": n, "limit": "…"}
// (rpc.RetryLater, the same refusal shape as rpc.RateLimited, so that
// rpc.RetryAfter and the HTTP transports' 429 with Retry-After treat both
// alike). After OpenFor the circuit is half-open: the next calls are
// probes; Probes successes in a row close it, one failure opens it again.
// Each method, and each tool or prompt of tools/call and prompts/get, has
// a circuit of its own, so that one failing tool leaves the others served.
//
// What a failure is comes from [Options].Classify ([Classify] by
// default): an internal error (-32603), an error that is not a JSON-RPC
// error, a deadline that passed, and a tools/call result with isError
// true. Other JSON-RPC errors (a client's mistake, MCP's own answers such
// as -32002 resource not found, a refusal with a retry hint) and a
// request cancelled by its client count neither way.
//
// A circuit is shared by every client: a client that can make a tool
// fail (with arguments the tool's input schema refuses, which are an
// isError result, or that its back end chokes on) can open its circuit
// for all. Give such tools a Classify that counts only what the back end
// does, or no rule.
//
// Every change of state is logged ([Options].Logger) and counted in the
// metric [MetricStateChanges]; each call refused is counted in
// [MetricRefused].
//
// Notifications are never refused nor counted. A circuit is made at the
// first failure of its method or tool, so that names a client makes up
// cost nothing; at most [Options].MaxBreakers circuits exist, past which
// further names are not guarded.
package breaker
