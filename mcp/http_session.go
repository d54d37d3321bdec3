package mcp

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// standaloneStream is the id of a session's GET stream, which carries what
// the server sends unprompted.
const standaloneStream = "0"

// maxBacklog bounds the messages a session keeps for a GET stream that is
// not open yet.
const maxBacklog = 1000

// httpSession is the transport of one Streamable HTTP session: what the
// client POSTs becomes the session's input, and what the session writes is
// routed to the HTTP response it belongs to.
//
// Routing: a response goes to the stream of the POST that carried its
// request. A request or notification a handler sends while serving a client
// request goes to that request's stream while a client is connected to it,
// else to the GET stream when one is open, else it is kept on the request's
// stream for a client that resumes it. Anything else goes to the GET stream,
// or waits in a backlog for the next one. Every event of an SSE stream is
// appended to the event store first, so a client can resume any stream.
type httpSession struct {
	h    *StreamableHTTPHandler
	id   string
	ss   *ServerSession
	inMu sync.Mutex // serves delivered frames one at a time, in order
	once sync.Once

	mu         sync.Mutex
	ended      bool
	initAcked  bool      // the client acknowledged the initialize answer (see forgetInitialize)
	get        stream    // the GET stream
	streams    streamSet // POST streams with answers to come, by name and by unanswered request id
	nextStream int
	backlog    []sseEvent // GET-stream events no client has been sent yet
	active     int        // HTTP requests being served
	idleSince  int64      // when the last HTTP request ended (monoNow)
	deadlines             // the idle timeout and the orphan grace (see deadlines.go)

	replicaState // with HTTPOptions.Sessions
}

// inFrame is one POST body without requests (notifications and
// responses; requests go to start) and the POST it came in.
type inFrame struct {
	msg []byte
	// ctx is the POST's (chargePOST's, which carries the request for
	// rpc.HTTPRequestFromContext): its values reach the handlers. nil
	// for a frame that came from another replica.
	ctx context.Context
}

// stream is where the messages of one POST (or of the GET stream) go.
type stream struct {
	id      string
	sse     bool
	init    bool          // the POST carried initialize
	polling bool          // its version has SSE polling (see streamPolls)
	ended   bool          // every request is answered, or the session ended (see end)
	pending idSet         // ids of requests not answered yet
	conn    *sseConn      // the client connected to it, or nil
	first   *sseConn      // the POST's own connection, set once in open
	answer  []byte        // JSON mode: the response, set once, before the stream ends
	done    chan struct{} // closed once ended; made only for a POST that has to wait (see outcome)
}

// errSessionEnded reports a session that ended.
var errSessionEnded = errors.New("mcp: the session ended")

// errDuplicateID reports a request id already in flight in the session.
var errDuplicateID = errors.New("mcp: a request with this id is already in flight")

// newHTTPSession returns the transport of a session named id.
func newHTTPSession(h *StreamableHTTPHandler, id string) *httpSession {
	return &httpSession{
		h:   h,
		id:  id,
		get: stream{id: standaloneStream, sse: true},
	}
}

// stream returns the live stream named name (the GET stream included), or
// nil; s.mu is held.
func (s *httpSession) stream(name string) *stream {
	if name == standaloneStream {
		return &s.get
	}
	return s.streams.named(name)
}

