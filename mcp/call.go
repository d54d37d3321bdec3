package mcp

import (
	"context"
	"encoding/json"
	"sync/atomic"
)

// callState is what the server knows about one client request while it is
// served, in either era: the handshake session's facts are read from the
// session, a stateless request's from its own params._meta. A task's run
// shares the request's facts (callFacts) and keeps the rest for itself
// (forTask).
type callState struct {
	callFacts

	sink statelessSink // stateless: where notifications about the request go

	// asks holds the questions a stateless handler asked through its
	// Request (see ask.go), made on the first one, so that a request that
	// asks nothing pays nothing for them.
	asks atomic.Pointer[askState]

	// cache is the hint a cacheable result sets for the stateless era.
	cache *CacheHint
}

// callFacts are what a request brings and a task's run of it starts from:
// who asks, what for, in which version, with which capabilities and
// answers.
type callFacts struct {
	stateless bool
	mayAsk    bool               // stateless: the method may answer input_required
	version   string             // stateless: the version the request names
	caps      ClientCapabilities // declared by the request (stateless) or the session
	logLevel  int                // stateless: index in logLevels the request asked for; -1 = no messages

	// principal, method, bindTarget and bindArgs identify the request for
	// requestState: who it acts for (WithPrincipal), the method, the tool,
	// prompt or resource, and its arguments; bound is their canonical
	// form, made on first use.
	principal  string
	method     string
	bindTarget string
	bindArgs   json.RawMessage
	bound      string

	// The answers of a multi-round-trip retry.
	inputs map[string]json.RawMessage
	state  []byte

	// params are the stateless request's members the protocol reads,
	// scanned once by admitStateless; nil in the handshake era.
	params *statelessParams
}

// forTask returns the state a task's background run serves (see
// startStatelessTask): the request's facts and answers, with no question
// asked yet, no cache hint, and notifications going nowhere, since the
// request's own stream ends with the created task.
func (c *callState) forTask() *callState {
	return &callState{callFacts: c.callFacts, sink: discardSink{}}
}

// binding names the request for requestState (see bindingOf), computed
// once: only a multi-round-trip request needs it.
func (c *callState) binding() string {
	if c.bound == "" {
		c.bound = c.principal + "\x00" + bindingOf(c.method, c.bindTarget, c.bindArgs)
	}
	return c.bound
}

type callKey struct{}

// callFromContext returns the stateless request ctx serves, or nil outside
// the stateless path (see callOf for session requests).
func callFromContext(ctx context.Context) *callState {
	if c, ok := ctx.Value(callKey{}).(*callState); ok {
		return c
	}
	return nil
}

// setCache records the caching hint of the result being built.
func setCache(ctx context.Context, h CacheHint) {
	if c := callFromContext(ctx); c != nil {
		c.cache = &h
	}
}

// handshakeCall describes a request of a handshake session: the capabilities
// its client declared, against which the server checks what a handler asks
// of it.
func handshakeCall(ss *ServerSession) *callState {
	c := new(callState)
	if ss == nil {
		*c = handshakeCallState(ClientCapabilities{})
		return c
	}
	ss.mu.Lock()
	*c = handshakeCallState(ss.declared)
	ss.mu.Unlock()
	return c
}

// handshakeCallState is the state a handshake session's request starts
// from: the capabilities its client declared, and no log level of its own
// (the session's applies).
func handshakeCallState(declared ClientCapabilities) callState {
	return callState{callFacts: callFacts{logLevel: -1, caps: declared}}
}

// callOf returns the request ctx serves: the stateless request the
// dispatcher described, or a request of session ss.
func callOf(ctx context.Context, ss *ServerSession) *callState {
	if c := callFromContext(ctx); c != nil {
		return c
	}
	if rc, _ := ctx.Value(requestContextKey{}).(*requestContext); rc != nil && rc.ss == ss && rc.handshake != nil {
		return rc.handshake
	}
	return handshakeCall(ss)
}
