package mcp

import "time"

// deadlines is what a Streamable HTTP session keeps to watch the two
// deadlines of an idle period, both counted from its start
// (httpSession.idleSince): the idle timeout (HTTPOptions.SessionTimeout),
// which ends the session, and the orphan grace (see orphan.go), which
// cancels the calls waiting for a client that is gone. One timer serves
// both, fired for the earlier: a server holding many idle sessions holds
// one timer for each, not two.
//
// A request costs no timer operation of its own: the timer is made when
// the session first goes idle, and each firing looks at the session as it
// is then, acts on what is due and sets itself for what is not.
type deadlines struct {
	timer *time.Timer
	due   time.Time // when timer fires; zero while it is not set
	// orphanDue says the orphan grace of the current idle period is still
	// to be checked: set as the period starts, cleared once checked.
	orphanDue bool
}

// watchIdle starts watching the deadlines of an idle period that starts
// at s.idleSince. s.mu is held.
func (s *httpSession) watchIdle() {
	if s.h.rep == nil {
		s.orphanDue = true // shared sessions have none: the client may be at another replica
	}
	var at time.Time
	if s.orphanDue {
		at = s.idleSince.Add(s.h.orphanGrace())
	}
	if timeout := s.h.opts.SessionTimeout; timeout >= 0 {
		at = earlier(at, s.idleSince.Add(timeout))
	}
	s.fireAt(at)
}

// fireAt sets the timer to fire at at, unless it is set to fire sooner
// (it then sets itself again for what is left); a zero at leaves it as it
// is. s.mu is held.
func (s *httpSession) fireAt(at time.Time) {
	switch {
	case at.IsZero():
		return
	case s.timer == nil:
		s.timer = time.AfterFunc(time.Until(at), s.checkDeadlines)
	case s.due.IsZero() || at.Before(s.due):
		s.timer.Reset(time.Until(at))
	default:
		return
	}
	s.due = at
}

// checkDeadlines runs when a deadline of the session may have passed. The
// orphan grace is checked once in an idle period: calls waiting for the
// client are cancelled if the session has been idle for it, and a request
// in progress puts the check off to the next idle period. The idle timeout
// ends the session if it has been idle (and no task of it has been
// working) for the timeout; a busy session is looked at again a timeout
// later.
func (s *httpSession) checkDeadlines() {
	s.mu.Lock()
	s.due = time.Time{}
	if s.ended {
		s.mu.Unlock()
		return
	}
	now := time.Now()
	var next time.Time
	orphaned := false
	if s.orphanDue {
		switch grace := s.h.orphanGrace(); {
		case s.active > 0:
			s.orphanDue = false // the next idle period checks again
		case now.Sub(s.idleSince) >= grace:
			s.orphanDue, orphaned = false, true
		default:
			next = s.idleSince.Add(grace)
		}
	}
	expired := false
	if timeout := s.h.opts.SessionTimeout; timeout >= 0 {
		switch {
		case s.active > 0 || s.ss.taskRunner().working(s.ss.taskOwner()):
			// Busy: a request's (or a task's) end starts the count again.
			next = earlier(next, now.Add(timeout))
		case now.Sub(s.idleSince) >= timeout:
			expired = true
		default:
			next = earlier(next, s.idleSince.Add(timeout))
		}
	}
	if !expired {
		s.fireAt(next)
	}
	s.mu.Unlock()
	if orphaned {
		s.ss.cancelCalls(true)
	}
	if !expired {
		return
	}
	if s.h.rep != nil {
		s.h.log.Debug("mcp: shared session idle too long here; letting this copy go", "session", s.id)
		s.release()
		return
	}
	s.h.log.Debug("mcp: session idle too long; ending it", "session", s.id)
	s.ss.Close()
}

// earlier returns the earlier of a and b, a zero time counting as none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}
