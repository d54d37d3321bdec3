package mcp

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// replicas is the part of a Streamable HTTP handler that shares
// handshake-era sessions with the other replicas of the server
// (HTTPOptions.Sessions and Broker). Without a SessionStore the handler
// has none, and every session lives in this process only.
//
// A session's state (what initialize negotiated, and what the client
// changed since) is put in the store whenever it changes; a replica that
// gets a request for a session it does not hold takes the session up from
// there. What a POST without requests carries (responses to the server's
// own requests, notifications such as notifications/cancelled) is
// delivered here and published on the session's topic, so that the
// replica where the call or the waiting request is receives it too. A
// message for the session's GET stream that this replica has no client
// for is published the same way, for the replica that has one. Ending a
// session (DELETE, or the server closing it) drops its state and tells
// the other replicas, which let their copies go.
type replicas struct {
	h        *StreamableHTTPHandler
	sessions SessionStore
	broker   Broker // nil: what is only published is lost
	self     string // this replica, in what it publishes
	ttl      time.Duration

	stopFanOut func() // stops passing changes on and hearing of the others'
}

// maxSharedTTL is how long a shared session's state lives past its last
// request when SessionTimeout says never.
const maxSharedTTL = 30 * 24 * time.Hour

// storeTimeout bounds one call to the session store or the broker made
// for a request.
const storeTimeout = 5 * time.Second

// newReplicas returns the replica wiring of h, nil without a store.
func newReplicas(h *StreamableHTTPHandler) *replicas {
	if h.opts.Sessions == nil {
		return nil
	}
	ttl := h.opts.SessionTimeout
	if ttl <= 0 {
		ttl = maxSharedTTL
	}
	r := &replicas{h: h, sessions: h.opts.Sessions, broker: h.opts.Broker, self: h.self, ttl: ttl}
	r.fanOut()
	return r
}

// firstID returns where a session's own request ids start on this
// replica: a random point below 2^52, so that the replicas of one session
// never send two requests with one id (a response reaches all of them).
func firstID() int64 {
	var b [8]byte
	rand.Read(b[:])
	return int64(binary.LittleEndian.Uint64(b[:]) >> 12)
}

// replicaMessage is what replicas publish on a session's topic.
type replicaMessage struct {
	From      string          `json:"from"`
	Kind      string          `json:"kind"`                // kindFrame, kindEnd, kindGet, kindState or kindEvent
	Stream    string          `json:"stream,omitempty"`    // kindEvent: the stream
	Completed bool            `json:"completed,omitempty"` // kindEvent: its requests are all answered
	Body      json.RawMessage `json:"body,omitempty"`      // the frame, or the GET-stream message
	Event     string          `json:"event,omitempty"`     // the GET-stream message's event id
}

const (
	kindFrame = "frame" // a POSTed frame without requests
	kindEnd   = "end"   // the session ended
	kindGet   = "get"   // a message for the session's GET stream
	kindState = "state" // the session's state changed: the new state
	kindEvent = "event" // a stream no client is connected to has new events, or completed
	kindProbe = "probe" // is this stream still open at its replica?
)

// topic is the broker topic of a session.
func topic(session string) string { return "mcp/session/" + session }

// share makes a session this replica holds shared: its state goes to the
// store on every change, and what other replicas publish for it arrives.
// It puts the state at once when there is one (a session taken up).
func (r *replicas) share(sess *httpSession) {
	sess.ss.onChange = func() { r.save(sess) }
	sess.ss.hears = sess.hasGetClient
	if r.broker == nil {
		return
	}
	stop, err := r.broker.Subscribe(context.Background(), topic(sess.id), func(msg []byte) { r.receive(sess, msg) })
	if err != nil {
		r.h.log.Warn("mcp: cannot hear the other replicas about a session", "session", sess.id, "error", err)
		return
	}
	sess.unshare = stop
}

// save puts a session's state in the store. Saves of one session run one
// at a time, so that the store ends with the latest revision.
func (r *replicas) save(sess *httpSession) {
	sess.saving.Lock()
	defer sess.saving.Unlock()
	st, ok := sess.ss.snapshot()
	if !ok {
		return
	}
	doc, err := json.Marshal(st)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := r.sessions.Put(ctx, sess.id, doc, r.ttl); err != nil {
		r.h.log.Warn("mcp: cannot share a session's state", "session", sess.id, "error", err)
		return
	}
	sess.touched(time.Now())
	r.publish(sess.id, replicaMessage{Kind: kindState, Body: doc})
}

// load takes up a session another replica started. It returns nil, with
// the status to answer, when the store has no such session or cannot say.
func (r *replicas) load(ctx context.Context, id string) (*httpSession, int, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	doc, err := r.sessions.Get(ctx, id)
	switch {
	case errors.Is(err, ErrSessionNotFound):
		return nil, http.StatusNotFound, errors.New("session not found")
	case err != nil:
		r.h.log.Warn("mcp: the session store failed", "session", id, "error", err)
		return nil, http.StatusServiceUnavailable, errors.New("the session store is unavailable")
	}
	return r.h.adopt(id, doc)
}

