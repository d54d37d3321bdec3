package mcp

import (
	"context"
	"encoding/json"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// Handle serves one call of the session's client. It applies the lifecycle
// (initialize first, only ping before it), the version's method set and
// the capabilities offered, tracks the request for cancellation, and hands
// it to the server's router, which validates params against the schema.
// A request is counted against the memory budget while it runs (refused
// with -32000 and a retry hint past it), and an error answer never quotes
// more than a bounded excerpt of what the client sent.
//
// A request of the stateless protocol (its params._meta names the
// version, or its method exists only there) is served statelessly instead,
// beside the session: one stdio process serves both eras.
func (ss *ServerSession) Handle(ctx context.Context, req *rpc.Request) (any, error) {
	if !req.IsNotification() {
		admitted, refusal := ss.server.admitCall(ctx, ss, req)
		if refusal != nil {
			return nil, refusal
		}
		defer admitted.release()
	}
	res, err := ss.handle(ctx, req)
	return res, rpc.BoundError(err)
}

// handle is Handle before rpc.BoundError.
func (ss *ServerSession) handle(ctx context.Context, req *rpc.Request) (any, error) {
	if !req.IsNotification() && ss.server.servesStateless() {
		if statelessOnly(req.Method) {
			return ss.handleStateless(ctx, req, nil)
		}
		// Scanned once: what tells the request stateless admits it.
		if sc := ss.server.scanStatelessCall(req); sc != nil {
			return ss.handleStateless(ctx, req, sc)
		}
	}
	if req.Method == "initialize" {
		defer ss.initHandled()
	} else if !ss.initialized() {
		// Calls run concurrently: one read after an initialize waits for it.
		ss.awaitInit(ctx)
	}
	if req.IsNotification() {
		return nil, ss.notification(withSession(ctx, ss), req)
	}
	rc := newHandshakeContext(ctx, ss, req)
	if err := ss.begin(rc, req.Method); err != nil {
		rc.cancel()
		return nil, err
	}
	if ctx.Err() != nil {
		// The connection's context ended before the request was tracked:
		// the session did not cancel it with the others.
		rc.cancel()
	}
	res, err := ss.server.handshakeRouter().Handle(rc, req)
	if ss.untrack(rc) {
		// The client gave the request up: it gets no answer.
		return nil, rpc.ErrNoResponse
	}
	return res, err
}

// handleStateless serves a stateless request that arrived on the session's
// connection; sc is as for admitStateless. notifications/cancelled from
// the client cancels it (and ends a listen); it is then left unanswered.
// The context the session tracks it by is the one it is served in
// (sc.rc), made as a request of the session's is (newHandshakeContext):
// not registered with the connection's context, whose end cancels it
// through the session (ServerSession.cancelAllCalls), so that concurrent
// calls do not take turns at that context's lock.
func (ss *ServerSession) handleStateless(ctx context.Context, req *rpc.Request, sc *statelessCall) (any, error) {
	if sc == nil {
		sc = ss.server.newStatelessCall(req)
	}
	rc := &sc.rc
	rc.id = req.ID
	sc.parent = detached{ctx}
	rc.Context, rc.cancel = context.WithCancel(&sc.parent)
	ss.track(rc)
	if ctx.Err() != nil {
		// The connection's context ended before the request was tracked:
		// the session did not cancel it with the others.
		rc.cancel()
	}
	res, err := ss.server.serveStatelessUnbounded(rc.Context, req, connSink{ss.conn}, sc) // Handle bounds the error
	if ss.untrack(rc) {
		return nil, rpc.ErrNoResponse
	}
	return res, err
}

// begin admits a request of the session (admit) and, admitted, tracks it
// (track) and gives it the facts of the session it is served with
// (rc.handshake), all under one lock.
func (ss *ServerSession) begin(rc *requestContext, method string) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if err := ss.admit(method); err != nil {
		return err
	}
	ss.putInflight(rc)
	*rc.handshake = handshakeCallState(ss.declared)
	return nil
}

// admit decides whether a request may run now; ss.mu is held.
func (ss *ServerSession) admit(method string) error {
	if ss.state == stateNew {
		if method == "initialize" || method == "ping" {
			return nil
		}
		return rpc.InvalidRequest("the session is not initialized: the first request must be initialize")
	}
	if method == "initialize" {
		return rpc.InvalidRequest("the session is already initialized")
	}
	// The capability that gates a method comes from the schema; a method
	// it does not know (the application's own) is served whenever the
	// session is initialized. A version without a method (tasks before
	// 2025-11-25) is offered none of its capability.
	facts, known := v20251125.MCPMethodFacts(method)
	if !known {
		return nil
	}
	if need := capabilityOf(facts); need != 0 && !ss.offered.has(need) {
		return rpc.MethodNotFound(method)
	}
	return nil
}

// notification handles a notification from the client. Before initialize
// only notifications/initialized and cancellations are of use; everything
// else is dropped, never answered.
func (ss *ServerSession) notification(ctx context.Context, req *rpc.Request) error {
	switch req.Method {
	case "notifications/initialized":
		// Not saved (stateChanged): a notification is handled after its
		// POST was answered, when the client may have changed the session
		// at another replica; putting this copy's whole state then would
		// undo that. The next change a request makes takes it along.
		ss.mu.Lock()
		first := ss.state == stateInitialized
		if first {
			ss.state = stateReady
		}
		ss.mu.Unlock()
		if first && ss.server.opts.Initialized != nil {
			ss.server.opts.Initialized(ctx, ss)
		}
		return nil
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil && p.RequestID != nil {
			ss.cancel(p.RequestID)
		}
		return nil
	}
	if !ss.initialized() {
		return nil
	}
	if req.Method == "notifications/roots/list_changed" {
		if f := ss.server.opts.RootsListChanged; f != nil {
			f(ctx, ss)
		}
		return nil
	}
	_, err := ss.server.handshakeRouter().Handle(ctx, req)
	return err
}
