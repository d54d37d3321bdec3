package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// Ask is a request of the server waiting for the person to answer it in
// the page: sampling/createMessage, elicitation/create or roots/list.
type Ask struct {
	// ID names the ask in the page's answer.
	ID int `json:"id"`
	// Method is the server's method.
	Method string `json:"method"`
	// Params are the request's params.
	Params json.RawMessage `json:"params,omitempty"`
	// Suggested is a ready answer the page offers to send as is (the roots
	// given on the command line); nil when there is none.
	Suggested json.RawMessage `json:"suggested,omitempty"`
}

// Answer is the person's answer to an Ask: a result, or a refusal that the
// server gets as a JSON-RPC error.
type Answer struct {
	// Result is the answer's result, which the client checks against the
	// method's result schema before sending it.
	Result json.RawMessage `json:"result,omitempty"`
	// Refuse, when set, refuses the request with this message.
	Refuse string `json:"refuse,omitempty"`
}

// codeRefused is the error code of a request the person refused, the one
// MCP clients use for a refused sampling request.
const codeRefused = -1

// errNoAsk is answered when the page answers an ask that is not waiting.
var errNoAsk = errors.New("no request of the server waits for that answer (already answered, or cancelled)")

// asks holds the server's requests that wait for the person.
type asks struct {
	events *events

	mu      sync.Mutex
	last    int
	waiting map[int]*waiter
}

// waiter is an ask waiting for its answer. accept decodes a result into
// the value the client's handler returns, so that an answer the client
// could not send is refused to the page, and the ask waits on.
type waiter struct {
	method string
	accept func(json.RawMessage) error
	ch     chan Answer
}

func newAsks(ev *events) *asks { return &asks{events: ev, waiting: map[int]*waiter{}} }

// ask shows the page a request of the server and waits for the person's
// answer, or for ctx to end (the server cancelled, the session closed). The
// result is decoded into into.
func (a *asks) ask(ctx context.Context, method string, params, suggested, into any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	var s json.RawMessage
	if suggested != nil {
		if s, err = json.Marshal(suggested); err != nil {
			return err
		}
	}
	w := &waiter{method: method, ch: make(chan Answer, 1), accept: func(r json.RawMessage) error { return json.Unmarshal(r, into) }}
	a.mu.Lock()
	a.last++
	id := a.last
	a.waiting[id] = w
	a.mu.Unlock()
	a.events.add("ask", Ask{ID: id, Method: method, Params: p, Suggested: s})
	select {
	case ans := <-w.ch:
		a.events.add("answered", map[string]any{"id": id, "refused": ans.Refuse != ""})
		if ans.Refuse != "" {
			return rpc.NewError(codeRefused, ans.Refuse)
		}
		return nil
	case <-ctx.Done():
		a.mu.Lock()
		delete(a.waiting, id)
		a.mu.Unlock()
		a.events.add("answered", map[string]any{"id": id, "cancelled": true})
		return ctx.Err()
	}
}

// answer hands the person's answer to the ask waiting for it. A result
// that does not decode is refused, and the ask waits on.
func (a *asks) answer(id int, ans Answer) error {
	if ans.Refuse == "" && len(ans.Result) == 0 {
		return errors.New("an answer needs a result or a refusal")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	w, ok := a.waiting[id]
	if !ok {
		return errNoAsk
	}
	if ans.Refuse == "" {
		if err := w.accept(ans.Result); err != nil {
			return fmt.Errorf("the answer is not a result of %s: %w", w.method, err)
		}
	}
	delete(a.waiting, id)
	w.ch <- ans
	return nil
}
