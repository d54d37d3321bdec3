package mcp

import (
	"context"
	"errors"

	"github.com/schemarpc/schemarpc/rpc"
)

// RegisterForTest adds a method to the server's router, for transport tests
// that need a handler of their own.
func RegisterForTest(s *Server, name string, h func(context.Context, *rpc.Request) (any, error)) {
	s.router.Register(name, rpc.Method{Handler: h})
}

// NotifyForTest sends a notification on a session outside any request.
func NotifyForTest(ss *ServerSession, method string, params any) error {
	return ss.conn.Notify(context.Background(), method, params)
}

// SessionCountForTest returns how many sessions a handler holds.
func SessionCountForTest(h *StreamableHTTPHandler) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.sessions)
}

// NotifyWithContextForTest sends a notification on a session with a given
// context, as a handler of another session would.
func NotifyWithContextForTest(ctx context.Context, ss *ServerSession, method string) error {
	return ss.conn.Notify(ctx, method, map[string]any{})
}

// DeliverAfterEndForTest is a POST without requests that found the session
// with this id just before it ended: the session ends, then the frame is
// handed to it. It returns what the POST would be told.
func DeliverAfterEndForTest(h *StreamableHTTPHandler, id string, msg []byte) error {
	sess := h.lookup(id)
	if sess == nil {
		return errors.New("no such session")
	}
	sess.Close()
	return sess.deliver(context.Background(), inFrame{msg: msg, ctx: context.Background()})
}
