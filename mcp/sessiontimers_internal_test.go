package mcp

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// The handler's timer is set for the session to be checked first: a
// session scheduled sooner moves ahead, one scheduled later than it is
// already keeps its earlier time, and a session removed, or every session
// once the timers are closed, is out of the heap.
func TestSessionTimersKeepTheFirstDeadlineFirst(t *testing.T) {
	var timers sessionTimers
	defer timers.close()
	a, b, c := &httpSession{}, &httpSession{}, &httpSession{}
	in := func(d time.Duration) int64 { return monoNow() + int64(d) }
	timers.schedule(a, in(3*time.Hour))
	timers.schedule(b, in(time.Hour))
	timers.schedule(c, in(2*time.Hour))
	assert.Same(t, b, timers.queue[0])

	timers.schedule(a, in(30*time.Minute))
	assert.Same(t, a, timers.queue[0], "scheduled sooner")
	cAt := c.at
	timers.schedule(c, in(5*time.Hour))
	assert.Equal(t, cAt, c.at, "scheduled later than it was")

	timers.remove(a)
	assert.Zero(t, a.slot)
	assert.Same(t, b, timers.queue[0])
	assert.Len(t, timers.queue, 2)

	timers.close()
	assert.Zero(t, b.slot)
	assert.Zero(t, c.slot)
	timers.schedule(a, in(time.Hour))
	assert.Empty(t, timers.queue, "scheduled after close")
	timers.remove(b) // ended after close: nothing to do
}
