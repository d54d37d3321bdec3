package mcp

// deadlines is what a Streamable HTTP session keeps to watch the two
// deadlines of an idle period, both counted from its start
// (httpSession.idleSince): the idle timeout (HTTPOptions.SessionTimeout),
// which ends the session, and the orphan grace (see orphan.go), which
// cancels the calls waiting for a client that is gone. The handler's one
// timer (sessionTimers) checks the session when the earlier may have
// passed: a server holding many idle sessions holds no timer for each.
//
// A request costs no timer operation of its own: a check is scheduled when
// the session first goes idle, and each check looks at the session as it
// is then, acts on what is due and schedules the next for what is not.
type deadlines struct {
	// due is when the session's next check is scheduled (a monoNow
	// reading); 0 while none is. Guarded by the session's mu.
	due int64
	// at and slot are the session's place in the handler's heap; guarded
	// by sessionTimers.mu.
	at   int64
	slot int
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
	var at int64
	if s.orphanDue {
		at = s.idleSince + int64(s.h.orphanGrace())
	}
	if timeout := s.h.opts.SessionTimeout; timeout >= 0 {
		at = earlier(at, s.idleSince+int64(timeout))
	}
	s.checkAt(at)
}

// checkAt schedules a check at at, unless one is scheduled sooner (it
// then schedules the next itself); 0 schedules none. s.mu is held.
func (s *httpSession) checkAt(at int64) {
	if at == 0 || (s.due != 0 && at >= s.due) {
		return
	}
	s.due = at
	s.h.timers.schedule(s, at)
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
	s.due = 0
	if s.ended {
		s.mu.Unlock()
		return
	}
	now := monoNow()
	var next int64
	orphaned := false
	if s.orphanDue {
		switch grace := int64(s.h.orphanGrace()); {
		case s.active > 0:
			s.orphanDue = false // the next idle period checks again
		case now-s.idleSince >= grace:
			s.orphanDue, orphaned = false, true
		default:
			next = s.idleSince + grace
		}
	}
	expired := false
	if timeout := s.h.opts.SessionTimeout; timeout >= 0 {
		switch {
		case s.active > 0 || s.ss.taskRunner().working(s.ss.taskOwner()):
			// Busy: a request's (or a task's) end starts the count again.
			next = earlier(next, now+int64(timeout))
		case now-s.idleSince >= int64(timeout):
			expired = true
		default:
			next = earlier(next, s.idleSince+int64(timeout))
		}
	}
	if !expired {
		s.checkAt(next)
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

// earlier returns the earlier of two monoNow readings, 0 counting as none.
func earlier(a, b int64) int64 {
	if a == 0 || (b != 0 && b < a) {
		return b
	}
	return a
}
