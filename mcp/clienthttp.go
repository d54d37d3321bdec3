package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// StreamableHTTPTransport connects a Client to a server over Streamable
// HTTP, in either era. Every message the client sends is POSTed to URL;
// answers arrive as JSON or as SSE streams. A handshake-era session keeps
// the session id the server issued, opens the GET stream for what the
// server sends unprompted, resumes broken streams with Last-Event-ID and
// ends the session with DELETE on Close. A 2026-07-28 request carries the
// headers mirroring its body, and closing its response stream cancels it.
// A server that answers initialize like an old HTTP+SSE server does is
// reached through the 2024-11-05 transport instead (see SSETransport),
// unless DisableSSEFallback. See docs/mcp-client-http.md.
type StreamableHTTPTransport struct {
	// URL is the server's MCP endpoint, e.g. http://127.0.0.1:8080/mcp.
	URL string
	// HTTPClient sends the requests; nil means http.DefaultClient. An
	// authorizing http.RoundTripper plugs in as its Transport.
	HTTPClient *http.Client
	// Header holds extra headers sent on every request.
	Header http.Header
	// DisableSSEFallback keeps the transport from falling back to the
	// 2024-11-05 HTTP+SSE transport.
	DisableSSEFallback bool
	// MaxReconnects bounds the reconnections of one broken stream
	// without progress; 0 means 5.
	MaxReconnects int
	// MaxMessageSize bounds one received message (a JSON body or an SSE
	// event); 0 means rpc.DefaultMaxMessageSize (4 MiB). A response over
	// it fails its call.
	MaxMessageSize int
}

// dial prepares a link to the server; nothing is sent before the first
// Write.
func (t *StreamableHTTPTransport) dial(ctx context.Context, env *linkEnv) (clientLink, error) {
	b, err := newHTTPBase(t.URL, t.HTTPClient, t.Header, t.MaxMessageSize, env)
	if err != nil {
		return nil, err
	}
	l := &httpLink{
		httpBase:      b,
		maxReconnects: t.MaxReconnects,
		fallback:      !t.DisableSSEFallback,
		reqs:          map[string]*outRequest{},
		tools:         map[string][]headerParam{},
	}
	if l.maxReconnects <= 0 {
		l.maxReconnects = defaultMaxReconnects
	}
	return l, nil
}

// httpLink is a Streamable HTTP connection to one server.
type httpLink struct {
	*httpBase
	maxReconnects int
	fallback      bool

	mu        sync.Mutex
	closed    bool
	sessionID string                   // handshake era, from the initialize response
	version   string                   // the negotiated handshake version
	reqs      map[string]*outRequest   // requests POSTed and not answered, by id
	tools     map[string][]headerParam // x-mcp-header annotations by tool name
	getStop   *getStream               // the running GET stream, or nil
	sse       *sseLink                 // set once the link fell back to HTTP+SSE
}

// outRequest is a request POSTed by the link and not answered yet.
type outRequest struct {
	id        rpc.ID
	method    string
	msg       []byte
	stateless bool               // a 2026-07-28 request
	session   string             // the session id it was sent with
	stop      context.CancelFunc // ends its POST and any resumption
	answered  chan struct{}      // closed when its response was received
}

// isHTTP reports true: era detection reads HTTP statuses.
func (l *httpLink) isHTTP() bool { return true }

// Read returns the next message the server sent, from any stream.
func (l *httpLink) Read(ctx context.Context) ([]byte, error) { return l.in.read(ctx) }

// Write sends one message. A request is POSTed in the background and Write
// returns at once; what the server answers arrives through Read, and an
// answer that cannot come (an HTTP error, a stream broken for good) ends
// the call through the link's fail function. A notification or a response
// is POSTed before Write returns; a notification the server refuses is
// Write's error.
func (l *httpLink) Write(ctx context.Context, msg []byte) error {
	m, ok := parseWire(msg)
	if !ok || m.kind() == wireInvalid {
		return fmt.Errorf("mcp: the HTTP transport sends only JSON-RPC requests, notifications and responses")
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return errLinkClosed
	}
	if fb := l.sse; fb != nil {
		l.mu.Unlock()
		return fb.Write(ctx, msg)
	}
	version := statelessVersionIn(m.Params)
	if m.kind() == wireRequest {
		r := l.startRequest(ctx, &m, msg, version)
		l.mu.Unlock()
		if r == nil {
			return fmt.Errorf("mcp: a request with id %s is already in flight", m.ID)
		}
		return nil
	}
	h := l.messageHeaders(&m, version)
	l.mu.Unlock()
	err := l.postMessage(ctx, msg, h)
	if m.kind() == wireResponse {
		if err != nil {
			l.log.Warn("mcp: the server refused the client's answer to its request", "id", string(m.ID), "error", err)
		}
		return nil
	}
	if err == nil && m.Method == "notifications/initialized" {
		l.startGet(ctx)
	}
	return err
}

// messageHeaders returns the headers of a POST carrying m; l.mu is held.
func (l *httpLink) messageHeaders(m *wireMessage, version string) http.Header {
	h := http.Header{}
	if version != "" {
		if m.kind() == wireRequest {
			setStatelessHeaders(h, m.Method, m.Params, version, func(name string) []headerParam { return l.tools[name] })
		} else {
			h.Set(HeaderProtocolVersion, version)
			h.Set(HeaderMethod, m.Method)
		}
		return h
	}
	l.setSessionHeaders(h)
	return h
}

// setSessionHeaders puts the session's id and version on h; l.mu is held.
func (l *httpLink) setSessionHeaders(h http.Header) {
	if l.sessionID != "" {
		h.Set(HeaderSessionID, l.sessionID)
	}
	if l.version >= Version20250618 {
		h.Set(HeaderProtocolVersion, l.version)
	}
}