// Read is never called: every POSTed frame reaches the session's
// connection through start or deliver (rpc.WithPushedInput), and no
// goroutine reads. It waits for ctx, as a transport whose input never
// comes would (a connection cancels the context of its reads as it ends).
func (s *httpSession) Read(ctx context.Context) ([]byte, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// streamStartDelay is how long a POST's SSE response waits for its
// frame's answers before it starts anyway: calls that finish sooner (most
// do) have the whole stream written at once. Anything a handler sends
// while it runs starts the stream at once.
const streamStartDelay = 50 * time.Millisecond

// start hands a POSTed frame that carries requests, as parseFrame read it,
// straight to the session's connection; the replies go to the frame's
// stream st. The calls are served in ctx, the POST's (chargePOST's: with
// its charge, and the request for rpc.HTTPRequestFromContext). Only
// responses to the server's own requests and notifications travel through
// the connection's read loop (deliver), which keeps them in order.
//
// An SSE stream's calls run on the workers, so that the
// POST's goroutine is free to write what they send while they run, and to
// end the response when a handler closes the stream for polling
// (CloseSSEStream). A JSON answer needs nothing of the POST while the calls
// run: they run in the POST's own goroutine (wait), and start returns when
// they have answered. It returns rpc.ErrClosed when the session has ended.
func (s *httpSession) start(ctx context.Context, f *rpc.Frame, st *stream, batch, init, wait bool) error {
	if init && !s.ss.initialized() {
		s.ss.initArrived()
	}
	reply := func(msg []byte) {
		var ids []string
		if batch {
			ids, _ = outboundIDs(msg)
		}
		s.answer(ctx, st, ids, msg)
	}
	if wait {
		return s.ss.conn.ServeParsedFrame(ctx, f, reply)
	}
	return s.ss.conn.StartParsedFrame(ctx, f, reply)
}

// answer routes a reply to a frame given to start: ids are the requests it
// answers, none meaning every request of the stream (a single request's
// response, or an error with id null that refuses the whole frame). ctx is
// the POST's: an SSE stream's event is stored even if the POST is gone by
// then; a JSON answer is only kept on the stream.
func (s *httpSession) answer(ctx context.Context, st *stream, ids []string, msg []byte) {
	if st.sse {
		ctx = context.WithoutCancel(ctx)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended || s.stream(st.id) != st {
		return
	}
	s.settle(ctx, st, ids, msg)
}

// deliver hands a POSTed frame without requests to the session's
// connection, one frame at a time so that they start in the order they
// came: responses go at once to the server's calls waiting for them,
// notifications start on the workers. It does not wait for a
// notification's handler, which may itself wait for the client's answer to
// a request, coming in another POST. The values of the POST's context reach
// the handlers (rpc.HTTPRequestFromContext, and so what auth.Require put
// there).
func (s *httpSession) deliver(ctx context.Context, f inFrame) error {
	// The session's connection exists (startSession makes it before the
	// session can be found); it refuses frames once it has ended.
	s.inMu.Lock()
	defer s.inMu.Unlock()
	if err := s.ss.conn.StartFrame(f.ctx, f.msg, nil); err != nil {
		return errSessionEnded
	}
	if bytes.Contains(f.msg, initializedMethod) {
		if e, ok := rpc.ReadEnvelope(f.msg); ok && string(e.Method) == `"notifications/initialized"` {
			s.forgetInitialize()
		}
	}
	return nil
}

// initializedMethod picks out the frames worth reading for the method.
var initializedMethod = []byte("notifications/initialized")

// initializeStream is the name of a session's first stream, which the
// POST that carried initialize opened (the session's own replica's).
var initializeStream = strconv.Itoa(1)

// forgetInitialize drops the events of the session's initialize stream
// from the event store once the client has acknowledged its answer: a
// client sends notifications/initialized only once it has the
// InitializeResult, so nothing of that stream is left to resume, and an
// idle session need not keep it. The in-memory store can (see
// MemoryEventStore.forgetStream); others keep the events until the session
// ends. A shared session's first stream may be another replica's.
func (s *httpSession) forgetInitialize() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initAcked || s.ended || s.h.rep != nil {
		return
	}
	s.initAcked = true
	if s.streams.named(initializeStream) != nil {
		return // not complete: the answer has not been sent
	}
	if m, ok := s.h.store.(*MemoryEventStore); ok {
		m.forgetStream(s.id, initializeStream)
	}
}

// Write routes one outbound message.
func (s *httpSession) Write(ctx context.Context, msg []byte) error {
	ids, isResponse := outboundIDs(msg)
	ctx = context.WithoutCancel(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return rpc.ErrClosed
	}
	if isResponse {
		s.routeResponse(ctx, ids, msg)
		return nil
	}
	var st *stream
	// A request id means something only in its own session: a handler may
	// notify other sessions with its context.
	if rid, ok := requestIDFromContext(ctx); ok && SessionFromContext(ctx) == s.ss {
		st = s.streams.holding(rid.String())
	}
	get := &s.get
	switch {
	case st != nil && st.sse && st.conn != nil:
		s.emit(ctx, st, msg, false)
	case get.conn != nil:
		s.emit(ctx, get, msg, false)
	case st != nil && st.sse:
		s.emit(ctx, st, msg, false) // kept for a client that resumes the stream
	default:
		s.emit(ctx, get, msg, false) // kept for the next GET stream
	}
	return nil
}

// routeResponse sends a response (or a batch of them) to the stream of its
// requests. A response with id null (ids empty) answers a frame of the
// read loop, which carried no requests: no stream waits for it. Responses
// to the frames given to start go to their stream by answer.
func (s *httpSession) routeResponse(ctx context.Context, ids []string, msg []byte) {
	var st *stream
	for _, id := range ids {
		if st = s.streams.holding(id); st != nil {
			break
		}
	}
	if st == nil || st.id == standaloneStream {
		s.h.log.Debug("mcp: dropping a response no stream waits for", "session", s.id)
		return
	}
	s.settle(ctx, st, ids, msg)
}

// settle sends a response (or a batch of them) to st and marks the
// requests ids as answered; no ids means every request of st. A stream
// with nothing left to answer is complete.
func (s *httpSession) settle(ctx context.Context, st *stream, ids []string, msg []byte) {
	if len(ids) == 0 {
		s.streams.answeredAll(st)
	}
	for _, id := range ids {
		s.streams.answered(st, id)
	}
	if st.sse {
		// The last answer and the end go together, so that a stream
		// held back (sseConn.holdFor) is written whole rather than begun
		// on its answer a moment before it ends.
		s.emit(ctx, st, msg, st.pending.len() == 0)
	} else {
		if st.answer == nil {
			st.answer = msg
		}
	}
	if st.pending.len() == 0 {
		s.complete(st)
	}
}

// emit stores an event on a stream and sends it to the stream's client, or
// to the backlog for the GET stream when no client is connected to it.
// last says the event is the stream's last: its connection is finished
// with it, in one step.
func (s *httpSession) emit(ctx context.Context, st *stream, msg []byte, last bool) {
	ev := sseEvent{data: msg}
	id, err := s.h.store.Append(ctx, s.id, st.id, msg)
	if err != nil {
		s.h.log.Warn("mcp: the event store failed; the event cannot be resumed", "session", s.id, "error", err)
	}
	ev.id = id
	switch {
	case st.conn != nil:
		push := st.conn.push
		if last {
			push = st.conn.pushLast
		}
		if !push(ev) {
			s.h.log.Debug("mcp: a client reads too slowly; dropping its connection", "session", s.id, "stream", st.id)
			st.conn.kill()
			if st.id == standaloneStream {
				s.keep(append(st.conn.unwritten(), ev)...)
			}
			st.conn = nil
		}
	case st.id == standaloneStream && s.h.rep != nil && s.h.rep.broker != nil:
		// The client's GET stream may be open at another replica. With
		// none open anywhere, the message stays only in the event store.
		s.h.rep.publish(s.id, replicaMessage{Kind: kindGet, Body: msg, Event: id})
	case st.id == standaloneStream:
		s.keep(ev)
	case st.sse && s.h.rep != nil && err == nil:
		// The client may follow the stream from another replica.
		s.h.rep.publish(s.id, replicaMessage{Kind: kindEvent, Stream: st.id})
	case err != nil:
		s.h.log.Debug("mcp: dropping a message no stream can take", "session", s.id, "stream", st.id)
	}
}

// keep adds events to the GET stream's backlog, dropping the oldest past
// the bound.
func (s *httpSession) keep(evs ...sseEvent) {
	s.backlog = append(s.backlog, evs...)
	if n := len(s.backlog) - maxBacklog; n > 0 {
		s.h.log.Debug("mcp: GET-stream backlog full; dropping the oldest messages", "session", s.id, "dropped", n)
		s.backlog = append([]sseEvent(nil), s.backlog[n:]...)
	}
}

// complete ends a stream whose requests are all answered.
func (s *httpSession) complete(st *stream) {
	s.streams.remove(st)
	if st.conn != nil {
		st.conn.finish()
	} else if st.sse && s.h.rep != nil {
		s.h.rep.publish(s.id, replicaMessage{Kind: kindEvent, Stream: st.id, Completed: true})
	}
	st.end()
}

// end marks a POST stream ended, releasing a POST waiting for it; s.mu is
// held.
func (st *stream) end() {
	st.ended = true
	if st.done != nil {
		close(st.done)
	}
}

// hasEnded reports whether the POST stream st has ended.
func (s *httpSession) hasEnded(st *stream) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return st.ended
}

