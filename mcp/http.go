package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/httpguard"
	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/internal/stackroom"
	"github.com/schemarpc/schemarpc/rpc"
)

// The HTTP headers of Streamable HTTP.
const (
	// HeaderSessionID carries the session id the server issued with the
	// initialize result; the client repeats it on every later request.
	HeaderSessionID = "Mcp-Session-Id"
	// HeaderProtocolVersion carries the negotiated protocol version on the
	// requests that follow initialize (2025-06-18 onward).
	HeaderProtocolVersion = "Mcp-Protocol-Version"
	// headerLastEventID names the last SSE event a resuming client received.
	headerLastEventID = "Last-Event-ID"
)

// sessionIDKey is HeaderSessionID as net/http keys it.
var sessionIDKey = http.CanonicalHeaderKey(HeaderSessionID)

// headerValue is h.Get(key) for a key in the form net/http keys it (a
// constant such as "Content-Type", or sessionIDKey), which Get would
// canonicalize again on every request.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// HTTPOptions configure a StreamableHTTPHandler. The zero value is usable.
type HTTPOptions struct {
	// JSONResponse answers a POSTed request of a session with one
	// application/json response instead of an SSE stream. What handlers
	// send while serving it then travels on the session's GET stream.
	// For 2026-07-28 requests it answers a result as JSON unless
	// notifications must go first, which need SSE; without it every
	// successful 2026-07-28 result travels as a one-request SSE stream.
	// Errors of 2026-07-28 requests are always JSON with their HTTP status.
	// A lone request of a session refused with a retry hint
	// (rpc.RateLimited) gets 429 and Retry-After only in JSON mode: an SSE
	// stream has answered 200 before the refusal is known.
	JSONResponse bool
	// EventStore keeps SSE events for clients that resume a broken stream
	// (GET with Last-Event-ID). nil means an in-memory store with the
	// default bounds of NewMemoryEventStore. The events of a
	// MemoryEventStore count against ServerOptions.MemoryBudget, as does
	// every POST body from the moment it is read until the calls it
	// carried return.
	EventStore EventStore
	// SessionTimeout ends a session that has had no HTTP request in
	// progress for this long. 0 means 30 minutes; negative, never.
	SessionTimeout time.Duration
	// MaxBodyBytes bounds a POST body; larger ones get 413. 0 means
	// rpc.DefaultMaxMessageSize (4 MiB).
	MaxBodyBytes int64
	// MaxSessions bounds the handshake sessions held at once. Past it an
	// initialize gets 503 with Retry-After and a -32000 error, and no
	// session is made; the sessions held go on. 0 means
	// DefaultMaxSessions (1000); negative, no bound.
	MaxSessions int
	// MaxStatelessInFlight bounds the 2026-07-28 requests served at once
	// (subscriptions/listen streams have their own bound). Past it a
	// request gets 503 with Retry-After and a -32000 error, without
	// running. 0 means DefaultMaxStatelessInFlight (1000); negative, no
	// bound.
	MaxStatelessInFlight int
	// MaxListenStreams bounds the 2026-07-28 subscriptions/listen streams
	// open at once. Past it a listen gets 503 with Retry-After and a
	// -32000 error. 0 means DefaultMaxListenStreams (1000); negative, no
	// bound.
	MaxListenStreams int
	// AllowedHosts are Host header values accepted besides the loopback
	// names: "name" (any port) or "name:port". On a connection to a
	// non-loopback address, a non-empty list is the whole set accepted.
	AllowedHosts []string
	// AllowedOrigins are Origin header values accepted besides loopback
	// origins and the request's own host, as "scheme://host[:port]".
	AllowedOrigins []string
	// DisableHostCheck turns the Host and Origin checks off, for a server
	// behind a proxy that does them.
	DisableHostCheck bool
	// RetryInterval is the reconnection delay announced at the start of
	// every POST stream of a 2025-11-25 session, and before CloseSSEStream
	// ends one (the SSE retry field). 0 means one second.
	RetryInterval time.Duration
	// KeepAlive is the silence after which an open stream gets an SSE
	// comment, so that proxies keep it and a vanished client is noticed; a
	// 2026-07-28 SSE response (a subscriptions/listen stream, say) gets one
	// every KeepAlive. A GET stream over HTTP/1.1, which nothing reads once
	// it is open, learns that its client is gone only from a write that
	// fails, a keep-alive comment at the latest (the first one or two after
	// the client left); its comment comes after one to one and a quarter
	// KeepAlive of silence. 0 means 15 seconds; negative, never.
	KeepAlive time.Duration
	// BodyTimeout bounds reading a POST body once its headers are in: a
	// client that starts a body and never finishes it gets 408 and its
	// connection closed, at most a tenth of the bound (and never more
	// than a second) after the bound. 0 means 30 seconds; negative, no
	// bound.
	BodyTimeout time.Duration
	// Sessions keeps the state of handshake-era sessions where the other
	// replicas of the server can read it, so that the requests of one
	// session may land on any replica behind a load balancer. nil means
	// sessions live in this process only. A replicated server also needs a
	// shared Broker and EventStore; see docs/scale-out.md. With Sessions,
	// a session idle for SessionTimeout is let go by this replica only
	// (its state expires from the store after SessionTimeout without a
	// request on any replica), and Close lets this replica's copies go
	// without ending the sessions.
	Sessions SessionStore
	// Broker carries what one replica learns that another must act on
	// (see Broker); it matters only with Sessions. nil means nothing is
	// passed on: a response or a cancellation POSTed to another replica
	// than the one waiting for it is lost.
	Broker Broker
	// Tasks keeps the records of the tasks (ServerOptions.Tasks) of the
	// sessions (2025-11-25) and of the stateless requests (the 2026-07-28
	// tasks extension) where the other replicas can read them, so that
	// the tasks/* methods may land on any replica; the work runs where the
	// task was created. With a Broker, a cancellation reaches the replica
	// running the task, a tasks/result waiting at another replica returns
	// as soon as the task ends, and a task whose input tasks/update
	// completed at another replica goes on at once (without one, each
	// looks at the store once a second). nil means the server's own store,
	// in this process.
	Tasks TaskStore
}

