package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// fallbackDialTimeout bounds the wait for an HTTP+SSE server's endpoint
// event when the link falls back to that transport.
const fallbackDialTimeout = 30 * time.Second

// streamState is what a client remembers of one SSE stream to resume it:
// the last event id, the reconnection delay the server named, and whether
// the current connection delivered any event.
type streamState struct {
	lastID     string
	retry      time.Duration
	progressed bool
}

// delay is the wait before reconnecting.
func (s *streamState) delay() time.Duration {
	if s.retry > 0 {
		return s.retry
	}
	return defaultReconnectDelay
}

// postMessage POSTs a notification or a response and waits for the
// server to accept it.
func (l *httpLink) postMessage(ctx context.Context, msg []byte, h http.Header) error {
	ctx, cancel := context.WithCancel(ctx)
	defer context.AfterFunc(l.ctx, cancel)()
	defer cancel()
	req, err := l.newRequest(ctx, http.MethodPost, l.url, msg)
	if err != nil {
		return err
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := l.client.Do(req)
	if err != nil {
		return fmt.Errorf("mcp: POST: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		herr := statusError(resp)
		if resp.StatusCode == http.StatusNotFound {
			if sid := h.Get(HeaderSessionID); sid != "" {
				l.expire(sid)
				return &SessionExpiredError{SessionID: sid}
			}
		}
		return herr
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
	return nil
}

// post sends the request r and reads its answer: a JSON body, or an SSE
// stream resumed when it breaks (handshake era).
func (l *httpLink) post(ctx context.Context, r *outRequest, h http.Header) {
	req, err := l.newRequest(ctx, http.MethodPost, l.url, r.msg)
	if err != nil {
		l.failRequest(r, err)
		return
	}
	for k, vs := range h {
		req.Header[k] = vs
	}
	resp, err := l.client.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			l.failRequest(r, fmt.Errorf("mcp: POST %s: %w", r.method, err))
		}
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		l.refused(ctx, r, resp)
		return
	}
	if r.method == "initialize" && !r.stateless {
		if sid := resp.Header.Get(HeaderSessionID); sid != "" {
			l.mu.Lock()
			l.sessionID = sid
			l.mu.Unlock()
		}
	}
	switch mt := mediaType(resp); {
	case resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent:
		if r.stateless {
			l.failRequest(r, fmt.Errorf("mcp: the server accepted %s (HTTP %d) without answering it", r.method, resp.StatusCode))
		}
		// A handshake-era answer may still come on the GET stream.
	case mt == "application/json":
		l.readJSON(r, resp.Body)
	case mt == "text/event-stream":
		l.readPostStream(ctx, r, resp.Body)
	default:
		l.failRequest(r, fmt.Errorf("mcp: the server answered %s with Content-Type %q, neither JSON nor an event stream", r.method, resp.Header.Get("Content-Type")))
	}
}

// readJSON takes the answer to r from a JSON body.
func (l *httpLink) readJSON(r *outRequest, body io.Reader) {
	b, err := readBounded(body, l.maxSize)
	if err != nil {
		l.failRequest(r, fmt.Errorf("mcp: reading the answer to %s: %w", r.method, err))
		return
	}
	msgs, err := splitBody(b)
	if err != nil {
		l.failRequest(r, fmt.Errorf("mcp: the answer to %s is not JSON-RPC: %w", r.method, err))
		return
	}
	for _, m := range msgs {
		l.deliverFor(r, m)
	}
	if l.pending(r) {
		l.failRequest(r, fmt.Errorf("mcp: the JSON answer to %s holds no response to it", r.method))
	}
}

// deliverFor delivers a message received on r's stream. An error response
// with id null there is r's: the server could not read r's id.
func (l *httpLink) deliverFor(r *outRequest, msg []byte) *outRequest {
	m, ok := parseWire(msg)
	if !ok {
		l.droppedMessage("mcp: dropped a message from the server that is not a JSON object", msg)
		return nil
	}
	if r != nil && m.kind() == wireResponse && m.id().IsNull() && m.Error != nil {
		l.failRequest(r, m.Error)
		return r
	}
	return l.deliver(msg, &m)
}

// readStream reads the events of one connection of a stream into Read,
// updating st. An event may hold one message or an array of them (a
// 2025-03-26 batch). It returns nil once r (when not nil) was answered, else the
// error that ended the connection (io.EOF at its end).
func (l *httpLink) readStream(body io.Reader, st *streamState, r *outRequest) error {
	rd := newSSEReader(body, l.maxSize)
	for {
		rec, err := rd.next()
		if err != nil {
			return err
		}
		if rec.HasID {
			st.lastID, st.progressed = rec.ID, true
		}
		if rec.Retry > 0 {
			st.retry = rec.Retry
		}
		if !rec.IsMessage() {
			continue
		}
		st.progressed = true
		msgs, err := splitBody(rec.Data)
		if err != nil {
			l.droppedMessage("mcp: dropped an event whose data is not JSON", rec.Data)
			continue
		}
		answered := false
		for _, m := range msgs {
			if got := l.deliverFor(r, m); r != nil && got == r {
				answered = true
			}
		}
		if answered {
			return nil
		}
	}
}

// readPostStream takes the answer to r from its SSE stream, resuming the
// stream when it breaks before the answer (handshake era only).
func (l *httpLink) readPostStream(ctx context.Context, r *outRequest, body io.Reader) {
	st := &streamState{}
	err := l.readStream(body, st, r)
	switch {
	case !l.pending(r) || ctx.Err() != nil:
	case errors.Is(err, rpc.ErrMessageTooLarge):
		l.failRequest(r, err)
	case r.stateless:
		l.failRequest(r, fmt.Errorf("mcp: the response stream of %s ended before its response, and 2026-07-28 streams cannot be resumed: %w", r.method, noEOF(err)))
	case st.lastID == "":
		l.failRequest(r, fmt.Errorf("mcp: the response stream of %s ended before its response and named no event to resume from: %w", r.method, noEOF(err)))
	default:
		l.resume(ctx, r, st)
	}
}

// noEOF turns the end of a stream into an error that says so.
func noEOF(err error) error {
	if err == nil || errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}

// resume reconnects r's broken stream with GET and Last-Event-ID after the
// delay the server asked for, until r is answered, the server refuses, or
// MaxReconnects connections in a row bring nothing new.
func (l *httpLink) resume(ctx context.Context, r *outRequest, st *streamState) {
	var last error
	for failures := 0; failures < l.maxReconnects; {
		if !sleepCtx(ctx, st.delay()) || !l.pending(r) {
			return
		}
		resp, err := l.get(ctx, st.lastID)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			failures, last = failures+1, err
			continue
		}
		if resp.StatusCode/100 != 2 {
			l.refused(ctx, r, resp)
			resp.Body.Close()
			return
		}
		if mediaType(resp) != "text/event-stream" {
			resp.Body.Close()
			l.failRequest(r, fmt.Errorf("mcp: resuming the stream of %s, the server answered with Content-Type %q", r.method, resp.Header.Get("Content-Type")))
			return
		}
		st.progressed = false
		err = l.readStream(resp.Body, st, r)
		resp.Body.Close()
		switch {
		case !l.pending(r) || ctx.Err() != nil:
			return
		case errors.Is(err, rpc.ErrMessageTooLarge):
			l.failRequest(r, err)
			return
		case st.progressed:
			failures = 0
		default:
			failures++
		}
		last = noEOF(err)
	}
	l.failRequest(r, fmt.Errorf("mcp: the response stream of %s broke %d times in a row before its response: %w", r.method, l.maxReconnects, last))
}

