package mcp

import (
	"context"

	"github.com/schemarpc/schemarpc/rpc"
)

type sessionKey struct{}
type requestKey struct{}

// withSession marks ctx as belonging to a session's call.
func withSession(ctx context.Context, ss *ServerSession) context.Context {
	return context.WithValue(ctx, sessionKey{}, ss)
}

// SessionFromContext returns the session whose call ctx belongs to, or nil
// outside a handler.
func SessionFromContext(ctx context.Context) *ServerSession {
	ss, _ := ctx.Value(sessionKey{}).(*ServerSession)
	return ss
}

// withRequestID marks ctx as serving the client request with this id, so
// that what the handler sends can travel with that request's response (the
// Streamable HTTP transport puts it on the request's own stream).
func withRequestID(ctx context.Context, id rpc.ID) context.Context {
	return context.WithValue(ctx, requestKey{}, id)
}

// requestIDFromContext returns the id of the client request a handler is
// serving, and false outside a request handler.
func requestIDFromContext(ctx context.Context) (rpc.ID, bool) {
	id, ok := ctx.Value(requestKey{}).(rpc.ID)
	return id, ok
}