// StreamableHTTPHandler serves a Server over Streamable HTTP, both eras on
// one endpoint, chosen per request. Handshake versions (2025-03-26 to
// 2025-11-25) use sessions: POST carries client messages, GET opens the
// stream of server-initiated messages or resumes a broken one, DELETE ends
// a session. 2026-07-28 is stateless: each request is a POST of its own,
// answered as JSON or as an SSE stream of its own, with its mirrored
// headers checked. Mount it at any path, e.g. /mcp. See docs/mcp-http.md
// for the exact rules.
type StreamableHTTPHandler struct {
	server *Server
	opts   HTTPOptions
	store  EventStore
	hosts  httpguard.HostPolicy
	log    *slog.Logger
	drain  *drain
	bodies *bodyGuard  // bounds body reads; nil without BodyTimeout
	self   string      // this replica's name in what it tells the others
	rep    *replicas   // shares sessions with other replicas; nil without HTTPOptions.Sessions
	tasks  *taskRunner // the tasks of sessions and stateless requests; nil without HTTPOptions.Tasks (the server's)

	keepAlives *keepAlives   // of the GET streams taken over
	timers     sessionTimers // the sessions' deadlines

	stopTasks  func() // stops hearing the other replicas about tasks
	stopBudget func() // takes the handler's reclaimers off the server's memory budget

	stateless gate // 2026-07-28 requests running
	listening gate // 2026-07-28 listen streams open

	dispatchOnce    sync.Once
	statelessEngine *rpc.Dispatcher // answers 2026-07-28 requests; see dispatcher

	mu       sync.Mutex
	sessions map[string]*httpSession
	starting int // sessions being made, counted against MaxSessions
	closed   bool
}