// get opens a GET stream of the session, resuming after lastID when it is
// not empty.
func (l *httpLink) get(ctx context.Context, lastID string) (*http.Response, error) {
	req, err := l.newRequest(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.setSessionHeaders(req.Header)
	l.mu.Unlock()
	if lastID != "" {
		req.Header.Set(headerLastEventID, lastID)
	}
	return l.client.Do(req)
}

// refused handles a non-2xx answer to r's POST or resumption: a 404 in a
// session expires it, an initialize refused the way an HTTP+SSE server
// refuses falls back to that transport, anything else fails r with an
// *HTTPStatusError.
func (l *httpLink) refused(ctx context.Context, r *outRequest, resp *http.Response) {
	herr := statusError(resp)
	if resp.StatusCode == http.StatusNotFound && !r.stateless && r.session != "" {
		l.expire(r.session)
		return
	}
	if l.fallback && !r.stateless && r.method == "initialize" && oldServerStatus(resp.StatusCode) {
		if m, ok := parseWire(herr.Body); !ok || m.kind() != wireResponse {
			l.fallBack(ctx, r, herr)
			return
		}
	}
	l.failRequest(r, herr)
}

// oldServerStatus reports whether a status is how a server without
// Streamable HTTP may refuse a POST of initialize.
func oldServerStatus(code int) bool {
	return code == http.StatusBadRequest || code == http.StatusNotFound || code == http.StatusMethodNotAllowed
}

// fallBack switches the link to the 2024-11-05 HTTP+SSE transport after
// the server refused the initialize request r with herr, and sends r again
// there.
func (l *httpLink) fallBack(ctx context.Context, r *outRequest, herr *HTTPStatusError) {
	dctx, cancel := context.WithTimeout(ctx, fallbackDialTimeout)
	defer cancel()
	fb, err := dialSSE(dctx, l.httpBase)
	if err != nil {
		l.failRequest(r, fmt.Errorf("mcp: initialize was refused (%w), and the HTTP+SSE transport failed too: %v", herr, err))
		return
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		fb.Close()
		return
	}
	l.sse = fb
	key := idKey(r.id)
	mine := l.reqs[key] == r
	if mine {
		delete(l.reqs, key)
	}
	l.mu.Unlock()
	if !mine {
		return
	}
	l.log.Info("mcp: the server speaks the 2024-11-05 HTTP+SSE transport; using it", "url", logURL(l.url), "endpoint", logURL(fb.endpoint))
	if err := fb.Write(ctx, r.msg); err != nil {
		l.fail(r.id, err)
	}
}
