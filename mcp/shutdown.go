package mcp

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/schemarpc/schemarpc/rpc"
)

// DefaultShutdownGrace is how long calls in flight may run once a shutdown
// begins or a stdio client's input ends, before they are cancelled.
const DefaultShutdownGrace = rpc.DefaultShutdownGrace

// drain is the shutdown state of a StreamableHTTPHandler.
type drain struct {
	posts    atomic.Int64 // POST requests being served
	draining atomic.Bool  // set by Shutdown: requests are refused
	calls    callSet      // 2026-07-28 calls running, cancelled past the deadline
}

// Shutdown stops the handler gracefully, in this order:
//
//  1. From now on, a POST carrying a request (of either era) and a GET get
//     503 with Retry-After and a JSON-RPC -32000 "server shutting down"
//     error; nothing is started for them. POSTs that carry only responses
//     and notifications still reach their sessions, so a handler waiting
//     for the client's answer (sampling, elicitation) can finish.
//  2. Its open subscriptions/listen streams end with their listen result,
//     the graceful end the 2026-07-28 protocol defines.
//  3. It waits until every POST in progress has been answered and every
//     session's calls in flight have returned and been written.
//  4. It ends every session (GET streams close, the event store forgets
//     them) and returns nil.
//
// If ctx ends first, the calls still running are cancelled, every session
// is closed at once, and ctx's error is returned. Shutdown does not close
// listeners or idle connections: run http.Server.Shutdown beside it, as
// [ServeListener] does.
func (h *StreamableHTTPHandler) Shutdown(ctx context.Context) error {
	h.drain.draining.Store(true)
	err := h.waitPosts(ctx)
	if err == nil {
		err = h.shutdownSessions(ctx)
	}
	if err != nil {
		h.log.Warn("mcp: calls still running when the shutdown deadline came; cancelling them", "error", err)
		h.drain.calls.cancelAll()
	}
	h.Close()
	return err
}

// shuttingDown reports whether a shutdown has begun.
func (h *StreamableHTTPHandler) shuttingDown() bool { return h.drain.draining.Load() }

// waitPosts waits until no POST is being served, ending this handler's
// listen streams on the way (one may start between two looks), or until
// ctx ends.
func (h *StreamableHTTPHandler) waitPosts(ctx context.Context) error {
	const longest = 50 * time.Millisecond
	wait := time.Millisecond
	t := time.NewTimer(wait)
	defer t.Stop()
	for {
		h.server.endListens(func(l *listener) bool {
			m, ok := l.sink.(*statelessResponse)
			return ok && m.owner == h
		})
		if h.drain.posts.Load() == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, longest)
		t.Reset(wait)
	}
}

// shutdownSessions lets every session finish the calls it runs, the ones
// whose POST went away included.
func (h *StreamableHTTPHandler) shutdownSessions(ctx context.Context) error {
	h.mu.Lock()
	all := make([]*httpSession, 0, len(h.sessions))
	for _, sess := range h.sessions {
		all = append(all, sess)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, sess := range all {
		wg.Go(func() { sess.ss.Shutdown(ctx) })
	}
	wg.Wait()
	return ctx.Err()
}

// statelessContext is the context a 2026-07-28 call runs with, answered on
// out: parent, the request's (with its charge), carrying the request
// itself (rpc.HTTPRequestFromContext), also cancelled when a shutdown
// gives up waiting (drain.calls). endStatelessContext must be called with
// out and cancel when the call is done.
func (h *StreamableHTTPHandler) statelessContext(parent context.Context, r *http.Request, out *statelessResponse) (ctx context.Context, cancel context.CancelFunc) {
	ctx, cancel = context.WithCancel(rpc.WithHTTPRequest(parent, r))
	if h.tasks != nil {
		ctx = withTaskRunner(ctx, h.tasks)
	}
	// The response's address picks the shard: calls running at once are
	// answered on responses at different addresses.
	h.drain.calls.join(&out.entry, cancel, uint(uintptr(unsafe.Pointer(out))/unsafe.Sizeof(*out)))
	return ctx, cancel
}

// endStatelessContext ends the context statelessContext made for the call
// answered on out.
func (h *StreamableHTTPHandler) endStatelessContext(out *statelessResponse, cancel context.CancelFunc) {
	h.drain.calls.leave(&out.entry)
	cancel()
}

// refuseShuttingDown answers a request that arrived during a shutdown as
// a busy server does, and closes the connection.
func refuseShuttingDown(w http.ResponseWriter, id rpc.ID) {
	w.Header().Set("Connection", "close")
	writeBusy(w, id, rpc.ShuttingDown())
}

// endListens ends, with their listen result, the open listens that match.
func (s *Server) endListens(match func(*listener) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.listens {
		if !match(l) {
			continue
		}
		select {
		case <-l.end:
		default:
			close(l.end)
		}
		delete(s.listens, l)
	}
}

// Shutdown ends the session gracefully: requests the client sends from now
// on are answered with -32000 "server shutting down", the calls in flight
// run to the end (responses to the server's own requests still arrive), and
// then the connection closes. If ctx ends first, the calls still running
// are cancelled and ctx's error is returned. See [rpc.Conn.Shutdown].
func (ss *ServerSession) Shutdown(ctx context.Context) error {
	err := ss.conn.Shutdown(ctx)
	ss.closed()
	return err
}