// NewStreamableHTTPHandler returns a handler serving s. opts may be nil.
func NewStreamableHTTPHandler(s *Server, opts *HTTPOptions) *StreamableHTTPHandler {
	h := &StreamableHTTPHandler{server: s, log: logx.With(s.log, logx.Transport, "http"), sessions: map[string]*httpSession{}, drain: new(drain)}
	if opts != nil {
		h.opts = *opts
	}
	if h.opts.SessionTimeout == 0 {
		h.opts.SessionTimeout = 30 * time.Minute
	}
	if h.opts.MaxBodyBytes <= 0 {
		h.opts.MaxBodyBytes = rpc.DefaultMaxMessageSize
	}
	if h.opts.RetryInterval <= 0 {
		h.opts.RetryInterval = time.Second
	}
	if h.opts.KeepAlive == 0 {
		h.opts.KeepAlive = 15 * time.Second
	}
	h.keepAlives = &keepAlives{every: h.opts.KeepAlive}
	if h.opts.BodyTimeout == 0 {
		h.opts.BodyTimeout = DefaultBodyTimeout
	}
	if h.opts.BodyTimeout > 0 {
		h.bodies = newBodyGuard(h.opts.BodyTimeout)
	}
	h.store = h.opts.EventStore
	if h.store == nil {
		h.store = NewMemoryEventStore(nil)
	}
	h.hosts = httpguard.NewHostPolicy(h.opts.AllowedHosts, h.opts.AllowedOrigins, h.opts.DisableHostCheck)
	h.initLimits()
	h.self = rand.Text()
	h.rep = newReplicas(h)
	h.stopBudget = h.useBudget()
	h.stopTasks = h.shareTasks()
	return h
}

// ServeHTTP implements http.Handler.
func (h *StreamableHTTPHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	stackroom.Reserve()
	if reason := h.hosts.Check(r); reason != "" {
		writeHTTPError(w, http.StatusForbidden, rpc.CodeInvalidRequest, reason)
		return
	}
	if r.Method == http.MethodPost && httpguard.Encoded(r) {
		httpguard.RefuseEncoded(w.Header())
		writeHTTPError(w, http.StatusUnsupportedMediaType, rpc.CodeInvalidRequest, httpguard.EncodedReason)
		return
	}
	// The context the request is served in: a POST's carries its charge.
	ctx := r.Context()
	if r.Method == http.MethodPost {
		// Counted before any look at the shutdown state (see Shutdown).
		h.drain.posts.Add(1)
		defer h.drain.posts.Add(-1)
		var c *charge
		var ok bool
		if ctx, c, ok = h.chargePOST(w, r); !ok {
			return
		}
		defer c.release()
	}
	stateless, body, ok := h.statelessEra(w, r)
	switch {
	case !ok:
		return
	case stateless:
		h.serveStatelessHTTP(ctx, w, r, body)
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(ctx, w, r, body)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		w.Header().Set("Allow", "GET, POST, DELETE")
		writeHTTPError(w, http.StatusMethodNotAllowed, rpc.CodeInvalidRequest, "Streamable HTTP uses POST, GET and DELETE")
	}
}

