package mcp

import (
	"context"
	"encoding/json"

	"github.com/schemarpc/schemarpc/rpc"
)

// requestContext is the context a client request is served in. It carries
// in one allocation what the request's handlers look up: its session (nil
// on the stateless path outside a session), its stateless call state (nil
// in a session of the handshake era), its id and its progress state. Each
// of these as a context.WithValue cost one allocation, and two for the
// boxed id and the progress state.
type requestContext struct {
	context.Context
	ss       *ServerSession
	call     *callState
	id       rpc.ID
	progress progressState

	// cancel ends the request's own context; cancelled records that the
	// client cancelled it (notifications/cancelled), for a request a
	// session tracks.
	cancel    context.CancelFunc
	cancelled bool
}

// newRequestContext returns the context of the request with this id and
// these params, served within parent.
func newRequestContext(parent context.Context, ss *ServerSession, c *callState, id rpc.ID, params json.RawMessage) *requestContext {
	return &requestContext{Context: parent, ss: ss, call: c, id: id, progress: progressState{params: params}}
}

// Value answers the request's own keys and passes the others on.
func (c *requestContext) Value(key any) any {
	switch key.(type) {
	case sessionKey:
		if c.ss != nil {
			return c.ss
		}
	case callKey:
		if c.call != nil {
			return c.call
		}
	case requestKey:
		return &c.id
	case progressKey:
		return &c.progress
	}
	return c.Context.Value(key)
}
