package ratelimit

import (
	"context"
	"net"
	"weak"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
	"github.com/schemarpc/schemarpc/rpc"
)

// A KeyFunc names the client a request counts against: requests with equal
// keys share a rule's bucket. The key must be comparable (a string, a
// struct of strings, a pointer). nil is a key like the others: every
// request a KeyFunc cannot place shares the bucket of nil.
type KeyFunc func(ctx context.Context, req *rpc.Request) any

// The key types keep apart clients of different kinds that happen to have
// the same name (a subject and an address, say).
type (
	sessionKey   string
	subjectKey   string
	principalKey string
	addrKey      string
	everyone     struct{}
)

// BySession keys a request by its MCP session: the Mcp-Session-Id of a
// Streamable HTTP session, the connection itself on stdio and other
// session transports without an id. A 2026-07-28 request over HTTP has no
// session; it is keyed by its remote address, as [ByRemoteAddr] does.
func BySession(ctx context.Context, req *rpc.Request) any {
	if ss := mcp.SessionFromContext(ctx); ss != nil {
		if id := ss.ID(); id != "" {
			return sessionKey(id)
		}
		// A weak pointer compares equal for the same session and keeps
		// no closed session alive.
		return weak.Make(ss)
	}
	return ByRemoteAddr(ctx, req)
}

// BySubject keys a request by the subject of the token auth.Require
// admitted it with or, for authentication of one's own, by the principal
// set with mcp.WithPrincipal. Requests with neither share one bucket.
func BySubject(ctx context.Context, _ *rpc.Request) any {
	if info := auth.TokenInfoFromContext(ctx); info != nil && info.Subject != "" {
		return subjectKey(info.Subject)
	}
	if p := mcp.PrincipalFromContext(ctx); p != "" {
		return principalKey(p)
	}
	return nil
}

// ByRemoteAddr keys a request by the host of the HTTP request it came on
// (RemoteAddr without its port). Behind a proxy every request has the
// proxy's address: use a KeyFunc of one's own that reads the header the
// proxy sets, when the proxy is trusted to set it. Requests not on HTTP
// (stdio) share one bucket.
func ByRemoteAddr(ctx context.Context, _ *rpc.Request) any {
	r := rpc.HTTPRequestFromContext(ctx)
	if r == nil {
		return nil
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return addrKey(host)
}

// ByClient keys a request by the first of its subject (as [BySubject]
// finds it), its session and its remote address that it has: the closest thing to "who
// is asking" each transport knows.
func ByClient(ctx context.Context, req *rpc.Request) any {
	if k := BySubject(ctx, req); k != nil {
		return k
	}
	return BySession(ctx, req)
}

// Everyone gives every request the same key: the rule limits all clients
// together (the server's total rate).
func Everyone(context.Context, *rpc.Request) any { return everyone{} }