// post serves a POSTed message or batch in ctx, r's context with the
// POST's charge (chargePOST); body is the body when statelessEra read it
// already, else nil. The request itself is not copied to carry ctx: its
// calls are served in ctx, and rpc.HTTPRequestFromContext gives them r.
func (h *StreamableHTTPHandler) post(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) {
	if !isJSONBody(r) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, rpc.CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	sse := !h.opts.JSONResponse
	if !accepts(r, "application/json") || (sse && !accepts(r, "text/event-stream")) {
		writeHTTPError(w, http.StatusNotAcceptable, rpc.CodeInvalidRequest, "Accept must list application/json and text/event-stream")
		return
	}
	body, ok := h.bodyOf(w, r, body)
	if !ok {
		return
	}
	fr, rerr := parseFrame(body)
	if rerr != nil {
		writeRefusal(w, http.StatusBadRequest, fr.id, rerr)
		return
	}
	if fr.requests.len() > 0 && h.shuttingDown() {
		refuseShuttingDown(w, fr.id)
		return
	}
	sess, created, status, rerr := h.sessionFor(ctx, r, fr)
	if sess == nil {
		if rerr.Code == rpc.CodeServerBusy {
			w.Header().Set("Retry-After", retryAfterBusy)
		}
		writeRefusal(w, status, fr.id, rerr)
		return
	}
	if !sess.enter() {
		writeRefusal(w, http.StatusNotFound, fr.id, rpc.NewError(rpc.CodeInvalidRequest, "session not found"))
		return
	}
	defer sess.leave()
	if fr.batch && !sess.ss.acceptsBatches() {
		w.Header().Set("Content-Type", "application/json")
		w.Write(batchRefusal())
		return
	}
	if fr.requests.len() == 0 {
		f := inFrame{msg: body, ctx: ctx}
		deliver := sess.deliver
		if h.rep != nil {
			// Responses and notifications may be for another replica.
			deliver = sess.deliverShared
		}
		if err := deliver(ctx, f); err != nil {
			writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "session not found")
			return
		}
		if h.rep != nil {
			h.rep.publish(sess.id, replicaMessage{Kind: kindFrame, Body: body})
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	st, err := sess.open(fr.requests, fr.repeated, sse, fr.initialize, sess.streamPolls(body, fr.initialize))
	if err != nil {
		if errors.Is(err, errDuplicateID) {
			writeHTTPError(w, http.StatusBadRequest, rpc.CodeInvalidRequest, "a request with this id is already in flight in the session")
			return
		}
		writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "session not found")
		return
	}
	if err := sess.start(ctx, fr.parsed, st, fr.batch, fr.initialize, !sse); err != nil {
		sess.abandon(st)
		writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "session not found")
		return
	}
	if created {
		w.Header().Set(HeaderSessionID, sess.id)
	}
	if sse {
		h.stream(w, r, sess, st)
	} else {
		h.reply(ctx, w, sess, st)
	}
	if st.init {
		h.dropFailedInit(sess, st)
	}
}

// stream answers a POST with its SSE stream, until the stream is complete,
// taken over, or the client goes away.
func (h *StreamableHTTPHandler) stream(w http.ResponseWriter, r *http.Request, sess *httpSession, st *stream) {
	// st.conn may already be gone (a handler closed the stream before
	// this POST got here): the POST still serves what was queued on its
	// own connection, the priming and retry events included.
	c := st.first
	startSSE(w)
	err := c.serve(r.Context(), w, h.opts.KeepAlive, streamStartDelay)
	sess.detach(st, c)
	if err != nil && !errors.Is(err, errConnReplaced) {
		h.log.Debug("mcp: POST stream ended early; its messages wait for a resuming client", "session", sess.id, "stream", st.id, "error", err)
	}
}

// reply answers a POST with its JSON response once it is there. The
// calls of a POST answered in JSON have run in its goroutine (start), so
// the answer is nearly always there already: only when it is not does
// reply wait, on the stream and on the request's context, whose Done
// channel net/http makes on first use.
func (h *StreamableHTTPHandler) reply(ctx context.Context, w http.ResponseWriter, sess *httpSession, st *stream) {
	msg, ended, done := sess.outcome(st)
	if !ended {
		select {
		case <-done:
		case <-ctx.Done():
			return
		}
		// done is closed after the answer was set (both under the
		// session's lock), or without one when the session ended first.
		msg = st.answer
	}
	if msg == nil {
		writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "the session ended")
		return
	}
	w.Header()["Content-Type"] = jsonContentType
	if wait, limited := rpc.ResponseRetryAfter(msg); limited {
		rpc.SetRetryAfter(w.Header(), wait)
		w.WriteHeader(http.StatusTooManyRequests)
	}
	w.Write(msg)
}

