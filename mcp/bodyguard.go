package mcp

import (
	"net/http"
	"sync"
	"time"
)

// bodyGuard bounds the reading of POST bodies (HTTPOptions.BodyTimeout)
// without a timer per request: setting a read deadline on every POST (and
// lifting it after) costs two updates of the runtime's network poller,
// each of which may wake a thread. Instead the bodies being read are
// listed, and one goroutine, running only while some are, looks at them
// every tick and ends the reads that have outlasted the bound by setting
// their connection's read deadline to now. A read thus ends between the
// bound and the bound plus one tick. A read is listed by its request, as
// a value, so that listing it allocates nothing; the response controller
// that sets a deadline is made only for the rare read that outlasts the
// bound.
type bodyGuard struct {
	limit time.Duration
	tick  time.Duration

	wake chan struct{} // asks an idle watcher to exit now (stop)

	mu      sync.Mutex
	reads   map[*http.Request]guardedRead
	running bool
}

// guardedRead is one body being read.
type guardedRead struct {
	w       http.ResponseWriter // answers the request: its controller sets the deadline
	since   time.Time
	expired bool // the guard set the connection's read deadline
}

// newBodyGuard returns a guard for bodies that may take limit to arrive.
func newBodyGuard(limit time.Duration) *bodyGuard {
	return &bodyGuard{
		limit: limit,
		tick:  min(max(limit/10, 10*time.Millisecond), time.Second),
		reads: map[*http.Request]guardedRead{},
		wake:  make(chan struct{}, 1),
	}
}

// begin lists the read of r's body; w answers r.
func (g *bodyGuard) begin(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reads[r] = guardedRead{w: w, since: time.Now()}
	if !g.running {
		g.running = true
		go g.watch()
	}
}

// end takes a body read off the list. A read that completed although the
// guard had already ended it has the deadline lifted again, so the
// connection goes on working.
func (g *bodyGuard) end(r *http.Request, ok bool) {
	g.mu.Lock()
	gr := g.reads[r]
	delete(g.reads, r)
	g.mu.Unlock()
	if gr.expired && ok {
		http.NewResponseController(gr.w).SetReadDeadline(time.Time{})
	}
}

// stop makes the watcher exit now if no body is being read (it would
// otherwise exit at its next tick); the handler calls it when it closes.
func (g *bodyGuard) stop() {
	select {
	case g.wake <- struct{}{}:
	default:
	}
}

// watch ends the reads past the bound, every tick, until none is left.
func (g *bodyGuard) watch() {
	t := time.NewTicker(g.tick)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-g.wake:
		}
		g.mu.Lock()
		if len(g.reads) == 0 {
			g.running = false
			g.mu.Unlock()
			return
		}
		now := time.Now()
		for r, gr := range g.reads {
			if !gr.expired && now.Sub(gr.since) >= g.limit {
				gr.expired = true
				g.reads[r] = gr
				http.NewResponseController(gr.w).SetReadDeadline(now)
			}
		}
		g.mu.Unlock()
	}
}
