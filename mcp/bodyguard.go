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
// listed, and one timer, armed only while some are, looks at them every
// tick and ends the reads that have outlasted the bound by setting their
// connection's read deadline to now. (A timer rather than a goroutine
// waiting on a ticker: a POST that is over before the tick starts no
// goroutine at all, the first one of a process included.) A read thus
// ends between the bound and the bound plus one tick. A read is listed in
// a slot of a slice, whose number the reader keeps, so that listing it
// and taking it off allocate nothing and hash nothing (nearly every body
// is in the server's buffer already, and the guard is then pure
// overhead); the response controller that sets a deadline is made only
// for the rare read that outlasts the bound.
type bodyGuard struct {
	limit time.Duration
	tick  time.Duration

	mu      sync.Mutex
	reads   []guardedRead // by slot; a free slot has no w
	free    []int         // the free slots
	timer   *time.Timer   // runs sweep; made at the first read
	running bool          // the timer is armed, or sweep is running
}

// guardedRead is one body being read.
type guardedRead struct {
	w       http.ResponseWriter // answers the request: its controller sets the deadline
	since   int64               // when the read began (monoNow)
	expired bool                // the guard set the connection's read deadline
}

// newBodyGuard returns a guard for bodies that may take limit to arrive.
func newBodyGuard(limit time.Duration) *bodyGuard {
	return &bodyGuard{
		limit: limit,
		tick:  min(max(limit/10, 10*time.Millisecond), time.Second),
	}
}

// begin lists the read of a body; w answers its request. It returns the
// read's slot, which end takes.
func (g *bodyGuard) begin(w http.ResponseWriter) int {
	since := monoNow()
	g.mu.Lock()
	defer g.mu.Unlock()
	var slot int
	if n := len(g.free); n > 0 {
		slot = g.free[n-1]
		g.free = g.free[:n-1]
	} else {
		slot = len(g.reads)
		g.reads = append(g.reads, guardedRead{})
	}
	g.reads[slot] = guardedRead{w: w, since: since}
	if !g.running {
		g.running = true
		if g.timer == nil {
			g.timer = time.AfterFunc(g.tick, g.sweep)
		} else {
			g.timer.Reset(g.tick)
		}
	}
	return slot
}

// end takes the read in slot off the list. A read that completed although
// the guard had already ended it has the deadline lifted again, so the
// connection goes on working.
func (g *bodyGuard) end(slot int, ok bool) {
	g.mu.Lock()
	gr := g.reads[slot]
	g.reads[slot] = guardedRead{}
	g.free = append(g.free, slot)
	if g.listed() == 0 && len(g.reads) > maxIdleGuardSlots {
		// A burst of reads is over: its slots go.
		g.reads, g.free = nil, nil
	}
	g.mu.Unlock()
	if gr.expired && ok {
		http.NewResponseController(gr.w).SetReadDeadline(time.Time{})
	}
}

// listed returns how many reads are listed: the slots not free. g.mu is
// held.
func (g *bodyGuard) listed() int { return len(g.reads) - len(g.free) }

// maxIdleGuardSlots is how many slots the guard keeps while no body is
// being read.
const maxIdleGuardSlots = 64

// stop disarms the timer now if no body is being read (it would otherwise
// run once more at its next tick); the handler calls it when it closes.
func (g *bodyGuard) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.running && g.listed() == 0 && g.timer.Stop() {
		g.running = false
	}
}

// sweep ends the reads past the bound, and runs again a tick later while
// some read is listed.
func (g *bodyGuard) sweep() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.listed() == 0 {
		g.running = false
		return
	}
	now := monoNow()
	for i := range g.reads {
		gr := &g.reads[i]
		if gr.w != nil && !gr.expired && time.Duration(now-gr.since) >= g.limit {
			gr.expired = true
			http.NewResponseController(gr.w).SetReadDeadline(time.Now())
		}
	}
	g.timer.Reset(g.tick)
}
