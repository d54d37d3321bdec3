package rpc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/coder/websocket"
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
type WebSocketHandler struct {
	h      Handler
	opts   []Option
	accept *websocket.AcceptOptions
}

// NewWebSocketHandler returns a handler serving h. accept may be nil; by
// default only same-origin browser connections are accepted.
func NewWebSocketHandler(h Handler, accept *websocket.AcceptOptions, opts ...Option) *WebSocketHandler {
	return &WebSocketHandler{h: h, opts: opts, accept: accept}
}

// ServeHTTP upgrades the request and serves the connection until it ends.
func (h *WebSocketHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ws, err := websocket.Accept(w, r, h.accept)
	if err != nil {
		return // Accept has answered the request
	}
	c := NewConn(NewWebSocketTransport(ws, h.opts...), append(h.opts, WithHandler(h.h))...)
	select {
	case <-c.Done():
	case <-r.Context().Done():
		c.Close()
		<-c.Done()
	}
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