// jsonContentType is the Content-Type of a JSON answer, set without
// allocating a slice per response; nothing changes the slice.
var jsonContentType = []string{"application/json"}

// dropFailedInit ends a session whose initialize was answered with an
// error: it can never be used.
func (h *StreamableHTTPHandler) dropFailedInit(sess *httpSession, st *stream) {
	if sess.hasEnded(st) && sess.ss.ProtocolVersion() == "" {
		sess.ss.Close()
	}
}

// bodyOf returns body, or, when it is nil (not read yet), the request's
// body read with readBody; a body that cannot be read is answered with
// its error, and ok is false.
func (h *StreamableHTTPHandler) bodyOf(w http.ResponseWriter, r *http.Request, body []byte) (_ []byte, ok bool) {
	if body != nil {
		return body, true
	}
	body, status, err := h.readBody(w, r)
	if err != nil {
		writeHTTPError(w, status, rpc.CodeInvalidRequest, err.Error())
		return nil, false
	}
	return body, true
}

// readBody reads a POST body within the size limit and the body timeout.
func (h *StreamableHTTPHandler) readBody(w http.ResponseWriter, r *http.Request) ([]byte, int, error) {
	limit := h.opts.MaxBodyBytes
	if r.ContentLength > limit {
		return nil, http.StatusRequestEntityTooLarge, bodyTooLarge(limit)
	}
	// The guard ends a read that outlasts BodyTimeout by setting the
	// connection's read deadline; after such a failure the deadline stays,
	// so the server does not wait for the rest of the body. Servers that do
	// not support deadlines (a test recorder) are not bounded.
	slot := 0
	if h.bodies != nil {
		slot = h.bodies.begin(w)
	}
	// A body of a known length within the limit cannot pass it: net/http
	// reads no more than Content-Length, so it needs no MaxBytesReader.
	body := r.Body
	if r.ContentLength < 0 {
		body = http.MaxBytesReader(w, r.Body, limit)
	}
	b, err := readSized(body, r.ContentLength)
	if h.bodies != nil {
		h.bodies.end(slot, err == nil)
	}
	if err != nil {
		if errors.As(err, new(*http.MaxBytesError)) {
			return nil, http.StatusRequestEntityTooLarge, bodyTooLarge(limit)
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			w.Header().Set("Connection", "close")
			return nil, http.StatusRequestTimeout, errors.New("the body did not arrive in time")
		}
		return nil, http.StatusBadRequest, errors.New("cannot read the body")
	}
	return b, 0, nil
}

// bodyTooLarge is the error for a body past the limit.
func bodyTooLarge(limit int64) error {
	return fmt.Errorf("the body exceeds the limit of %d bytes", limit)
}