// outcome returns the answer of a JSON-mode stream that has ended (nil
// when the session ended first), or, while it has not, a channel closed
// once it has. The calls of such a POST run in its own goroutine, so
// nearly always the stream has ended by the time the POST looks: the
// channel is made only when it has to wait.
func (s *httpSession) outcome(st *stream) (answer []byte, ended bool, done <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.ended {
		return st.answer, true, nil
	}
	if st.done == nil {
		st.done = make(chan struct{})
	}
	return nil, false, st.done
}

// open starts the stream of a POST carrying requests with the ids
// pending; repeated says two of its requests had one id. An SSE stream
// gets a connection, with the priming event queued when the stream's
// version has SSE polling.
func (s *httpSession) open(pending idSet, repeated, sse, init, polling bool) (*stream, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil, errSessionEnded
	}
	inFlight := repeated
	pending.each(func(id string) { inFlight = inFlight || s.streams.holding(id) != nil })
	if inFlight {
		return nil, errDuplicateID
	}
	s.nextStream++
	name := strconv.Itoa(s.nextStream)
	if s.h.rep != nil {
		// Every replica's copy numbers its own streams: the replica's
		// name keeps them apart in the shared event store.
		name = s.h.rep.self[:8] + "." + name
	}
	st := &stream{id: name, sse: sse, init: init, polling: polling, pending: pending}
	if sse {
		st.conn = newSSEConn()
		st.first = st.conn
	}
	if sse && polling {
		prime := sseEvent{retry: s.h.opts.RetryInterval}
		id, err := s.h.store.Append(context.Background(), s.id, st.id, nil)
		if err != nil {
			s.h.log.Warn("mcp: the event store failed; the stream cannot be resumed", "session", s.id, "error", err)
		}
		prime.id = id
		st.conn.push(prime)
	}
	s.streams.add(st)
	return st, nil
}

