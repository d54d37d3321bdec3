package mcp

import (
	"net/http"
	"net/http/httptest"
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
	slowReq, quickReq := httptest.NewRequest(http.MethodPost, "/", nil), httptest.NewRequest(http.MethodPost, "/", nil)
	g.begin(slow, slowReq)
	g.begin(quick, quickReq)
	g.end(quickReq, true)
	require.Eventually(t, func() bool { return len(slow.deadlines()) == 1 }, 5*time.Second, time.Millisecond)
	assert.False(t, slow.deadlines()[0].IsZero(), "the read is ended by a deadline that has passed")
	assert.Empty(t, quick.deadlines(), "a read that ended in time costs no deadline")

	// The read completed all the same: the deadline is lifted again.
	g.end(slowReq, true)
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
	r := httptest.NewRequest(http.MethodPost, "/", nil)
	g.begin(w, r)
	require.Eventually(t, func() bool { return len(w.deadlines()) == 1 }, 5*time.Second, time.Millisecond)
	g.end(r, false)
	assert.Len(t, w.deadlines(), 1, "the server does not wait for the rest of the body")
	g.stop()
}
