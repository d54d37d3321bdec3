package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/logx"

	"github.com/schemarpc/schemarpc/rpc"
)

// ServerSession is one client's session: from its initialize request until
// the connection (stdio) or the HTTP session ends. Handlers reach it as
// req.Session to log, report progress, or call the client back.
type ServerSession struct {
	server *Server
	conn   *rpc.Conn
	ready  sync.WaitGroup // done once conn is set
	id     string         // Mcp-Session-Id on Streamable HTTP, "" elsewhere
	log    *slog.Logger   // the server's, with the session's transport and id

	mu         sync.Mutex
	version    string          // negotiated in initialize
	clientCaps json.RawMessage // ClientCapabilities as sent
	clientInfo json.RawMessage // Implementation as sent
	caps       clientCaps      // decoded flags
	declared   ClientCapabilities
	offered    capSet          // server capabilities sent in initialize
	initDone   chan struct{}   // closed when an initialize read earlier has been handled; then nil
	logLevel   int             // index in logLevels; -1 = logging off
	subscribed map[string]bool // resource URIs; nil until the first
	revision   uint64          // of the shared state this copy holds (see sharedState.Revision)
	principal  string          // who initialize acted for (WithPrincipal); "" for none
	inflight   callsInFlight   // the client's requests being served
	onChange   func()          // set before the session serves: the shared state changed (see stateChanged)
	hears      func() bool     // set before the session serves: whether this copy passes broadcasts on (see hearsBroadcasts)
	tasks      *taskRunner     // set before the session serves: where its tasks are kept; nil: the server's
	owner      string          // its tasks' owner without an id (see taskOwner)
	overHTTP   *httpSession    // set before the session serves: its Streamable HTTP transport; nil on others
	mem        localShare      // its calls' bytes, when no one else can count against its share (see admitCall)
	// inited mirrors state != stateNew and feats featuresOf(version), set
	// with them under mu (setInitialized), so that a request reads them
	// without the lock.
	inited    atomic.Bool
	state     sessionState // guarded by mu; beside inited, where it takes no word of its own
	feats     atomic.Pointer[features]
	ownerOnce sync.Once
	closeOnce sync.Once
}

// sessionState is where a session is in its lifecycle.
type sessionState int32

const (
	stateNew         sessionState = iota // waiting for initialize
	stateInitialized                     // initialize answered
	stateReady                           // notifications/initialized received
)

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	sampling      bool
	samplingTools bool
	elicitForm    bool
	elicitURL     bool
	roots         bool
}

// taskRunner returns where the session's tasks run and are kept.
func (ss *ServerSession) taskRunner() *taskRunner {
	if ss.tasks != nil {
		return ss.tasks
	}
	return ss.server.tasks
}

// taskOwner names the session as its tasks' owner in the task store: its
// id, or, on a transport without ids, a random name of its own.
func (ss *ServerSession) taskOwner() string {
	if ss.id != "" {
		return ss.id
	}
	ss.ownerOnce.Do(func() { ss.owner = "local/" + rand.Text() })
	return ss.owner
}

// taskLogger, taskContext and taskChanged make a session the owner of its
// tasks (taskClient): the work runs in the session's context and the
// session hears notifications/tasks/status.
func (ss *ServerSession) taskLogger() *slog.Logger { return ss.log }

func (ss *ServerSession) taskContext() context.Context {
	return withSession(context.Background(), ss)
}

func (ss *ServerSession) taskChanged(t Task) { notifyTask(ss, t) }

// ID returns the session's Mcp-Session-Id on Streamable HTTP, and "" on
// other transports.
func (ss *ServerSession) ID() string { return ss.id }

// ProtocolVersion returns the version negotiated in initialize, and "" before
// it.
func (ss *ServerSession) ProtocolVersion() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.version
}

// ClientInfo returns the client's self-description from initialize (JSON),
// nil before it. It is for display and logs only.
func (ss *ServerSession) ClientInfo() json.RawMessage {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.clientInfo
}

// ClientCapabilities returns the capabilities the client declared in
// initialize (JSON), nil before it.
func (ss *ServerSession) ClientCapabilities() json.RawMessage {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.clientCaps
}

// Close ends the session: its connection closes, and calls in flight are
// cancelled.
func (ss *ServerSession) Close() error {
	err := ss.conn.Close()
	ss.closed()
	return err
}

// Done is closed when the session has ended.
func (ss *ServerSession) Done() <-chan struct{} { return ss.conn.Done() }

// Wait blocks until the session ends and returns why (nil at a clean end of
// input).
func (ss *ServerSession) Wait() error {
	err := ss.conn.Wait()
	ss.closed()
	return err
}

