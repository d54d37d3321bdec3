// Package ratelimit refuses requests past a rate or a quota, per client and
// per method or tool, as [rpc.Middleware] for an MCP server
// (mcp.ServerOptions.Middleware), an MCP client (mcp.ClientOptions.Middleware,
// for what a server asks of it) or a plain JSON-RPC router (rpc.Router.Use).
//
// A [Limiter] holds [Rule]s. A rule picks the requests it counts (a method,
// or every request; for tools/call and prompts/get also a tool or prompt
// name), how many it admits (a token bucket from golang.org/x/time/rate: a
// rate and a burst, or a [Quota] of n per period), and whose they are (a
// [KeyFunc]: [BySession], [BySubject], [ByRemoteAddr], [ByClient],
// [Everyone] or one's own). A request runs only when every rule it matches
// admits it; a refused request costs no rule a token and is answered with
// rpc.RateLimited: code -32000, message "rate limit exceeded", data
// {"retryAfterMs": n, "limit": "<the rule>"}, where n is the time until the
// refusing rule has a token again. Over HTTP the transports of this module
// answer a lone refused request with 429 Too Many Requests and Retry-After.
//
// Notifications are never refused: they get no answer to carry the refusal,
// and notifications/cancelled must always reach the server.
//
// Nothing is limited by default: a server has no limiter until one is
// installed, and a Limiter without rules admits everything.
//
// Keys are chosen by clients (addresses, session ids), so a Limiter tracks a
// bounded number per rule ([Options].MaxKeys, [DefaultMaxKeys] by default):
// a bucket that has filled up again is forgotten, being no different from a
// new one, and past the bound the requests of clients not yet tracked share
// one bucket of the rule.
package ratelimit
