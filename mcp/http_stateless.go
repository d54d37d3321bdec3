package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// Streamable HTTP for 2026-07-28 (the stateless era): every client message
// is a POST of its own carrying one request or notification; the answer is
// one JSON response, or an SSE stream that carries the request's own
// notifications and then its response. There are no sessions, no GET
// stream and no resumption; closing the response cancels the request.

// methodListen is the 2026-07-28 request whose response stream stays open
// for change notifications.
const methodListen = "subscriptions/listen"

// errResponseEnded reports a notification sent after its request's
// response was written.
var errResponseEnded = errors.New("mcp: the request's response has been sent")

// protocolVersionKey is HeaderProtocolVersion as net/http keys it.
var protocolVersionKey = http.CanonicalHeaderKey(HeaderProtocolVersion)

// statelessEra decides whether r is a 2026-07-28 request (docs/mcp-http.md,
// "Which era a request is"). An MCP-Protocol-Version header decides first:
// a handshake version means the handshake session code, any other value
// the stateless code, so that an unknown version reaches its validator.
// Then a session id means handshake. A POST with neither is read: a body
// carrying the 2026 _meta version is stateless, any other handshake. A
// server serving no handshake version takes everything on the stateless
// path except a POSTed initialize, which the handshake code refuses with
// the supported versions. The body, when it had to be read, is returned;
// ok is false when reading it failed and r has been answered.
func (h *StreamableHTTPHandler) statelessEra(w http.ResponseWriter, r *http.Request) (stateless bool, body []byte, ok bool) {
	handshake := h.server.servesHandshake()
	if v, present := r.Header[protocolVersionKey]; present {
		dated := len(v) == 1 && slices.Contains(SupportedVersions(), strings.TrimSpace(v[0]))
		return !dated || !handshake, nil, true
	}
	if r.Method != http.MethodPost || r.Header.Get(HeaderSessionID) != "" {
		return !handshake, nil, true
	}
	if body, ok = h.bodyOf(w, r, nil); !ok {
		return false, nil, false
	}
	if msg, isMessage := rpc.ReadEnvelope(body); isMessage {
		if isStatelessRequest(msg.Params) {
			return true, body, true
		}
		if !handshake && string(msg.Method) == `"initialize"` {
			return false, body, true
		}
	}
	return !handshake, body, true
}

// serveStatelessHTTP serves one 2026-07-28 request in ctx, r's context
// with a POST's charge (chargePOST). body is the POST body when
// statelessEra read it already.
func (h *StreamableHTTPHandler) serveStatelessHTTP(ctx context.Context, w http.ResponseWriter, r *http.Request, body []byte) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeHTTPError(w, http.StatusMethodNotAllowed, rpc.CodeInvalidRequest,
			"the 2026-07-28 Streamable HTTP transport takes POST only: no GET stream, no sessions to DELETE")
		return
	}
	if !isJSONBody(r) {
		writeHTTPError(w, http.StatusUnsupportedMediaType, rpc.CodeInvalidRequest, "Content-Type must be application/json")
		return
	}
	if !accepts(r, "application/json") || !accepts(r, "text/event-stream") {
		writeHTTPError(w, http.StatusNotAcceptable, rpc.CodeInvalidRequest, "Accept must list application/json and text/event-stream")
		return
	}
	body, ok := h.bodyOf(w, r, body)
	if !ok {
		return
	}
	req, id, perr := parseStatelessMessage(body)
	if perr != nil {
		h.statelessUnreadable(ctx, body, perr)
		writeJSONMessage(w, http.StatusBadRequest, rpc.EncodeError(id, perr))
		return
	}
	leave, busy := h.admitStateless(req.Method)
	if busy != nil {
		h.statelessRefused(ctx, req, busy)
		writeBusy(w, req.ID, busy)
		return
	}
	defer leave()
	if req.IsNotification() {
		// 2026-07-28 defines no client notification over HTTP; whatever
		// the dispatcher makes of one, it gets no answer.
		h.dispatcher().Serve(rpc.WithHTTPRequest(ctx, r), req)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if h.shuttingDown() {
		h.statelessRefused(ctx, req, rpc.ShuttingDown())
		refuseShuttingDown(w, req.ID)
		return
	}
	out := newStatelessResponse(w, h.opts.KeepAlive)
	ctx, cancel := h.statelessContext(ctx, r, out)
	defer h.endStatelessContext(out, cancel)
	out.preferSSE = !h.opts.JSONResponse
	out.owner = h
	defer out.close()
	msg := h.dispatcher().Serve(context.WithValue(ctx, statelessResponseKey{}, out), req)
	out.finish(ctx, req, msg)
}