// closed runs once when the session ends: it leaves the server's list.
func (ss *ServerSession) closed() {
	ss.closeOnce.Do(func() {
		if err := ss.conn.Err(); err != nil {
			ss.log.LogAttrs(context.Background(), slog.LevelInfo, "mcp: session ended", slog.String(logx.Error, err.Error()))
		} else {
			ss.log.LogAttrs(context.Background(), slog.LevelInfo, "mcp: session ended")
		}
		ss.server.dropSession(ss)
	})
}

// features returns what the negotiated version has.
// A nil session is a stateless request's: it has the 2026-07-28 features.
func (ss *ServerSession) features() features {
	if ss == nil {
		return featuresOf(Version20260728)
	}
	if f := ss.feats.Load(); f != nil {
		return *f
	}
	return featuresOf("")
}

// setInitialized records the version a session serves, from its
// initialize or its shared state, and that it is initialized; ss.mu is
// held.
func (ss *ServerSession) setInitialized(version string) {
	ss.version = version
	f := featuresOf(version)
	ss.feats.Store(&f)
	ss.inited.Store(true)
}

// acceptsBatches reports whether a JSON array may arrive now: only in a
// session that negotiated 2025-03-26.
func (ss *ServerSession) acceptsBatches() bool { return ss.features().batches }

// tasksEnabled reports whether the session was offered tasks (enabled on
// the server and present in the negotiated version).
func (ss *ServerSession) tasksEnabled() bool {
	if ss == nil {
		return false
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.offered.has(capTasks)
}

// initialized reports whether initialize has been answered.
func (ss *ServerSession) initialized() bool { return ss.inited.Load() }

// track registers a request being served under its id, so that
// notifications/cancelled can reach it (rc.cancel).
func (ss *ServerSession) track(rc *requestContext) {
	ss.mu.Lock()
	ss.putInflight(rc)
	ss.mu.Unlock()
}

// putInflight registers rc under its id; ss.mu is held.
func (ss *ServerSession) putInflight(rc *requestContext) { ss.inflight.put(rc) }

// untrack unregisters a request tracked with track (or begin), ends its
// context and reports whether the client cancelled it meanwhile.
func (ss *ServerSession) untrack(rc *requestContext) bool {
	ss.mu.Lock()
	ss.inflight.remove(rc)
	byClient := rc.cancelled
	ss.mu.Unlock()
	rc.cancel()
	return byClient
}

// cancel cancels the request with this id if it is still in flight; unknown
// or finished ids are ignored, as the protocol says.
func (ss *ServerSession) cancel(id json.RawMessage) {
	var rid rpc.ID
	if err := json.Unmarshal(id, &rid); err != nil {
		return
	}
	ss.mu.Lock()
	f := ss.inflight.get(rid.String())
	if f != nil {
		f.cancelled = true
	}
	ss.mu.Unlock()
	if f != nil {
		f.cancel()
	}
}

// initArrived records that an initialize request was read, so requests
// read after it wait for it instead of racing it.
func (ss *ServerSession) initArrived() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state == stateNew && ss.initDone == nil {
		ss.initDone = make(chan struct{})
	}
}

// initHandled releases the requests waiting for initialize, whatever its
// outcome.
func (ss *ServerSession) initHandled() {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.initDone != nil {
		// Requests read from now on need not wait: the channel goes, so
		// that a session holds none once initialized.
		close(ss.initDone)
		ss.initDone = nil
	}
}

// awaitInit waits for an initialize that arrived before the current
// request to be handled.
func (ss *ServerSession) awaitInit(ctx context.Context) {
	ss.mu.Lock()
	ch := ss.initDone
	ss.mu.Unlock()
	if ch == nil {
		return
	}
	select {
	case <-ch:
	case <-ctx.Done():
	}
}

// cancelAllCalls cancels every request of the session in flight: the
// connection's context ended (rpc.WithCancelHook), which a handshake
// request's context does not derive from (newHandshakeContext).
func (ss *ServerSession) cancelAllCalls() { ss.cancelCalls(false) }

// cancelCalls cancels the requests of the session in flight, all of them
// or only those waiting for the client's answer to a request of the
// server's (awaiting); each is answered as its handler returns.
func (ss *ServerSession) cancelCalls(awaiting bool) {
	ss.mu.Lock()
	calls := ss.inflight.all()
	if awaiting {
		calls = slices.DeleteFunc(calls, func(rc *requestContext) bool { return rc.awaiting.Load() == 0 })
	}
	ss.mu.Unlock()
	for _, rc := range calls {
		rc.cancel()
	}
}
