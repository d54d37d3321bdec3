package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/logx"
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

// modernEra decides whether r is a 2026-07-28 request (docs/mcp-http.md,
// "Which era a request is"). An MCP-Protocol-Version header decides first:
// a handshake version means the legacy session code, any other value the
// stateless code, so that an unknown version reaches its validator. Then a
// session id means legacy. A POST with neither is read: a body carrying
// the 2026 _meta version is modern, any other legacy. A server serving no
// handshake version takes everything on the modern path except a POSTed
// initialize, which the legacy code refuses with the supported versions.
// The body, when it had to be read, is returned; ok is false when reading
// it failed and r has been answered.
func (h *StreamableHTTPHandler) modernEra(w http.ResponseWriter, r *http.Request) (modern bool, body []byte, ok bool) {
	legacy := h.server.servesLegacy()
	if v, present := r.Header[protocolVersionKey]; present {
		dated := len(v) == 1 && slices.Contains(SupportedVersions(), strings.TrimSpace(v[0]))
		return !dated || !legacy, nil, true
	}
	if r.Method != http.MethodPost || r.Header.Get(HeaderSessionID) != "" {
		return !legacy, nil, true
	}
	body, status, err := h.readBody(w, r)
	if err != nil {
		writeHTTPError(w, status, rpc.CodeInvalidRequest, err.Error())
		return false, nil, false
	}
	if msg, isMessage := rpc.ReadEnvelope(body); isMessage {
		if isModernRequest(msg.Params) {
			return true, body, true
		}
		if !legacy && string(msg.Method) == `"initialize"` {
			return false, body, true
		}
	}
	return !legacy, body, true
}

// serveModernHTTP serves one 2026-07-28 request. body is the POST body
// when modernEra read it already.
func (h *StreamableHTTPHandler) serveModernHTTP(w http.ResponseWriter, r *http.Request, body []byte) {
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
	if body == nil {
		var status int
		var err error
		if body, status, err = h.readBody(w, r); err != nil {
			writeHTTPError(w, status, rpc.CodeInvalidRequest, err.Error())
			return
		}
	}
	req, id, perr := parseModernMessage(body)
	if perr != nil {
		h.modernUnreadable(r.Context(), body, perr)
		writeModernJSON(w, http.StatusBadRequest, id, nil, perr)
		return
	}
	h.modernReceived(r.Context(), req)
	leave, busy := h.admitModern(req.Method)
	if busy != nil {
		h.modernRefused(r.Context(), req, busy)
		writeBusy(w, req.ID, busy)
		return
	}
	defer leave()
	if req.IsNotification() {
		// 2026-07-28 defines no client notification over HTTP; whatever
		// the dispatcher makes of one, it gets no answer.
		_, err := h.server.serveModernVia(rpc.WithHTTPRequest(r.Context(), r), req, discardSink{})
		if err != nil && !errors.Is(err, rpc.ErrNoResponse) {
			h.modernNoteFailed(r.Context(), req, err)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	if h.shuttingDown() {
		h.modernRefused(r.Context(), req, rpc.ShuttingDown())
		refuseShuttingDown(w, req.ID)
		return
	}
	version := modernVersionOf(req.Params)
	if unknown, isUnknown := unknownVersionHeader(r); version == "" && isUnknown {
		// No version in _meta (a session's request, say) and one in the
		// header that no era has: that is the error to report, before any
		// 2026-07-28 header the request lacks.
		uerr := h.server.unsupportedVersion(unknown)
		answeredError(r.Context(), h.log, h.server.opts.LogParams, req, uerr)
		writeModernJSON(w, http.StatusBadRequest, req.ID, nil, uerr)
		return
	}
	if herr := checkModernHeaders(r.Header, req.Method, req.Params, version, h.server.toolHeaders); herr != nil {
		answeredError(r.Context(), h.log, h.server.opts.LogParams, req, herr)
		writeModernJSON(w, http.StatusBadRequest, req.ID, nil, herr)
		return
	}
	ctx, release := h.modernContext(r)
	defer release()
	out := newModernResponse(w, h.opts.KeepAlive)
	out.preferSSE = !h.opts.JSONResponse
	out.owner = h
	defer out.close()
	res, err := h.serveModernCall(ctx, req, out)
	out.finish(ctx, req, res, err, h.log, h.server.opts.LogParams)
}

// serveModernCall runs serveModern, turning a handler's panic into -32603
// as the session path does: the client gets an answer, the log the stack.
func (h *StreamableHTTPHandler) serveModernCall(ctx context.Context, req *rpc.Request, sink modernSink) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			if p == http.ErrAbortHandler {
				panic(p)
			}
			h.log.LogAttrs(ctx, slog.LevelError, "mcp: handler panicked",
				slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()), slog.Int(logx.Code, rpc.CodeInternalError),
				slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
			res, err = nil, panicked{rpc.InternalError()}
			if h.server.opts.ErrorDetail {
				err = panicked{fmt.Errorf("panic: %v", p)}
			}
		}
	}()
	return h.server.serveModernVia(ctx, req, sink)
}