// readSized reads a body to its end. With its length known (size >= 0,
// from Content-Length) it reads into one buffer of that size instead of
// growing one.
func readSized(r io.Reader, size int64) ([]byte, error) {
	if size < 0 {
		return io.ReadAll(r)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	return b, nil
}

// sessionFor finds the session a POST belongs to, or starts one for an
// initialize request without a session id; ctx is the POST's. On failure
// it returns the HTTP status and the error to answer with.
func (h *StreamableHTTPHandler) sessionFor(ctx context.Context, r *http.Request, fr frame) (*httpSession, bool, int, *rpc.Error) {
	id := headerValue(r.Header, sessionIDKey)
	if id != "" {
		sess, status, err := h.find(ctx, id)
		if sess == nil {
			return nil, false, status, rpc.NewError(rpc.CodeInvalidRequest, err.Error())
		}
		return sess, false, 0, nil
	}
	if !fr.initialize || fr.batch {
		return nil, false, http.StatusBadRequest, rpc.NewError(rpc.CodeInvalidRequest, "missing "+HeaderSessionID+" header: only initialize may start a session")
	}
	sess, err := h.newSession()
	var busy *rpc.Error
	switch {
	case errors.As(err, &busy):
		return nil, false, http.StatusServiceUnavailable, busy
	case err != nil:
		return nil, false, http.StatusServiceUnavailable, rpc.NewError(rpc.CodeInvalidRequest, err.Error())
	}
	return sess, true, 0, nil
}

// get opens the GET stream, or resumes a stream with Last-Event-ID.
func (h *StreamableHTTPHandler) get(w http.ResponseWriter, r *http.Request) {
	if h.shuttingDown() {
		refuseShuttingDown(w, rpc.NullID())
		return
	}
	if !accepts(r, "text/event-stream") {
		writeHTTPError(w, http.StatusNotAcceptable, rpc.CodeInvalidRequest, "Accept must list text/event-stream")
		return
	}
	sess, status, msg := h.existing(r)
	if sess == nil {
		writeHTTPError(w, status, rpc.CodeInvalidRequest, msg)
		return
	}
	if !sess.enter() {
		writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "session not found")
		return
	}
	st, c, err := sess.attach(r.Context(), r.Header.Get(headerLastEventID))
	if err != nil {
		sess.leave()
	}
	switch {
	case errors.Is(err, ErrEventNotFound):
		writeHTTPError(w, http.StatusBadRequest, rpc.CodeInvalidRequest, "Last-Event-ID names no event this session can resume from")
		return
	case errors.Is(err, errSessionEnded):
		writeHTTPError(w, http.StatusNotFound, rpc.CodeInvalidRequest, "session not found")
		return
	case err != nil:
		h.log.Warn("mcp: the event store failed to replay", "session", sess.id, "error", err)
		writeHTTPError(w, http.StatusInternalServerError, rpc.CodeInternalError, "cannot replay the stream")
		return
	}
	// The stream keeps the session busy (not idle) until it ends.
	ended := func() {
		sess.detach(st, c)
		sess.leave()
	}
	if h.takeOver(w, r, c, ended) {
		return
	}
	startSSE(w)
	c.serve(r.Context(), w, h.opts.KeepAlive, 0)
	ended()
}

// delete ends a session.
func (h *StreamableHTTPHandler) delete(w http.ResponseWriter, r *http.Request) {
	sess, status, msg := h.existing(r)
	if sess == nil {
		writeHTTPError(w, status, rpc.CodeInvalidRequest, msg)
		return
	}
	sess.ss.Close()
	w.WriteHeader(http.StatusNoContent)
}

// existing finds the session named by a GET or DELETE.
func (h *StreamableHTTPHandler) existing(r *http.Request) (*httpSession, int, string) {
	id := r.Header.Get(HeaderSessionID)
	if id == "" {
		return nil, http.StatusBadRequest, "missing " + HeaderSessionID + " header"
	}
	sess, status, err := h.find(r.Context(), id)
	if sess == nil {
		return nil, status, err.Error()
	}
	return sess, 0, ""
}

// find returns the session with this id: the one held here, or, with
// HTTPOptions.Sessions, one another replica started, taken up from the
// store. Without a session it returns the status to answer and why: 400
// for an id no server could have issued (validSessionID), 404 for a
// well-formed one it does not know. The id's form is read only when no
// session is held under it: every id held here was checked (or made here)
// before it was, so a POST to a live session does not walk its id.
func (h *StreamableHTTPHandler) find(ctx context.Context, id string) (*httpSession, int, error) {
	sess := h.lookup(id)
	if sess == nil && !validSessionID(id) {
		return nil, http.StatusBadRequest, errMalformedSessionID
	}
	if h.rep == nil {
		if sess == nil {
			return nil, http.StatusNotFound, errors.New("session not found")
		}
		return admitted(ctx, sess, 0, nil)
	}
	if sess == nil {
		sess, status, err := h.rep.load(ctx, id)
		return admitted(ctx, sess, status, err)
	}
	if !h.rep.touch(ctx, sess) {
		// Ended or expired on the other replicas.
		sess.release()
		return nil, http.StatusNotFound, errors.New("session not found")
	}
	return admitted(ctx, sess, 0, nil)
}

