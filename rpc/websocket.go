package rpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/coder/websocket"

	"github.com/schemarpc/schemarpc/internal/httpguard"
	"github.com/schemarpc/schemarpc/internal/logx"
)

// WebSocketTransport carries one message per WebSocket text frame. A binary
// frame closes the connection with status 1003 (unsupported data); a frame
// over the size limit closes it with status 1009 (message too big).
type WebSocketTransport struct {
	c    *websocket.Conn
	once sync.Once
}

// NewWebSocketTransport wraps an open WebSocket. Options:
// [WithMaxMessageSize].
func NewWebSocketTransport(c *websocket.Conn, opts ...Option) *WebSocketTransport {
	o := buildOptions(opts)
	c.SetReadLimit(int64(o.maxMessageSize))
	return &WebSocketTransport{c: c}
}

// Read returns the next text frame.
func (t *WebSocketTransport) Read(ctx context.Context) ([]byte, error) {
	typ, b, err := t.c.Read(ctx)
	if err != nil {
		return nil, err
	}
	if typ != websocket.MessageText {
		t.c.Close(websocket.StatusUnsupportedData, "JSON-RPC messages must be text frames")
		return nil, errors.New("rpc: binary WebSocket frame")
	}
	return b, nil
}

// Write sends msg as one text frame.
func (t *WebSocketTransport) Write(ctx context.Context, msg []byte) error {
	return t.c.Write(ctx, websocket.MessageText, msg)
}

// Close closes the WebSocket with a normal closure. Closing a socket the
// peer already closed is not an error, so Close always returns nil.
func (t *WebSocketTransport) Close() error {
	t.once.Do(func() { t.c.Close(websocket.StatusNormalClosure, "") })
	return nil
}

// WebSocketHandler upgrades HTTP requests to WebSocket and serves JSON-RPC
// on each connection, in both directions: handlers can call the client back
// through [ConnFromContext].
//
// Before upgrading it checks Host and Origin as [HTTPHandler] does, and
// answers 403 to a request that could come from a page using DNS
// rebinding, or from a page of another site: the browser's same-origin
// policy does not cover WebSocket.
type WebSocketHandler struct {
	h      Handler
	opts   []Option
	accept *websocket.AcceptOptions
	gate   admission
	hosts  httpguard.HostPolicy
	log    *slog.Logger

	mu    sync.Mutex
	conns map[*Conn]struct{}
}

// NewWebSocketHandler returns a handler serving h. accept may be nil. The
// Host and Origin checks are those of the options ([WithAllowedHosts],
// [WithAllowedOrigins], [WithoutHostCheck]): they replace the websocket
// library's own origin check, so accept's OriginPatterns and
// InsecureSkipVerify are not used.
func NewWebSocketHandler(h Handler, accept *websocket.AcceptOptions, opts ...Option) *WebSocketHandler {
	o := buildOptions(opts)
	a := websocket.AcceptOptions{}
	if accept != nil {
		a = *accept
	}
	a.OriginPatterns, a.InsecureSkipVerify = nil, true // the host policy has decided
	return &WebSocketHandler{h: h, opts: opts, accept: &a, gate: newAdmission(), hosts: o.hostPolicy(),
		log: logx.With(o.logger, logx.Transport, "websocket"), conns: map[*Conn]struct{}{}}
}

// ServeHTTP upgrades the request and serves the connection until it ends.
func (h *WebSocketHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if reason := h.hosts.Check(r); reason != "" {
		h.log.LogAttrs(r.Context(), slog.LevelWarn, "jsonrpc: WebSocket upgrade refused", slog.Int(logx.Status, http.StatusForbidden), slog.String(logx.Error, reason))
		http.Error(w, reason, http.StatusForbidden)
		return
	}
	ctx, leave, ok := h.gate.enter(r.Context())
	if !ok {
		refuseShuttingDown(w)
		return
	}
	defer leave()
	ws, err := websocket.Accept(w, r, h.accept)
	if err != nil {
		return // Accept has answered the request
	}
	c := NewConn(NewWebSocketTransport(ws, h.opts...), append(h.opts, WithHandler(h.h), WithBaseContext(WithHTTPRequest(r.Context(), r)))...)
	h.mu.Lock()
	h.conns[c] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.conns, c)
		h.mu.Unlock()
	}()
	select {
	case <-c.Done():
	case <-ctx.Done():
		c.Close()
		<-c.Done()
	}
}

// Shutdown stops the handler gracefully: upgrade requests that arrive from
// now on get 503, and every open connection is shut down as by
// [Conn.Shutdown], its calls in flight answered before it closes. It
// returns nil when every connection has ended, or ctx's error after
// closing those that remain.
func (h *WebSocketHandler) Shutdown(ctx context.Context) error {
	h.gate.draining.Store(true)
	h.mu.Lock()
	conns := make([]*Conn, 0, len(h.conns))
	for c := range h.conns {
		conns = append(conns, c)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.Shutdown(ctx) })
	}
	wg.Wait()
	return h.gate.shutdown(ctx)
}

// DialWebSocket connects to a JSON-RPC WebSocket server and returns the
// connection. Options configure the Conn, [WithHandler] included, so the
// server can call the client.
func DialWebSocket(ctx context.Context, url string, dial *websocket.DialOptions, opts ...Option) (*Conn, error) {
	ws, _, err := websocket.Dial(ctx, url, dial)
	if err != nil {
		return nil, fmt.Errorf("rpc: dialing %s: %w", url, err)
	}
	return NewConn(NewWebSocketTransport(ws, opts...), opts...), nil
}