// parseModernMessage reads a 2026-07-28 POST body: exactly one JSON-RPC
// request or notification, read by the rpc package's strict parser.
// Anything else is refused with -32700 (not JSON) or -32600, together with
// the request id when one could be read; MCP request ids are never null.
func parseModernMessage(body []byte) (*rpc.Request, rpc.ID, *rpc.Error) {
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

// modernVersionOf returns params._meta's protocol version, "" when absent
// or not a string.
func modernVersionOf(params json.RawMessage) string {
	meta, _ := jsonscan.Member(params, "_meta")
	raw, _ := jsonscan.Member(meta, metaProtocolVersion)
	v, _ := jsonscan.String(raw)
	return v
}

// discardSink drops what is sent for a request that gets no answer.
type discardSink struct{}

func (discardSink) notify(context.Context, string, any) error { return nil }

// modernResponse is the HTTP response of one 2026-07-28 request, and the
// sink of what it sends before its result. It starts as a JSON answer and
// turns into an SSE stream the first time a notification must go out;
// the response then ends the stream. An SSE stream gets a comment after
// every keepAlive of silence.
type modernResponse struct {
	owner     *StreamableHTTPHandler // the handler serving it, nil elsewhere
	w         http.ResponseWriter
	rc        *http.ResponseController
	keepAlive time.Duration
	stop      chan struct{}
	wg        sync.WaitGroup

	mu  sync.Mutex
	sse bool // the SSE stream has begun
	// preferSSE answers successful results as an SSE stream even when no
	// notification went first (HTTPOptions.JSONResponse unset).
	preferSSE bool
	ended     bool  // nothing more may be written
	failed    error // a write to the client failed
}

// newModernResponse wraps w.
func newModernResponse(w http.ResponseWriter, keepAlive time.Duration) *modernResponse {
	return &modernResponse{w: w, rc: http.NewResponseController(w), keepAlive: keepAlive, stop: make(chan struct{})}
}

// notify sends a notification on the request's stream, starting it.
func (m *modernResponse) notify(ctx context.Context, method string, params any) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	msg, err := encodeModernNotification(method, params)
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
func (m *modernResponse) beginSSE() {
	if m.sse {
		return
	}
	m.sse = true
	startSSE(m.w)
	if err := m.rc.Flush(); err != nil {
		m.failed = err
	}
	if m.keepAlive > 0 {
		m.wg.Add(1)
		go m.keepAlives()
	}
}

// writeEvent writes one message as an SSE event without id; m.mu is held.
func (m *modernResponse) writeEvent(msg []byte) error {
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

// keepAlives writes a comment on every tick until the response ends.
func (m *modernResponse) keepAlives() {
	defer m.wg.Done()
	t := time.NewTicker(m.keepAlive)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
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

// finish writes the outcome of serveModern: the result or error as the
// last event of the stream, or as a JSON answer with the status
// modernStatus gives. Nothing is written when the client is gone or the
// request needs no answer (a JSON answer is then 202 with no body).
// A listen's result always travels as SSE.
func (m *modernResponse) finish(ctx context.Context, req *rpc.Request, res any, err error, log *slog.Logger, logParams bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	defer func() { m.ended = true }()
	if ctx.Err() != nil || m.failed != nil {
		return
	}
	if errors.Is(err, rpc.ErrNoResponse) {
		if !m.sse {
			m.w.WriteHeader(http.StatusAccepted)
		}
		return
	}
	status := http.StatusOK
	var werr *rpc.Error
	if err != nil {
		werr = modernWireError(ctx, err, req, log, logParams, m.owner != nil && m.owner.server.opts.ErrorDetail)
		status = modernStatus(err)
	}
	msg, encErr := encodeModernResponse(req.ID, res, werr)
	if encErr != nil {
		log.LogAttrs(ctx, slog.LevelError, "mcp: cannot encode the result",
			slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()),
			slog.Int(logx.Code, rpc.CodeInternalError), slog.String(logx.Error, encErr.Error()))
		msg, _ = encodeModernResponse(req.ID, nil, rpc.InternalError())
		status = http.StatusOK
	}
	if req.Method == methodListen && status == http.StatusOK || m.preferSSE && err == nil {
		m.beginSSE()
	}
	if m.sse {
		m.writeEvent(msg)
		return
	}
	m.w.Header().Set("Content-Type", "application/json")
	if status == http.StatusTooManyRequests {
		wait, _ := rpc.RetryAfter(err) // modernStatus found it
		rpc.SetRetryAfter(m.w.Header(), wait)
	}
	m.w.WriteHeader(status)
	m.w.Write(msg)
}

// close ends the response for good and stops the keep-alives; after it
// nothing touches the ResponseWriter.
func (m *modernResponse) close() {
	m.mu.Lock()
	m.ended = true
	m.mu.Unlock()
	close(m.stop)
	m.wg.Wait()
}

// modernWireError turns what serveModern returned into the error sent: an
// *rpc.Error in the chain as it is, anything else the generic -32603 (the
// details go to the log), with the cause in data under the debug policy
// (ServerOptions.ErrorDetail).
func modernWireError(ctx context.Context, err error, req *rpc.Request, log *slog.Logger, logParams, detail bool) *rpc.Error {
	var e *rpc.Error
	_, logged := err.(panicked)
	if errors.As(err, &e) && e != nil && e.Code != 0 {
		if !logged {
			answeredError(ctx, log, logParams, req, e)
		}
		return e
	}
	if !logged {
		log.LogAttrs(ctx, slog.LevelError, "mcp: handler failed",
			slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()),
			slog.Int(logx.Code, rpc.CodeInternalError), slog.String(logx.Error, err.Error()))
	}
	if detail {
		return rpc.InternalErrorWithCause(err)
	}
	return rpc.InternalError()
}

// writeModernJSON answers with one JSON-RPC response and an HTTP status.
func writeModernJSON(w http.ResponseWriter, status int, id rpc.ID, res any, rerr *rpc.Error) {
	msg, err := encodeModernResponse(id, res, rerr)
	if err != nil {
		msg, _ = encodeModernResponse(id, nil, rpc.InternalError())
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(msg)
}

// encodeModernResponse renders a JSON-RPC response; the zero id is null.
// An error's echoes of the client's input are bounded (rpc.BoundError).
func encodeModernResponse(id rpc.ID, res any, rerr *rpc.Error) ([]byte, error) {
	if rerr != nil {
		rerr, _ = rpc.BoundError(rerr).(*rpc.Error)
		return marshalModern(struct {
			JSONRPC string     `json:"jsonrpc"`
			ID      rpc.ID     `json:"id"`
			Error   *rpc.Error `json:"error"`
		}{"2.0", id, rerr})
	}
	return marshalModern(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      rpc.ID `json:"id"`
		Result  any    `json:"result"`
	}{"2.0", id, res})
}

// encodeModernNotification renders a notification.
func encodeModernNotification(method string, params any) ([]byte, error) {
	return marshalModern(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

// marshalModern encodes v as compact JSON without HTML escaping.
func marshalModern(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
