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

// requestIDFromContext returns the id of the client request a handler is
// serving (see requestContext), and false outside a request handler. What
// the handler sends travels with that request's response: the Streamable
// HTTP transport puts it on the request's own stream.
func requestIDFromContext(ctx context.Context) (rpc.ID, bool) {
	id, ok := ctx.Value(requestKey{}).(*rpc.ID)
	if !ok {
		return rpc.ID{}, false
	}
	return *id, true
}
