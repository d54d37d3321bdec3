package mcp

import (
	"container/heap"
	"sync"
	"time"
)

// sessionTimers fires the deadlines of a handler's sessions (see
// deadlines.go) with one timer: sessions wait in a heap by when their
// next deadline may have passed, and the timer is set for the first. A
// server holding many idle sessions holds no timer for each.
//
// Locking: mu guards the heap and each session's place in it
// (deadlines.slot, deadlines.at); a session's own lock may be held when
// schedule or remove is called, never the other way round. The sessions
// whose time has come are taken out of the heap, and checked
// (httpSession.checkDeadlines) after mu is let go.
type sessionTimers struct {
	mu     sync.Mutex
	queue  deadlineQueue
	timer  *time.Timer // made on first use; set for queue[0]
	closed bool
}

// schedule has s checked at at (a monoNow reading), or sooner if it is
// to be checked sooner already.
func (t *sessionTimers) schedule(s *httpSession, at int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	switch {
	case s.slot == 0:
		s.at = at
		heap.Push(&t.queue, s)
	case at < s.at:
		s.at = at
		heap.Fix(&t.queue, s.slot-1)
	default:
		return
	}
	if t.queue[0] == s {
		t.setTimer()
	}
}

// remove forgets s, which ended.
func (t *sessionTimers) remove(s *httpSession) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.slot != 0 {
		heap.Remove(&t.queue, s.slot-1)
	}
}

// close stops the timer: no session is checked from now on.
func (t *sessionTimers) close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closed = true
	for _, s := range t.queue {
		s.slot = 0
	}
	t.queue = nil
	if t.timer != nil {
		t.timer.Stop()
	}
}

// setTimer sets the timer for the first session; t.mu is held.
func (t *sessionTimers) setTimer() {
	d := time.Duration(t.queue[0].at - monoNow())
	if t.timer == nil {
		t.timer = time.AfterFunc(d, t.fire)
		return
	}
	t.timer.Reset(d)
}

// fire checks the sessions whose time has come.
func (t *sessionTimers) fire() {
	t.mu.Lock()
	now := monoNow()
	var due []*httpSession
	for len(t.queue) > 0 && t.queue[0].at <= now {
		due = append(due, heap.Pop(&t.queue).(*httpSession))
	}
	if len(t.queue) > 0 && !t.closed {
		t.setTimer()
	}
	t.mu.Unlock()
	for _, s := range due {
		s.checkDeadlines()
	}
}

// deadlineQueue is a heap of sessions by deadlines.at; each session's slot
// is its index plus one, 0 while it is not in the heap.
type deadlineQueue []*httpSession

func (q deadlineQueue) Len() int           { return len(q) }
func (q deadlineQueue) Less(i, j int) bool { return q[i].at < q[j].at }
func (q deadlineQueue) Swap(i, j int) {
	q[i], q[j] = q[j], q[i]
	q[i].slot, q[j].slot = i+1, j+1
}

func (q *deadlineQueue) Push(x any) {
	s := x.(*httpSession)
	s.slot = len(*q) + 1
	*q = append(*q, s)
}

func (q *deadlineQueue) Pop() any {
	old := *q
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*q = old[:len(old)-1]
	s.slot = 0
	return s
}

// monoEpoch is what monoNow counts from.
var monoEpoch = time.Now()

// monoNow reads the monotonic clock, in nanoseconds since monoEpoch: a
// session's times in eight bytes each rather than a time.Time's 24.
func monoNow() int64 { return int64(time.Since(monoEpoch)) }
