package mcp

import (
	"context"
	"encoding/json"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// The server's notifications are taken off the connection as they are read
// and handled one at a time, in the order they arrived, by one goroutine
// per session (the connection would run them concurrently, so progress
// could go backwards and a list change overtake the next one). The
// progress handler of a call (WithProgressHandler) runs on the reader
// itself, so that a call's progress is all delivered before the call
// returns.

// maxQueuedNotes bounds the notifications waiting for their handlers; past
// it the oldest are dropped (with a warning).
const maxQueuedNotes = 4096

// noteQueue is the session's queue of notifications to handle.
type noteQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	items  []*rpc.Request
	closed bool
}

func newNoteQueue() *noteQueue {
	q := &noteQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// push queues a notification; it reports false when one had to be dropped.
func (q *noteQueue) push(n *rpc.Request) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return true
	}
	dropped := false
	if len(q.items) >= maxQueuedNotes {
		q.items = q.items[1:]
		dropped = true
	}
	q.items = append(q.items, n)
	q.cond.Signal()
	return !dropped
}

// pop waits for the next notification; nil once the queue is closed and
// empty.
func (q *noteQueue) pop() *rpc.Request {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.items) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.items) == 0 {
		return nil
	}
	n := q.items[0]
	q.items = q.items[1:]
	return n
}

// close ends the queue once what it holds is handled.
func (q *noteQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// runNotes handles the queued notifications until the queue closes.
func (s *ClientSession) runNotes() {
	ctx := context.WithValue(context.Background(), clientSessionKey{}, s)
	for n := s.notes.pop(); n != nil; n = s.notes.pop() {
		_, stateless := s.state()
		router := handshakeClientRouter()
		if stateless {
			router = statelessClientRouter()
		}
		if _, err := s.dispatch(ctx, router, n); err != nil {
			s.log.Debug("mcp: a notification from the server was not handled", "method", n.Method, "error", err)
		}
	}
}

// takeNote takes a notification off the connection: the progress handler
// of its call runs now, everything else is queued. It reports whether msg
// was a notification.
func (s *ClientSession) takeNote(msg []byte) bool {
	env, ok := rpc.ReadEnvelope(msg)
	if !ok || env.Kind() != rpc.KindNotification {
		return false
	}
	method, ok := jsonscan.String(env.Method)
	if !ok || method == "" {
		return false
	}
	s.noteReceived(method, env.Params)
	if method == "notifications/progress" {
		var p struct {
			Token json.RawMessage `json:"progressToken"`
		}
		if json.Unmarshal(env.Params, &p) == nil && p.Token != nil {
			s.mu.Lock()
			f := s.progress[string(compactJSON(p.Token))]
			s.mu.Unlock()
			var q ProgressNotificationParams
			if f != nil && rpc.DecodeJSON(env.Params, &q) == nil {
				f(&q)
			}
		}
	}
	if !s.notes.push(&rpc.Request{Method: method, Params: env.Params}) {
		s.log.Warn("mcp: too many notifications waiting for their handlers; the oldest was dropped", logx.Method, method)
	}
	return true
}

// compactJSON returns JSON text without insignificant space.
func compactJSON(raw json.RawMessage) []byte {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return raw
	}
	return rawJSON(v)
}