// malformedSessionID is the reason a session id that no server could have
// issued is refused with 400, where a well-formed unknown one gets 404.
const malformedSessionID = "malformed " + HeaderSessionID + " header: a session id is visible ASCII (0x21-0x7E)"

// errMalformedSessionID is find's error for such an id.
var errMalformedSessionID = errors.New(malformedSessionID)

// validSessionID reports whether id is made of visible ASCII only (0x21 to
// 0x7E), the characters the transport allows in a session id.
func validSessionID(id string) bool {
	for i := 0; i < len(id); i++ {
		if id[i] < 0x21 || id[i] > 0x7e {
			return false
		}
	}
	return true
}

// newSession starts a session under a fresh random id. Past MaxSessions
// it makes nothing and returns the -32000 error to answer with.
func (h *StreamableHTTPHandler) newSession() (*httpSession, error) {
	var b [16]byte
	rand.Read(b[:])
	sess, err := h.startSession(hex.EncodeToString(b[:]))
	if err != nil {
		return nil, err
	}
	return h.register(sess) // a fresh id: no session is held under it
}

// adopt takes up, under its id, a session another replica started, from
// the state doc the store holds. Two requests that take the same session
// up at once get one copy.
func (h *StreamableHTTPHandler) adopt(id string, doc []byte) (*httpSession, int, error) {
	sess, err := h.startSession(id)
	if err != nil {
		return nil, http.StatusServiceUnavailable, err
	}
	sess.local = true // until it is the copy this replica holds
	if err := sess.ss.restore(doc); err != nil {
		h.log.Warn("mcp: a shared session cannot be taken up", "session", id, "error", err)
		h.mu.Lock()
		h.starting--
		h.mu.Unlock()
		sess.ss.Close()
		return nil, http.StatusNotFound, errors.New("session not found")
	}
	held, err := h.register(sess)
	if err != nil {
		return nil, http.StatusServiceUnavailable, err
	}
	if held == sess {
		sess.mu.Lock()
		sess.local = false
		sess.lastTouch = time.Now()
		sess.mu.Unlock()
	}
	return held, 0, nil
}

// startSession makes a session under id, counted against MaxSessions
// until register: past the bound it makes nothing and returns the -32000
// error to answer with.
func (h *StreamableHTTPHandler) startSession(id string) (*httpSession, error) {
	if err := h.reserveSession(); err != nil {
		return nil, err
	}
	sess := newHTTPSession(h, id)
	sess.ss = h.server.connect(sess, id, h.connOptions()...)
	sess.ss.tasks = h.tasks
	sess.ss.overHTTP = sess
	if h.rep != nil {
		h.rep.share(sess)
	}
	return sess, nil
}

// register makes a session from startSession one the handler holds, and
// returns the session now held under its id: sess, or the one registered
// first (sess is then closed). It fails when the handler is closed.
func (h *StreamableHTTPHandler) register(sess *httpSession) (*httpSession, error) {
	h.mu.Lock()
	h.starting--
	held, closed := h.sessions[sess.id], h.closed
	if held == nil && !closed {
		h.sessions[sess.id] = sess
	}
	h.mu.Unlock()
	switch {
	case closed:
		sess.ss.Close()
		return nil, errors.New("the server is shutting down")
	case held != nil:
		sess.ss.Close()
		return held, nil
	}
	return sess, nil
}

// connOptions are the rpc options of a session's connection over HTTP:
// every frame is pushed to it by the POST that carried it, so no goroutine
// reads (an idle session holds none); with other replicas, request ids of
// its own far from theirs.
func (h *StreamableHTTPHandler) connOptions() []rpc.Option {
	opts := []rpc.Option{rpc.WithPushedInput()}
	if h.rep != nil {
		opts = append(opts, rpc.WithFirstID(firstID()))
	}
	return opts
}

