// Package harness connects a generated client to a generated server over an
// in-process pipe, and records the params each call carried on the wire. The
// OpenRPC corpus test copies it into the module it compiles the generated
// packages in.
package harness

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// Wire records the params of every call the server received, as they came.
type Wire struct {
	mu     sync.Mutex
	params map[string][]string
	notes  chan string
}

// Last returns the params of the last call of method, as sent.
func (w *Wire) Last(method string) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	list := w.params[method]
	if len(list) == 0 {
		return "<none>"
	}
	return list[len(list)-1]
}

// Notified waits for the server to have handled a notification of method.
func (w *Wire) Notified(t *testing.T, method string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-w.notes:
			if got == method {
				return
			}
		case <-timeout:
			t.Fatalf("the server never handled the %s notification", method)
		}
	}
}

// Connect serves the methods register puts on a router at one end of a
// pipe and returns a connection at the other end, for the generated client.
// notifications lists the methods whose completion Notified waits for.
func Connect(t *testing.T, register func(*rpc.Router), notifications ...string) (*rpc.Conn, *Wire) {
	t.Helper()
	w := &Wire{params: map[string][]string{}, notes: make(chan string, 16)}
	notify := map[string]bool{}
	for _, n := range notifications {
		notify[n] = true
	}
	r := rpc.NewRouter(rpc.WithMiddleware(func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			w.mu.Lock()
			p := string(req.Params)
			if p == "" {
				p = "<absent>"
			}
			w.params[req.Method] = append(w.params[req.Method], p)
			w.mu.Unlock()
			res, err := next.Handle(ctx, req)
			if notify[req.Method] {
				w.notes <- req.Method
			}
			return res, err
		})
	}))
	register(r)
	a, b := rpc.NewPipe()
	server := rpc.NewConn(a, rpc.WithHandler(r))
	client := rpc.NewConn(b)
	t.Cleanup(func() {
		client.Close()
		server.Close()
	})
	return client, w
}

// Code returns the JSON-RPC error code of err, or 0 when err is not an
// *rpc.Error.
func Code(err error) int {
	var e *rpc.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// Raw sends a call with params written out as JSON (none when empty),
// bypassing the generated client, and returns the peer's error or result.
func Raw(t *testing.T, c *rpc.Conn, method, params string) (*rpc.Error, json.RawMessage) {
	t.Helper()
	ctx := context.Background()
	var result json.RawMessage
	var p any
	if params != "" {
		p = json.RawMessage(params)
	}
	err := c.Call(ctx, method, p, &result)
	var e *rpc.Error
	if errors.As(err, &e) {
		return e, nil
	}
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	return nil, result
}
