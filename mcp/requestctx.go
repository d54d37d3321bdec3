package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"sync/atomic"
	"time"

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
	req      *rpc.Request // until paramsDecoded drops its params
	progress progressState

	// cancel ends the request's own context; cancelled records that the
	// client cancelled it (notifications/cancelled), for a request a
	// session tracks.
	cancel    context.CancelFunc
	cancelled bool
	// awaiting counts the requests the call has sent the client and
	// waits for (sampling, elicitation, roots, ping).
	awaiting atomic.Int32

	// handshake is the call state of a handshake session's request (see
	// callOf), set when the session admits it (ServerSession.begin). It is
	// allocated with the context (handshakeRequest), not on its own.
	handshake *callState
}

// handshakeRequest is the context of a handshake session's request and its
// call state, in one allocation.
type handshakeRequest struct {
	requestContext
	call   callState
	parent detached
}

// newHandshakeContext returns the context of req, a request of session ss,
// served within parent, the connection's context: with parent's values,
// and cancelled by its own cancel, or by the session when the connection's
// context ends (rpc.WithCancelHook, ServerSession.cancelCalls). It is not
// registered with parent: a context derived from the connection's would
// leave it a record of its children, kept (empty) as long as the
// connection, which an idle session need not hold.
func newHandshakeContext(parent context.Context, ss *ServerSession, req *rpc.Request) *requestContext {
	hr := &handshakeRequest{requestContext: requestContext{ss: ss, id: req.ID, req: req, progress: progressState{params: req.Params}}}
	hr.parent = detached{parent}
	hr.Context, hr.cancel = context.WithCancel(&hr.parent)
	hr.handshake = &hr.call
	return &hr.requestContext
}

// detached is a context with the values of another and without its
// deadline and cancellation, as context.WithoutCancel returns, held in
// the allocation of the request it is the parent of.
type detached struct{ context.Context }

func (*detached) Deadline() (time.Time, bool) { return time.Time{}, false }
func (*detached) Done() <-chan struct{}       { return nil }
func (*detached) Err() error                  { return nil }

// requestContextKey finds the requestContext itself.
type requestContextKey struct{}

// paramsDecoded drops every reference the server keeps to the raw params of
// the request ctx serves, once they are decoded into the handler's typed
// params, so that a call that waits (for the client, say) keeps what its
// handler holds and not the bytes of the message it came in. meta is the
// decoded _meta, where the progress token is taken from; args the decoded
// arguments, when the method has them as JSON, which a stateless request
// binds its requestState to.
func paramsDecoded(ctx context.Context, meta *RequestMeta, args json.RawMessage) {
	c, _ := ctx.Value(requestContextKey{}).(*requestContext)
	if c == nil || c.req == nil {
		return
	}
	c.progress.mu.Lock()
	if !c.progress.read {
		c.progress.read = true
		if meta != nil && meta.ProgressToken != nil {
			c.progress.token, c.progress.found = *meta.ProgressToken, true
		}
	}
	c.progress.params = nil
	c.progress.mu.Unlock()
	if c.call != nil {
		if c.call.params != nil {
			// Zeroed, not only let go: it may share an allocation with
			// the call.
			*c.call.params = statelessParams{}
			c.call.params = nil
		}
		if args != nil {
			c.call.bindArgs = args
		} else {
			c.call.bindArgs = bytes.Clone(c.call.bindArgs)
		}
	}
	c.req.DropParams()
	c.req = nil
}

// Value answers the request's own keys and passes the others on. A
// request's stateless call state is its own or none: a handshake request
// (no call) answers callKey with nil itself rather than asking every
// context it derives from, since no call state of another request is its
// own (callOf then finds its handshake state).
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
		return nil
	case requestKey:
		return &c.id
	case progressKey:
		return &c.progress
	case requestContextKey:
		return c
	}
	return c.Context.Value(key)
}
