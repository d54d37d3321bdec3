package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
)

// Asking the client from a handler. The Request's CreateMessage, Elicit and
// ListRoots work in both eras. In a handshake session they send the
// server→client request and wait for the answer. In a stateless request
// (2026-07-28) the server cannot send a request: the first question without
// an answer ends the handler's run, and the server answers the call with an
// InputRequiredResult carrying it; the client answers and retries, and the
// server runs the handler again from the start. The Nth question of a run
// is matched to the Nth answer: those of earlier rounds travel in the
// sealed requestState, the last round's in inputResponses under the key
// "ask<N>". A handler therefore asks its questions one after the other, in
// an order that depends only on the answers it got, and does its side
// effects after the last one.

// ErrNotInVersion is wrapped by the errors of what the protocol version of
// a request cannot do, whatever the client declares (see [UnsupportedError]).
var ErrNotInVersion = errors.New("mcp: the request's protocol version cannot do this")

// UnsupportedError is the error a handler gets when it asks for something
// the protocol version of its request cannot carry, such as asking the
// client for input while serving completion/complete in 2026-07-28, where
// only tools/call, prompts/get and resources/read may answer
// input_required. errors.Is(err, ErrNotInVersion) holds.
type UnsupportedError struct {
	// Method is what the handler asked for (elicitation/create…).
	Method string
	// Version is the request's protocol version.
	Version string
	// Reason says why it cannot be done.
	Reason string
}

// Error says what cannot be done, in which version and why.
func (e *UnsupportedError) Error() string {
	if e.Version == "" {
		return fmt.Sprintf("mcp: %s is not possible: %s", e.Method, e.Reason)
	}
	return fmt.Sprintf("mcp: %s is not possible in protocol version %s: %s", e.Method, e.Version, e.Reason)
}

// Unwrap makes errors.Is(err, ErrNotInVersion) hold.
func (e *UnsupportedError) Unwrap() error { return ErrNotInVersion }

// CreateMessage asks the client's language model for a completion
// (sampling/createMessage). The client must declare sampling, and
// sampling.tools when p offers tools; otherwise the error wraps
// ErrNotDeclared and nothing is asked. Stateless, see the package's notes
// on asking: the error of an unanswered question must be returned by the
// handler.
func (r *Request[P]) CreateMessage(ctx context.Context, p *CreateMessageRequestParams) (*CreateMessageResult, error) {
	if r.Session != nil {
		return r.Session.CreateMessage(ctx, p)
	}
	return ask[CreateMessageResult](r, SampleInput(p), "CreateMessageResult")
}

// Elicit asks the user, through the client, for information
// (elicitation/create): a form (ElicitRequestFormParams) or, from
// 2025-11-25, a URL to visit (ElicitRequestURLParams). The client must
// declare the mode; otherwise the error wraps ErrNotDeclared and nothing is
// asked.
func (r *Request[P]) Elicit(ctx context.Context, p *ElicitRequestParams) (*ElicitResult, error) {
	if r.Session != nil {
		return r.Session.Elicit(ctx, p)
	}
	return ask[ElicitResult](r, ElicitInput(p), "ElicitResult")
}

// ListRoots asks the client for its roots (roots/list). The client must
// declare roots; otherwise the error wraps ErrNotDeclared.
func (r *Request[P]) ListRoots(ctx context.Context) (*ListRootsResult, error) {
	if r.Session != nil {
		return r.Session.ListRoots(ctx)
	}
	return ask[ListRootsResult](r, RootsInput(), "ListRootsResult")
}

// ElicitationComplete tells the client that the out-of-band interaction of
// a URL-mode elicitation has finished. In a 2025-11-25 session it sends
// notifications/elicitation/complete; a stateless request has nothing to
// send (2026-07-28 dropped the notification: the client's retry, after the
// user is done, ends the interaction), so it returns nil.
func (r *Request[P]) ElicitationComplete(ctx context.Context, elicitationID string) error {
	if r.Session != nil {
		return r.Session.ElicitationComplete(ctx, elicitationID)
	}
	return nil
}

// ask puts question q to the client of a stateless request and returns the
// answer of this step, decoded as T after checking it against the schema
// definition def.
func ask[T, P any](r *Request[P], q InputRequest, def string) (*T, error) {
	c := r.call
	if c == nil || !c.stateless {
		return nil, &UnsupportedError{Method: q.Method, Version: r.ProtocolVersion(), Reason: "the request was not made by a server"}
	}
	raw, err := c.ask(q, def)
	if err != nil {
		return nil, err
	}
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, fmt.Errorf("mcp: the client's answer to %s: %w", q.Method, err)
	}
	return v, nil
}

// askKey is the inputResponses key of the nth question (from 0) of a run.
func askKey(n int) string { return "ask" + strconv.Itoa(n+1) }

// askStateTag starts the requestState that carries the answers of earlier
// rounds, telling it apart from a state a handler returned itself.
var askStateTag = []byte("\x00mcp/asks\x00")

// askState is what a stateless request's handler asked through its
// Request: asked counts this run's questions; answers are those of earlier
// rounds (read from the request's state once, answersRead) and of this
// one; pending is the first question without an answer, which ends the
// round.
type askState struct {
	mu          sync.Mutex
	asked       int
	answers     []json.RawMessage
	answersRead bool
	pending     *InputRequired
}

// askState returns the request's askState, made on first use.
func (c *callState) askState() *askState {
	if a := c.asks.Load(); a != nil {
		return a
	}
	c.asks.CompareAndSwap(nil, new(askState))
	return c.asks.Load()
}

// pendingQuestion returns the question that ends the round, or nil.
func (c *callState) pendingQuestion() *InputRequired {
	a := c.asks.Load()
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pending
}

// ask returns the answer to the question of this step of the run: from an
// earlier round, or from this round's inputResponses when it is a valid
// def. Otherwise the question is pending: the error (an *InputRequired)
// ends the round, and the server sends the question with the answers so
// far as the request's state.
func (c *callState) ask(q InputRequest, def string) (json.RawMessage, error) {
	if !c.mayAsk {
		return nil, &UnsupportedError{Method: q.Method, Version: c.version, Reason: c.method + " cannot answer input_required"}
	}
	a := c.askState()
	a.mu.Lock()
	defer a.mu.Unlock()
	if !a.answersRead {
		a.answersRead = true
		if st, ok := bytes.CutPrefix(c.state, askStateTag); ok {
			if err := json.Unmarshal(st, &a.answers); err != nil {
				return nil, fmt.Errorf("mcp: the request state's answers: %w", err)
			}
		}
	}
	n := a.asked
	a.asked++
	if n < len(a.answers) {
		return a.answers[n], nil
	}
	if a.pending != nil {
		return nil, a.pending // a question is already pending: this one waits for the next round
	}
	key := askKey(n)
	if raw, ok := c.inputs[key]; ok && validDef(def, raw) {
		a.answers = append(a.answers, raw)
		return raw, nil
	}
	one := &InputRequired{Requests: map[string]InputRequest{key: q}}
	if missing := one.required(c.caps); missing != nil {
		return nil, &notDeclaredError{missing}
	}
	state, err := json.Marshal(a.answers)
	if err != nil {
		return nil, err
	}
	one.State = append(bytes.Clone(askStateTag), state...)
	a.pending = one
	return nil, one
}

// askedState reports whether a state is the answers of earlier rounds that
// ask keeps, rather than one a handler returned itself.
func askedState(state []byte) bool { return bytes.HasPrefix(state, askStateTag) }