// abandon forgets a stream whose frame never reached the session.
func (s *httpSession) abandon(st *stream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streams.remove(st) {
		st.end()
	}
}

// detach disconnects a connection that stopped serving its stream. When it
// ended on its own (the client went away), what it did not write of the GET
// stream goes back to the backlog; a connection that was taken over or
// dropped has had its unwritten events moved already.
func (s *httpSession) detach(st *stream, c *sseConn) {
	if st == nil {
		s.dropRelay(c)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st.conn != c {
		return
	}
	st.conn = nil
	if st.id == standaloneStream {
		left := c.unwritten()
		s.backlog = append(left, s.backlog...)
		s.keep()
	}
}

// attach connects a GET request to a stream. With lastEventID empty it is
// the GET stream, starting with the backlog; otherwise the store replays
// the events after lastEventID on that id's stream and the connection
// stays on the stream while its requests are unanswered. A client already
// connected to the stream is disconnected. The returned stream is nil when
// nothing more will come after the replay.
func (s *httpSession) attach(ctx context.Context, lastEventID string) (*stream, *sseConn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return nil, nil, errSessionEnded
	}
	c := newSSEConn()
	name := standaloneStream
	if lastEventID != "" {
		var err error
		name, err = s.h.store.Replay(ctx, s.id, lastEventID, func(id string, data []byte) error {
			if len(data) > 0 {
				c.queue = append(c.queue, sseEvent{id: id, data: data})
			}
			return nil
		})
		if err != nil {
			return nil, nil, err
		}
	}
	st := s.stream(name)
	if st == nil && lastEventID != "" && name != standaloneStream && s.h.rep != nil && s.h.rep.broker != nil && !anyResponse(c.queue) {
		// The call runs at another replica, unanswered so far: follow it.
		last := lastEventID
		if len(c.queue) > 0 {
			last = c.queue[len(c.queue)-1].id
		}
		s.relay(name, last, c)
		return nil, c, nil
	}
	if st == nil || !st.sse {
		c.finishing = true
		return nil, c, nil
	}
	if name == standaloneStream && lastEventID == "" {
		c.queue = append(c.queue, s.backlog...)
		if st.conn != nil {
			// Taken over: what the old connection did not write comes next.
			c.queue = append(c.queue, st.conn.unwritten()...)
		}
	}
	if name == standaloneStream {
		// A replay covers the backlog: nothing in it was ever sent.
		s.backlog = nil
	}
	if st.conn != nil {
		st.conn.kill()
	}
	st.conn = c
	return st, c, nil
}

