package mcp

import (
	"bytes"
	"context"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// sessionTransport is the transport a session's connection runs on: the
// underlying one, with MCP's batch rule applied to what arrives. A JSON
// array is a batch, which only 2025-03-26 sessions accept; anywhere else it
// is answered with -32600 and never dispatched.
type sessionTransport struct {
	rpc.Transport
	ss *ServerSession
	mu sync.Mutex // writes come from the connection and from Read
}

// Read returns the next message the session may dispatch.
func (t *sessionTransport) Read(ctx context.Context) ([]byte, error) {
	_, msg, err := t.ReadContext(ctx)
	return msg, err
}

// ReadContext returns the next message the session may dispatch, with
// the context the underlying transport gave it when it is an
// rpc.ContextReader (the POST of Streamable HTTP), else none.
func (t *sessionTransport) ReadContext(ctx context.Context) (context.Context, []byte, error) {
	// Nothing is dispatched before the session knows its connection.
	t.ss.ready.Wait()
	cr, _ := t.Transport.(rpc.ContextReader)
	for {
		var mctx context.Context
		var msg []byte
		var err error
		if cr != nil {
			mctx, msg, err = cr.ReadContext(ctx)
		} else {
			msg, err = t.Transport.Read(ctx)
		}
		if err != nil {
			return nil, nil, err
		}
		if rpc.IsBatch(msg) && !t.ss.acceptsBatches() {
			if err := t.Write(ctx, batchRefusal()); err != nil {
				return nil, nil, err
			}
			continue
		}
		if !t.ss.initialized() && isInitialize(msg) {
			t.ss.initArrived()
		}
		return mctx, msg, nil
	}
}

// isInitialize reports whether a message is an initialize request.
func isInitialize(msg []byte) bool {
	if !mentionsInitialize(msg) {
		return false
	}
	e, ok := rpc.ReadEnvelope(msg)
	return ok && e.Kind() == rpc.KindRequest && jsonscan.StringIs(e.Method, "initialize")
}

// mentionsInitialize reports whether msg holds the string "initialize"
// (quotes included), as bytes.Contains would. It looks for the word's 'z',
// which messages seldom hold, where bytes.Contains stops at every quote:
// ten times faster on a stateless request, whose connection is never
// initialized and so asks this of every message.
func mentionsInitialize(msg []byte) bool {
	const word = `"initialize"`
	const z = len(`"initiali`) // the index of 'z' in word
	for i := 0; ; i++ {
		j := bytes.IndexByte(msg[i:], 'z')
		if j < 0 {
			return false
		}
		i += j
		if s := i - z; s >= 0 && s+len(word) <= len(msg) && string(msg[s:s+len(word)]) == word {
			return true
		}
	}
}

// InputPending reports whether the underlying transport has input read
// ahead (rpc.PendingReader), so that the connection knows when a call may
// be served in its read loop.
func (t *sessionTransport) InputPending() bool {
	p, ok := t.Transport.(rpc.PendingReader)
	return ok && p.InputPending()
}

// Write sends one message.
func (t *sessionTransport) Write(ctx context.Context, msg []byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.Transport.Write(ctx, msg)
}

// batchingSessionTransport is a sessionTransport over a transport that
// takes several messages at once (a stream): it passes that on. Over one
// that does not (Streamable HTTP, where a message goes depends on
// the context it is written with), the session's transport does not offer
// it either, so that each message is written with its own writer's
// context.
type batchingSessionTransport struct {
	*sessionTransport
	mw rpc.MessagesWriter
}

// WriteMessages sends several messages with one operation.
func (t batchingSessionTransport) WriteMessages(ctx context.Context, msgs [][]byte) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.mw.WriteMessages(ctx, msgs)
}

// newSessionTransport returns the transport of session ss over t.
func newSessionTransport(t rpc.Transport, ss *ServerSession) rpc.Transport {
	st := &sessionTransport{Transport: t, ss: ss}
	if mw, ok := t.(rpc.MessagesWriter); ok {
		return batchingSessionTransport{st, mw}
	}
	return st
}

// batchRefusal is the answer to a batch outside a 2025-03-26 session.
func batchRefusal() []byte {
	return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are accepted only in sessions of protocol version 2025-03-26"}}`)
}
