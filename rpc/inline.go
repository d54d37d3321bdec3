package rpc

import (
	"context"
	"time"
)

// DefaultInlineBudget is how long a call served by a connection's read
// loop may run before another goroutine takes over the reading: 1 ms.
const DefaultInlineBudget = time.Millisecond

// WithInlineBudget sets how a [Conn] serves a call that arrives while it is
// idle (no other call running) and no more input is waiting: in its read
// loop, without handing the call to a worker goroutine. That saves the
// wake-up of another thread, which is most of the fixed cost of a call
// made one at a time. Reading goes on meanwhile: if the call is still
// running after d, a fresh goroutine takes over the reading, so a
// cancellation or a response the handler waits for is read at most d
// late. 0 means [DefaultInlineBudget]; a negative d turns this off, and
// every call runs on a worker.
func WithInlineBudget(d time.Duration) Option {
	return func(o *options) {
		if d == 0 {
			d = DefaultInlineBudget
		}
		o.inlineBudget = d
	}
}

// PendingReader is implemented by transports that read ahead: InputPending
// reports whether Read would return a message without waiting. A [Conn]
// serves a call in its read loop only when none is pending, so that a burst
// of calls still runs in parallel. Transports without it are taken to have
// nothing pending.
type PendingReader interface {
	InputPending() bool
}

// inlineOK reports whether the read loop may serve the next frame itself:
// the connection is idle and no input is waiting.
func (c *Conn) inlineOK() bool {
	if c.inlineBudget <= 0 || !c.eng.idle() {
		return false
	}
	if p, ok := c.t.(PendingReader); ok && p.InputPending() {
		return false
	}
	return true
}

// serveInline serves a frame in the read loop. A timer hands the reading
// to a fresh goroutine if the frame's calls outlast the budget. It
// reports whether the calling goroutine is still the reader; false means
// another took over and the caller must stop reading.
func (c *Conn) serveInline(ctx context.Context, msg []byte) bool {
	seq := c.inlineSeq.Add(1)
	c.inlineRun.Store(seq)
	// The frame counts as a call in flight from the start: a reader that
	// takes over may meet the end of input and wait for the calls in
	// flight while this one is still being decoded.
	c.eng.active.Add(1)
	defer c.eng.active.Add(-1)
	if c.inlineTimer == nil {
		// Made stopped and then armed, so that the field is set before
		// the timer can fire (takeOver starts a reader that reads it).
		t := time.AfterFunc(time.Hour, c.takeOver)
		t.Stop()
		c.inlineTimer = t
	}
	c.inlineTimer.Reset(c.inlineBudget)
	c.eng.frame(ctx, msg, true, c.deliver, c.write)
	if c.inlineRun.CompareAndSwap(seq, 0) {
		c.inlineTimer.Stop()
		return true
	}
	return false
}

// takeOver runs when a frame served in the read loop outlasts its budget:
// a fresh goroutine goes on reading. A late timer of an earlier frame may
// take over from a later one early, which is harmless.
func (c *Conn) takeOver() {
	if run := c.inlineRun.Load(); run != 0 && c.inlineRun.CompareAndSwap(run, 0) {
		go c.readLoop()
	}
}
