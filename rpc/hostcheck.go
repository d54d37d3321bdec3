package rpc

import "github.com/schemarpc/schemarpc/internal/httpguard"

// WithAllowedHosts adds Host header values that [HTTPHandler] and
// [WebSocketHandler] accept besides the loopback names: "name" (any port)
// or "name:port". On a connection to a non-loopback address, a non-empty
// list is the whole set accepted. Other transports ignore it.
//
// Both handlers refuse, with 403, a request whose Host or Origin header
// could come from a page using DNS rebinding against a server on the
// user's machine; see docs/security.md. MCP's Streamable HTTP handler
// applies the same rules (mcp.HTTPOptions.AllowedHosts).
func WithAllowedHosts(hosts ...string) Option {
	return func(o *options) { o.allowedHosts = append(o.allowedHosts, hosts...) }
}

// WithAllowedOrigins adds Origin header values that [HTTPHandler] and
// [WebSocketHandler] accept besides loopback origins and the request's own
// host, as "scheme://host[:port]". Other transports ignore it.
func WithAllowedOrigins(origins ...string) Option {
	return func(o *options) { o.allowedOrigins = append(o.allowedOrigins, origins...) }
}

// WithoutHostCheck turns the Host and Origin checks of [HTTPHandler] and
// [WebSocketHandler] off, for a server behind a proxy that does them.
func WithoutHostCheck() Option { return func(o *options) { o.hostCheckOff = true } }

// hostPolicy is the Host and Origin policy the options describe.
func (o *options) hostPolicy() httpguard.HostPolicy {
	return httpguard.NewHostPolicy(o.allowedHosts, o.allowedOrigins, o.hostCheckOff)
}