// CloseSSEStream ends the SSE stream of the Streamable HTTP request that
// ctx (a request handler's context) serves, after announcing the
// reconnection delay (HTTPOptions.RetryInterval). The call goes on: what it
// sends afterwards, its response included, is kept in the event store, and
// the client receives it by resuming the stream with GET and Last-Event-ID
// (SSE polling, for long calls through proxies that cut long responses).
//
// Only sessions of 2025-11-25 have SSE polling: in 2025-03-26 and
// 2025-06-18 the server should not end a call's stream before its
// response, so there CloseSSEStream does nothing, and the stream stays
// open until the response. It reports false, doing nothing, outside a
// request it can close: a session of an older version, another transport,
// a stateless (2026-07-28) request, JSON-response mode, or a stream
// already closed.
func CloseSSEStream(ctx context.Context) bool {
	ss := SessionFromContext(ctx)
	rid, ok := requestIDFromContext(ctx)
	if ss == nil || !ok {
		return false
	}
	if ss.overHTTP == nil {
		return false
	}
	return ss.overHTTP.closeStream(rid.String())
}

// closeStream ends the live connection of the stream carrying a request.
func (s *httpSession) closeStream(rid string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.streams.holding(rid)
	if st == nil || !st.sse || !st.polling || st.conn == nil {
		return false
	}
	st.conn.push(sseEvent{retry: s.h.opts.RetryInterval})
	st.conn.finish()
	st.conn = nil
	return true
}

// Close ends the transport: connections end, waiters are released, the
// event store forgets the session and the handler drops it.
func (s *httpSession) Close() error {
	s.once.Do(func() {
		if s.ss != nil {
			// The client sends nothing more: the connection ends once the
			// calls in flight have (rpc.WithPushedInput).
			s.ss.conn.EndInput(nil)
		}
		s.mu.Lock()
		s.ended = true
		if s.get.conn != nil {
			s.get.conn.kill()
			s.get.conn = nil
		}
		s.streams.each(func(st *stream) {
			if st.conn != nil {
				st.conn.kill()
				st.conn = nil
			}
			st.end()
		})
		s.streams.clear()
		s.endRelays()
		s.backlog = nil
		s.h.timers.remove(s)
		local := s.local
		s.mu.Unlock()
		s.h.forget(s)
		if s.unshare != nil {
			s.unshare()
		}
		if local {
			return // the session lives on at other replicas: its events and state stay
		}
		if err := s.h.store.Forget(context.Background(), s.id); err != nil {
			s.h.log.Warn("mcp: the event store could not forget a session", "session", s.id, "error", err)
		}
		if s.h.rep != nil {
			s.h.rep.ended(s.id)
		}
	})
	return nil
}

// enter marks an HTTP request to the session as begun; false when the
// session has ended. The session is not idle while requests are served.
func (s *httpSession) enter() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended {
		return false
	}
	s.active++
	return true
}

// leave marks an HTTP request as finished; from the last one on, the
// session is idle, and its deadlines count from now (watchIdle).
func (s *httpSession) leave() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.active--
	if s.active > 0 || s.ended {
		return
	}
	s.idleSince = monoNow()
	s.watchIdle()
}

// outboundIDs reads the ids of the responses in an outbound message (one
// response or a batch of them). isResponse is false for requests and
// notifications. Responses with id null contribute no id.
func outboundIDs(msg []byte) (ids []string, isResponse bool) {
	if rpc.IsBatch(msg) {
		batch, _ := jsonscan.NewArray(bytes.Trim(msg, " \t\r\n"))
		for {
			el, more := batch.Next()
			if !more {
				break
			}
			e, ok := rpc.ReadEnvelope(el)
			if !ok {
				return nil, true
			}
			if e.Method == nil && e.ID != nil && string(e.ID) != "null" {
				ids = append(ids, string(e.ID))
			}
		}
		if batch.Err() {
			return nil, true
		}
		return ids, true
	}
	e, ok := rpc.ReadEnvelope(msg)
	if !ok || e.Method != nil {
		return nil, false
	}
	if e.ID != nil && string(e.ID) != "null" {
		ids = append(ids, string(e.ID))
	}
	return ids, true
}
