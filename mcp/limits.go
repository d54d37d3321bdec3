package mcp

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// Default bounds of the MCP server and its Streamable HTTP handler. Each
// has an option (a ServerOptions, HTTPOptions or MemoryEventStoreOptions
// field) where 0 means the default; docs/mcp-http.md lists what happens at
// and past each one.
const (
	// DefaultMaxSessions bounds the handshake sessions one
	// StreamableHTTPHandler holds at once (HTTPOptions.MaxSessions).
	DefaultMaxSessions = 1000
	// DefaultMaxStatelessInFlight bounds the 2026-07-28 requests one
	// StreamableHTTPHandler serves at once, subscriptions/listen streams
	// not counted (HTTPOptions.MaxStatelessInFlight).
	DefaultMaxStatelessInFlight = 1000
	// DefaultMaxListenStreams bounds the 2026-07-28 subscriptions/listen
	// streams one StreamableHTTPHandler keeps open at once
	// (HTTPOptions.MaxListenStreams).
	DefaultMaxListenStreams = 1000
	// DefaultMaxEvents bounds the events a MemoryEventStore keeps per
	// session (MemoryEventStoreOptions.MaxEvents).
	DefaultMaxEvents = 1000
	// DefaultMaxEventBytes bounds the event data a MemoryEventStore keeps
	// per session (MemoryEventStoreOptions.MaxBytes): 16 MiB.
	DefaultMaxEventBytes = 16 << 20
)

// retryAfterBusy is the Retry-After value, in seconds, of a 503 answer to
// a request refused for want of capacity.
const retryAfterBusy = "1"

// limitOr returns n when it is positive, def when it is 0, and 0 (no
// bound) when it is negative.
func limitOr(n, def int) int {
	switch {
	case n > 0:
		return n
	case n == 0:
		return def
	}
	return 0
}

// gate counts the holders of a bounded resource; a zero limit means no
// bound.
type gate struct {
	mu    sync.Mutex
	limit int
	n     int
}

// enter takes a place, reporting false when all are taken.
func (g *gate) enter() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.limit > 0 && g.n >= g.limit {
		return false
	}
	g.n++
	return true
}

// leave gives a place back.
func (g *gate) leave() {
	g.mu.Lock()
	g.n--
	g.mu.Unlock()
}

// busyError is the -32000 error of a request refused for want of capacity:
// what ran out, and its bound.
func busyError(what string, limit int) *rpc.Error {
	return rpc.ServerError(rpc.CodeServerBusy, fmt.Sprintf("server busy: %s (limit %d)", what, limit))
}

// writeBusy answers 503 with Retry-After and a -32000 body under id.
func writeBusy(w http.ResponseWriter, id rpc.ID, err *rpc.Error) {
	w.Header().Set("Retry-After", retryAfterBusy)
	writeJSONMessage(w, http.StatusServiceUnavailable, rpc.EncodeError(id, err))
}

// initLimits sets the handler's bounds from its options.
func (h *StreamableHTTPHandler) initLimits() {
	h.opts.MaxSessions = limitOr(h.opts.MaxSessions, DefaultMaxSessions)
	h.opts.MaxStatelessInFlight = limitOr(h.opts.MaxStatelessInFlight, DefaultMaxStatelessInFlight)
	h.opts.MaxListenStreams = limitOr(h.opts.MaxListenStreams, DefaultMaxListenStreams)
	h.stateless.limit = h.opts.MaxStatelessInFlight
	h.listening.limit = h.opts.MaxListenStreams
}

// reserveSession counts a session about to be made against MaxSessions;
// newSession turns the reservation into the session. Past the bound it
// returns the -32000 error to answer with.
func (h *StreamableHTTPHandler) reserveSession() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if limit := h.opts.MaxSessions; limit > 0 && len(h.sessions)+h.starting >= limit {
		return busyError("too many sessions", limit)
	}
	h.starting++
	return nil
}

// admitStateless takes a place for a 2026-07-28 request: one of the listen
// streams for subscriptions/listen, one of the requests in flight for
// anything else. Past the bound it returns the -32000 error to answer with.
func (h *StreamableHTTPHandler) admitStateless(method string) (release func(), busy *rpc.Error) {
	g, what := &h.stateless, "too many requests in flight"
	if method == methodListen {
		g, what = &h.listening, "too many subscriptions/listen streams open"
	}
	if !g.enter() {
		return nil, busyError(what, g.limit)
	}
	return g.leave, nil
}

// sessionLimits are the rpc options that bound a session's connection.
func (s *Server) sessionLimits() []rpc.Option {
	var opts []rpc.Option
	if s.opts.MaxInFlight > 0 {
		opts = append(opts, rpc.WithMaxInFlight(s.opts.MaxInFlight))
	}
	switch {
	case s.opts.MaxQueued > 0:
		opts = append(opts, rpc.WithMaxQueued(s.opts.MaxQueued))
	case s.opts.MaxQueued < 0:
		opts = append(opts, rpc.WithMaxQueued(0))
	}
	return opts
}