// dispatcher returns the engine the handler's 2026-07-28 requests are
// answered through, made on first use: the rpc package's, as for every
// other transport, with its panic recovery, error mapping, encoder and log
// lines (ServerOptions.ErrorDetail and LogParams apply). The HTTP status
// and the choice of JSON or SSE stay here (serveStatelessCall, finish).
func (h *StreamableHTTPHandler) dispatcher() *rpc.Dispatcher {
	h.dispatchOnce.Do(func() {
		h.statelessEngine = rpc.NewDispatcher(rpc.HandlerFunc(h.serveStatelessCall),
			rpc.WithLogger(h.log), rpc.WithErrorDetail(h.server.opts.ErrorDetail), rpc.WithLogParams(h.server.opts.LogParams))
	})
	return h.statelessEngine
}

// statelessResponseKey finds, in a request's context, the response a
// 2026-07-28 request is answered on.
type statelessResponseKey struct{}

// serveStatelessCall is the dispatcher's handler: it checks the request's
// headers against its body, serves it (through ServerOptions.Middleware)
// with its notifications going to its response, and notes on the response
// the HTTP status the outcome calls for. A notification is served with
// nowhere to send anything.
func (h *StreamableHTTPHandler) serveStatelessCall(ctx context.Context, req *rpc.Request) (any, error) {
	out, _ := ctx.Value(statelessResponseKey{}).(*statelessResponse)
	if out == nil {
		return h.server.serveStatelessVia(ctx, req, discardSink{})
	}
	res, err := any(nil), h.checkStatelessHeaders(rpc.HTTPRequestFromContext(ctx), req)
	if err == nil {
		res, err = h.server.serveStatelessVia(ctx, req, out)
	}
	out.mu.Lock()
	out.status, out.answered = statelessStatus(err), err == nil
	out.retryAfter, _ = rpc.RetryAfter(err)
	out.mu.Unlock()
	return res, err
}

// checkStatelessHeaders checks a 2026-07-28 request's HTTP headers: a
// request whose _meta names no version and whose MCP-Protocol-Version
// header names one no era has gets -32022 (before any 2026-07-28 header it
// lacks); otherwise the headers must agree with the body (-32020).
func (h *StreamableHTTPHandler) checkStatelessHeaders(r *http.Request, req *rpc.Request) error {
	version := statelessVersionOf(req.Params)
	if unknown, isUnknown := unknownVersionHeader(r); version == "" && isUnknown {
		return h.server.unsupportedVersion(unknown)
	}
	if herr := checkMirroredHeaders(r.Header, req.Method, req.Params, version, h.server.toolHeaders); herr != nil {
		return herr
	}
	return nil
}

// parseStatelessMessage reads a 2026-07-28 POST body: exactly one JSON-RPC
// request or notification, read by the rpc package's strict parser.
// Anything else is refused with -32700 (not JSON) or -32600, together with
// the request id when one could be read; MCP request ids are never null.
func parseStatelessMessage(body []byte) (*rpc.Request, rpc.ID, *rpc.Error) {
	req, id, rerr := rpc.ParseRequest(body)
	switch {
	case rerr != nil:
		return nil, id, rerr
	case req.ID.IsNull():
		return nil, id, rpc.InvalidRequest("a request id must be a string or a number")
	}
	return req, id, nil
}

// unknownVersionHeader returns the MCP-Protocol-Version header when it is
// one value that names no version this package knows, in either era.
func unknownVersionHeader(r *http.Request) (string, bool) {
	v := r.Header.Values(HeaderProtocolVersion)
	if len(v) != 1 {
		return "", false
	}
	got := strings.TrimSpace(v[0])
	return got, got != "" && got != Version20260728 && !slices.Contains(SupportedVersions(), got)
}

// statelessVersionOf returns params._meta's protocol version, "" when absent
// or not a string.
func statelessVersionOf(params json.RawMessage) string {
	meta, _ := jsonscan.Member(params, "_meta")
	raw, _ := jsonscan.Member(meta, metaProtocolVersion)
	v, _ := jsonscan.String(raw)
	return v
}

// discardSink drops what is sent for a request that gets no answer.
type discardSink struct{}

func (discardSink) notify(context.Context, string, any) error { return nil }