// touch brings a shared session this replica holds up to date with the
// store before one of its requests is served, and keeps it alive there,
// at most every quarter of its ttl; false when the store no longer has it
// (it ended or expired elsewhere). The state is read on every request:
// the word of a change made at another replica (kindState) travels apart
// from the client's next request and may come after it, or never, when
// this copy subscribed after it was published; the store has every change
// a client has seen answered.
func (r *replicas) touch(ctx context.Context, sess *httpSession) bool {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if !r.refresh(ctx, sess) {
		return false
	}
	now := time.Now()
	if !sess.touchDue(now, r.ttl/4) {
		return true
	}
	err := r.sessions.Touch(ctx, sess.id, r.ttl)
	if errors.Is(err, ErrSessionNotFound) {
		return false
	}
	if err != nil {
		r.h.log.Warn("mcp: cannot renew a shared session", "session", sess.id, "error", err)
		return true
	}
	sess.touched(now)
	return true
}

// refresh brings the copy of a shared session up to date with the store;
// false when the store no longer has the session.
func (r *replicas) refresh(ctx context.Context, sess *httpSession) bool {
	doc, err := r.sessions.Get(ctx, sess.id)
	switch {
	case errors.Is(err, ErrSessionNotFound):
		return false
	case err != nil:
		r.h.log.Warn("mcp: cannot read a shared session's state", "session", sess.id, "error", err)
	default:
		if err := sess.ss.restore(doc); err != nil {
			r.h.log.Warn("mcp: the stored state of a session is not usable", "session", sess.id, "error", err)
		}
	}
	return true
}

// publish sends one message about a session to the other replicas.
func (r *replicas) publish(session string, m replicaMessage) {
	if r.broker == nil {
		return
	}
	m.From = r.self
	msg, err := json.Marshal(m)
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := r.broker.Publish(ctx, topic(session), msg); err != nil {
		r.h.log.Warn("mcp: cannot tell the other replicas", "session", session, "kind", m.Kind, "error", err)
	}
}

// ended drops an ended session's state and tells the other replicas.
func (r *replicas) ended(id string) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := r.sessions.Delete(ctx, id); err != nil {
		r.h.log.Warn("mcp: cannot drop an ended session's shared state", "session", id, "error", err)
	}
	r.publish(id, replicaMessage{Kind: kindEnd})
}

// receive acts on what another replica published about a session held
// here.
func (r *replicas) receive(sess *httpSession, msg []byte) {
	var m replicaMessage
	if json.Unmarshal(msg, &m) != nil || m.From == r.self {
		return
	}
	switch m.Kind {
	case kindFrame:
		if sess.deliverShared(context.Background(), inFrame{msg: m.Body}) != nil {
			r.h.log.Debug("mcp: a shared frame reached an ended session", "session", sess.id)
		}
	case kindEnd:
		sess.release()
	case kindGet:
		sess.relayGet(sseEvent{id: m.Event, data: m.Body})
	case kindEvent:
		sess.streamNews(m.Stream, m.Completed)
	case kindProbe:
		sess.answerProbe(m.Stream)
	case kindState:
		if err := sess.ss.restore(m.Body); err != nil {
			r.h.log.Warn("mcp: another replica's state of a session is not usable", "session", sess.id, "error", err)
		}
	}
}

// replicaState is what an httpSession keeps for sharing; its fields are
// guarded by the session's mu.
type replicaState struct {
	relays    map[string]*streamRelay // resumed streams whose calls run elsewhere, by name
	unshare   func()                  // ends the broker subscription; nil when none
	local     bool                    // closing lets this copy go; the session lives on elsewhere
	lastTouch time.Time
	saving    sync.Mutex // held by save: one at a time (not guarded by mu)
}

// touchDue reports whether the session's state was last renewed longer
// than every ago.
func (s *httpSession) touchDue(now time.Time, every time.Duration) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return now.Sub(s.lastTouch) >= every
}

// touched records a renewal.
func (s *httpSession) touched(at time.Time) {
	s.mu.Lock()
	s.lastTouch = at
	s.mu.Unlock()
}

// deliverShared hands a frame without requests to the session as deliver
// does, leaving out a response this replica's session is not waiting for
// (it is some other replica's).
func (s *httpSession) deliverShared(ctx context.Context, f inFrame) error {
	if !rpc.IsBatch(f.msg) {
		if e, ok := rpc.ReadEnvelope(f.msg); ok && e.Method == nil && e.ID != nil {
			var id rpc.ID
			if json.Unmarshal(e.ID, &id) != nil || !s.ss.conn.Awaits(id) {
				return nil
			}
		}
	}
	return s.deliver(ctx, f)
}

// release lets this replica's copy of a session go, without ending the
// session: its state and events stay for the other replicas.
func (s *httpSession) release() {
	s.mu.Lock()
	s.local = true
	s.mu.Unlock()
	s.ss.Close()
}

// hasGetClient reports whether the client's GET stream is connected here.
func (s *httpSession) hasGetClient() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.get.conn != nil
}

// relayGet sends a message another replica had for the session's GET
// stream to the client connected to it here, if any.
func (s *httpSession) relayGet(ev sseEvent) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.get.conn != nil {
		s.get.conn.push(ev)
	}
}