// startRequest records a request and starts its POST; l.mu is held. It
// returns nil when a request with the same id is in flight.
func (l *httpLink) startRequest(ctx context.Context, m *wireMessage, msg []byte, version string) *outRequest {
	id := m.id()
	key := idKey(id)
	if _, dup := l.reqs[key]; dup {
		return nil
	}
	if m.Method == "initialize" && version == "" {
		// A new session: whatever the last one was is over.
		l.sessionID, l.version = "", ""
		l.stopGet()
	}
	h := l.messageHeaders(m, version)
	// A 2026-07-28 request lives as long as its call: ending the call's
	// context closes the response stream, which is how that era cancels.
	// A handshake-era request outlives it: closing its stream would not
	// cancel it, the client's notifications/cancelled does.
	base := ctx
	if version == "" {
		base = context.WithoutCancel(ctx)
	}
	pctx, cancel := context.WithCancel(base)
	unlink := context.AfterFunc(l.ctx, cancel)
	r := &outRequest{
		id: id, method: m.Method, msg: msg, stateless: version != "", session: l.sessionID,
		stop:     func() { unlink(); cancel() },
		answered: make(chan struct{}),
	}
	l.reqs[key] = r
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		defer r.stop()
		l.post(pctx, r, h)
	}()
	return r
}

// cancel closes the response stream of the 2026-07-28 request id, whose
// call was abandoned; it reports false for any other request, whose
// cancellation is the client's notifications/cancelled (its stream stays
// open, since closing it would not cancel it, but is no longer resumed).
func (l *httpLink) cancel(id rpc.ID) bool {
	l.mu.Lock()
	r := l.reqs[idKey(id)]
	if r == nil {
		l.mu.Unlock()
		return false
	}
	// Either way the call is gone: a stream that breaks now is not
	// resumed for it.
	delete(l.reqs, idKey(id))
	l.mu.Unlock()
	if !r.stateless {
		return false
	}
	r.stop()
	return true
}

// deliver hands a received message to Read, first noting what the link
// learns from it: the negotiated version from an initialize result, the
// x-mcp-header annotations from a tools/list result. It returns the
// request the message answered, if the link was waiting for it. m is
// msg's envelope, read once by the caller.
func (l *httpLink) deliver(msg []byte, m *wireMessage) *outRequest {
	var r *outRequest
	if m.kind() == wireResponse {
		l.mu.Lock()
		key := idKey(m.id())
		if r = l.reqs[key]; r != nil {
			delete(l.reqs, key)
			close(r.answered)
			l.learn(r, m)
		}
		l.mu.Unlock()
	}
	l.in.push(msg)
	return r
}

// learn notes what an answer to r tells the link; l.mu is held.
func (l *httpLink) learn(r *outRequest, m *wireMessage) {
	if m.Result == nil {
		return
	}
	switch {
	case r.method == "initialize" && !r.stateless:
		var res struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(m.Result, &res) == nil {
			l.version = res.ProtocolVersion
		}
	case r.method == "tools/list":
		learnToolHeaders(m.Result, l.tools)
	}
}

// failRequest ends r's call with err, unless it was answered or
// cancelled in the meantime.
func (l *httpLink) failRequest(r *outRequest, err error) {
	l.mu.Lock()
	key := idKey(r.id)
	mine := l.reqs[key] == r
	if mine {
		delete(l.reqs, key)
	}
	l.mu.Unlock()
	if mine {
		l.fail(r.id, err)
	}
}

// pending reports whether r still waits for its answer.
func (l *httpLink) pending(r *outRequest) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.reqs[idKey(r.id)] == r
}

// expire ends the session sid the server answered 404 for: every call
// waiting in it fails with a *SessionExpiredError, the GET stream stops,
// and the next initialize starts afresh. Read goes on working.
func (l *httpLink) expire(sid string) {
	l.mu.Lock()
	if sid == "" || l.sessionID != sid {
		l.mu.Unlock()
		return
	}
	l.sessionID, l.version = "", ""
	l.stopGet()
	var waiting []*outRequest
	for key, r := range l.reqs {
		if !r.stateless && r.session == sid {
			waiting = append(waiting, r)
			delete(l.reqs, key)
		}
	}
	l.mu.Unlock()
	err := &SessionExpiredError{SessionID: sid}
	for _, r := range waiting {
		r.stop()
		l.fail(r.id, err)
	}
}

// Close ends the session with DELETE (a server answering 405 keeps it),
// stops every stream and POST, and ends Read with io.EOF.
func (l *httpLink) Close() error {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	sid, fb := l.sessionID, l.sse
	h := http.Header{}
	l.setSessionHeaders(h)
	l.mu.Unlock()
	if fb != nil {
		fb.Close()
	}
	if sid != "" {
		l.deleteSession(h)
	}
	l.stop()
	l.in.end(nil)
	l.wg.Wait()
	return nil
}

// deleteSession asks the server to end the session.
func (l *httpLink) deleteSession(h http.Header) {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	req, err := l.newRequest(ctx, http.MethodDelete, l.url, nil)
	if err != nil {
		return
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := l.client.Do(req)
	if err != nil {
		l.log.Debug("mcp: DELETE of the session failed", "error", err)
		return
	}
	resp.Body.Close()
	if resp.StatusCode/100 != 2 && resp.StatusCode != http.StatusMethodNotAllowed && resp.StatusCode != http.StatusNotFound {
		l.log.Debug("mcp: the server refused to end the session", "status", resp.StatusCode)
	}
}