// lookup returns the live session with this id, or nil.
func (h *StreamableHTTPHandler) lookup(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// forget drops a session that ended.
func (h *StreamableHTTPHandler) forget(sess *httpSession) {
	h.mu.Lock()
	if h.sessions[sess.id] == sess {
		delete(h.sessions, sess.id)
	}
	h.mu.Unlock()
}

// Close ends every session and refuses new ones; requests to ended
// sessions get 404. Its streams end, and calls in flight are cancelled.
func (h *StreamableHTTPHandler) Close() error {
	h.mu.Lock()
	h.closed = true
	all := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		all = append(all, sess)
	}
	h.mu.Unlock()
	for _, sess := range all {
		if h.rep != nil {
			sess.release() // the session goes on at the other replicas
			continue
		}
		sess.ss.Close()
	}
	if h.bodies != nil {
		h.bodies.stop()
	}
	if h.rep != nil {
		h.rep.stopFanOut()
	}
	h.stopTasks()
	h.stopBudget()
	h.timers.close()
	return nil
}

// frame is what the handler needs to know of a POST body.
type frame struct {
	batch      bool
	requests   idSet      // the ids of the messages to answer, as JSON text
	repeated   bool       // two messages to answer have one id
	initialize bool       // a single initialize request
	id         rpc.ID     // a lone message to answer: its id, echoed when the POST is refused; else null
	parsed     *rpc.Frame // what rpc.ParseFrame read, handed to the session's connection as read
}

// parseFrame classifies a POST body with the reading every other transport
// uses (rpc.ParseFrame): one message or a batch, each element a request, a
// notification or a response. A message the envelope refuses but whose id
// can be read is answered by the session under that id, as on any other
// transport, so it counts as a request. What cannot be routed is refused
// here, with the error to answer and the id to answer it under: bytes that
// are not one JSON text (-32700, id null), an empty batch, a request id
// of null, a body whose only messages to answer have no readable id
// (-32600).
func parseFrame(body []byte) (frame, *rpc.Error) {
	f, perr := rpc.ParseFrame(body)
	if perr != nil {
		return frame{id: rpc.NullID()}, perr
	}
	fr := frame{batch: f.Batch, id: rpc.NullID(), parsed: f}
	if f.Batch && len(f.Messages) == 0 {
		return fr, rpc.InvalidRequest("empty batch")
	}
	var unanswerable *rpc.Error // an invalid message to answer with id null
	for _, m := range f.Messages {
		switch {
		case m.Kind == rpc.KindRequest && m.ID.IsNull():
			return fr, rpc.InvalidRequest("a request id must be a string or a number")
		case m.Kind == rpc.KindRequest:
			fr.answer(m.ID)
			fr.initialize = m.Request.Method == "initialize" && len(f.Messages) == 1
		case m.Kind != rpc.KindInvalid || m.LooksLikeResponse:
		case m.ID.IsNull():
			if unanswerable == nil {
				unanswerable = m.Invalid
			}
		default:
			fr.answer(m.ID)
		}
	}
	if unanswerable != nil && fr.requests.len() == 0 {
		return fr, unanswerable
	}
	if !f.Batch && fr.requests.len() == 1 {
		fr.id = f.Messages[0].ID
	}
	return fr, nil
}

// answer counts a message to answer under id.
func (fr *frame) answer(id rpc.ID) {
	if !fr.requests.add(id.String()) {
		fr.repeated = true
	}
}

// writeHTTPError answers with an HTTP error status and a JSON-RPC error
// body with id null.
func writeHTTPError(w http.ResponseWriter, status, code int, message string) {
	writeRefusal(w, status, rpc.NullID(), rpc.NewError(code, message))
}

// writeRefusal answers with an HTTP error status and a JSON-RPC error body
// under id: the id of the request refused, or null.
func writeRefusal(w http.ResponseWriter, status int, id rpc.ID, err *rpc.Error) {
	body := rpc.EncodeError(id, err)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