// statelessResponse is the HTTP response of one 2026-07-28 request, and the
// sink of what it sends before its result. It starts as a JSON answer and
// turns into an SSE stream the first time a notification must go out;
// the response then ends the stream. An SSE stream gets a comment after
// every keepAlive of silence.
type statelessResponse struct {
	owner     *StreamableHTTPHandler // the handler serving it, nil elsewhere
	w         http.ResponseWriter
	keepAlive time.Duration
	wg        sync.WaitGroup

	// rc flushes and times the SSE stream's writes, and stop ends its
	// keep-alives: both made when the stream begins (beginSSE), so that a
	// JSON answer, most of them, makes neither.
	rc   *http.ResponseController
	stop chan struct{}

	mu  sync.Mutex
	sse bool // the SSE stream has begun
	// preferSSE answers successful results as an SSE stream even when no
	// notification went first (HTTPOptions.JSONResponse unset).
	preferSSE bool
	ended     bool  // nothing more may be written
	failed    error // a write to the client failed

	// The outcome serveStatelessCall noted for finish: the HTTP status of a
	// JSON answer (200 unless noted), whether the request got a result,
	// and the retry hint of a 429.
	status     int
	answered   bool
	retryAfter time.Duration

	// entry is the call's place among the handler's running calls
	// (drain.calls), on a handler's response.
	entry callEntry
}

// newStatelessResponse wraps w.
func newStatelessResponse(w http.ResponseWriter, keepAlive time.Duration) *statelessResponse {
	return &statelessResponse{w: w, keepAlive: keepAlive, status: http.StatusOK}
}

// notify sends a notification on the request's stream, starting it.
func (m *statelessResponse) notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg, err := rpc.EncodeNotification(method, params)
	if err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ended {
		return errResponseEnded
	}
	if m.failed != nil {
		return m.failed
	}
	m.beginSSE()
	return m.writeEvent(msg)
}

// beginSSE starts the event stream once; m.mu is held.
func (m *statelessResponse) beginSSE() {
	if m.sse {
		return
	}
	m.sse = true
	m.rc = http.NewResponseController(m.w)
	startSSE(m.w)
	if err := m.rc.Flush(); err != nil {
		m.failed = err
	}
	if m.keepAlive > 0 {
		m.stop = make(chan struct{})
		m.wg.Add(1)
		go m.keepAlives(m.stop)
	}
}

// writeEvent writes one message as an SSE event without id; m.mu is held.
func (m *statelessResponse) writeEvent(msg []byte) error {
	if m.failed != nil {
		return m.failed
	}
	_ = m.rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
	if err := writeSSEEvent(m.w, sseEvent{data: msg}); err != nil {
		m.failed = err
		return err
	}
	if err := m.rc.Flush(); err != nil {
		m.failed = err
		return err
	}
	return nil
}

// keepAlives writes a comment on every tick until stop is closed, when the
// response ends.
func (m *statelessResponse) keepAlives(stop <-chan struct{}) {
	defer m.wg.Done()
	t := time.NewTicker(m.keepAlive)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		m.mu.Lock()
		if !m.ended && m.failed == nil {
			_ = m.rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
			if _, err := m.w.Write(keepAliveComment); err != nil {
				m.failed = err
			} else if err := m.rc.Flush(); err != nil {
				m.failed = err
			}
		}
		m.mu.Unlock()
	}
}

// finish writes the encoded answer the dispatcher made: as the last
// event of the stream, or as a JSON answer with the status serveStatelessCall
// noted. Nothing is written when the client is gone or the request needs
// no answer (msg nil: a JSON answer is then 202 with no body). A listen's
// result always travels as SSE; so does any result when preferSSE is set.
func (m *statelessResponse) finish(ctx context.Context, req *rpc.Request, msg []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer func() { m.ended = true }()
	if ctx.Err() != nil || m.failed != nil {
		return
	}
	if msg == nil {
		if !m.sse {
			m.w.WriteHeader(http.StatusAccepted)
		}
		return
	}
	if req.Method == methodListen && m.status == http.StatusOK || m.preferSSE && m.answered {
		m.beginSSE()
	}
	if m.sse {
		m.writeEvent(msg)
		return
	}
	if m.status == http.StatusTooManyRequests {
		rpc.SetRetryAfter(m.w.Header(), m.retryAfter)
	}
	writeJSONMessage(m.w, m.status, msg)
}

// close ends the response for good and stops the keep-alives; after it
// nothing touches the ResponseWriter.
func (m *statelessResponse) close() {
	m.mu.Lock()
	m.ended = true
	stop := m.stop
	m.mu.Unlock()
	if stop != nil {
		close(stop)
	}
	m.wg.Wait()
}

// writeJSONMessage answers with one encoded JSON-RPC message and an HTTP
// status.
func writeJSONMessage(w http.ResponseWriter, status int, msg []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(msg)
}
