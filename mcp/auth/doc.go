// Package auth is OAuth 2.1 authorization for MCP over HTTP, on both sides.
//
// Server side: [Require] is a func(http.Handler) http.Handler that admits a
// request only with a valid bearer token in its Authorization header. It
// asks a [Verifier] about the token, checks expiry, audience (the server's
// canonical resource URI, RFC 8707) and scopes, answers 401 or 403 with the
// WWW-Authenticate challenge MCP clients act on, removes the Authorization
// header and hands the [TokenInfo] to the inner handler in the request's
// context. [ProtectedResourceHandler] serves the RFC 9728 metadata that
// tells clients which authorization server to use.
//
// Client side: [Transport] is an http.RoundTripper for MCP's Streamable
// HTTP transport. It sends the token it holds; on a 401 it discovers the
// authorization server (RFC 9728, then RFC 8414 or OpenID Connect
// discovery), identifies the client (pre-registration, a client ID metadata
// document, or dynamic registration, RFC 7591) and obtains a token
// (authorization code with PKCE, client credentials, or a JWT bearer
// assertion), then repeats the request; on a 403 insufficient_scope it asks
// for the larger scope; it refreshes expiring tokens. Tokens and client
// registrations live in a [TokenStore].
//
// docs/authorization.md walks through both sides.
package auth
