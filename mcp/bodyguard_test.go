package mcp

import (
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// deadlineRecorder is a ResponseWriter whose read deadlines are recorded.
type deadlineRecorder struct {
	*httptest.ResponseRecorder
	mu  sync.Mutex
	set []time.Time
}

func (d *deadlineRecorder) SetReadDeadline(t time.Time) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.set = append(d.set, t)
	return nil
}

func (d *deadlineRecorder) deadlines() []time.Time {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]time.Time(nil), d.set...)
}

func TestTheBodyGuardEndsAReadPastItsBoundOnly(t *testing.T) {
	g := newBodyGuard(20 * time.Millisecond)
	slow := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	quick := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	slowRead := g.begin(slow)
	quickRead := g.begin(quick)
	g.end(quickRead, true)
	require.Eventually(t, func() bool { return len(slow.deadlines()) == 1 }, 5*time.Second, time.Millisecond)
	assert.False(t, slow.deadlines()[0].IsZero(), "the read is ended by a deadline that has passed")
	assert.Empty(t, quick.deadlines(), "a read that ended in time costs no deadline")

	// The read completed all the same: the deadline is lifted again.
	g.end(slowRead, true)
	d := slow.deadlines()
	require.Len(t, d, 2)
	assert.True(t, d[1].IsZero())
	require.Eventually(t, func() bool {
		g.mu.Lock()
		defer g.mu.Unlock()
		return !g.running
	}, 5*time.Second, time.Millisecond, "the watcher stops with nothing to watch")
}

func TestTheBodyGuardKeepsTheDeadlineOfAFailedRead(t *testing.T) {
	g := newBodyGuard(10 * time.Millisecond)
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	read := g.begin(w)
	require.Eventually(t, func() bool { return len(w.deadlines()) == 1 }, 5*time.Second, time.Millisecond)
	g.end(read, false)
	assert.Len(t, w.deadlines(), 1, "the server does not wait for the rest of the body")
	g.stop()
}

func TestTheBodyGuardListsEveryReadInASlotOfItsOwnAndReusesThem(t *testing.T) {
	g := newBodyGuard(time.Hour)
	defer g.stop()
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	a, b, c := g.begin(w), g.begin(w), g.begin(w)
	assert.ElementsMatch(t, []int{0, 1, 2}, []int{a, b, c}, "reads in progress at once have slots of their own")
	g.end(b, true)
	assert.Equal(t, b, g.begin(w), "a read takes the slot of one that ended")
	g.end(a, true)
	g.end(b, true)
	g.end(c, true)
	g.mu.Lock()
	assert.Zero(t, g.listed())
	g.mu.Unlock()

	// A burst past what an idle guard keeps lets its slots go once over.
	var burst []int
	for range maxIdleGuardSlots + 1 {
		burst = append(burst, g.begin(w))
	}
	for _, slot := range burst {
		g.end(slot, true)
	}
	g.mu.Lock()
	assert.Nil(t, g.reads)
	assert.Nil(t, g.free)
	g.mu.Unlock()
	assert.Empty(t, w.deadlines(), "no read outlasted the bound")
}

func TestTheBodyGuardStartsNoGoroutineForAReadShorterThanATick(t *testing.T) {
	// The guard's timer runs its sweep a tick later: a body read in time
	// (nearly every one) costs no goroutine, the first of a process
	// included.
	g := newBodyGuard(time.Hour) // a tick of a second
	defer g.stop()
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	before := runtime.NumGoroutine()
	slot := g.begin(w)
	during := runtime.NumGoroutine()
	g.end(slot, true)
	assert.LessOrEqual(t, during, before, "listing a read started a goroutine")
}

func TestStoppingAnIdleBodyGuardDisarmsItAtOnce(t *testing.T) {
	g := newBodyGuard(time.Hour)
	w := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	g.end(g.begin(w), true)
	g.stop()
	g.mu.Lock()
	assert.False(t, g.running, "an idle guard's timer is disarmed by stop, not at its next tick")
	g.mu.Unlock()
	// Armed again by the next read, and it still ends a read past the bound.
	g.limit = 0
	slow := &deadlineRecorder{ResponseRecorder: httptest.NewRecorder()}
	slot := g.begin(slow)
	g.timer.Reset(time.Millisecond)
	require.Eventually(t, func() bool { return len(slow.deadlines()) == 1 }, 5*time.Second, time.Millisecond)
	g.end(slot, false)
	g.stop()
}
