package mcp

import "time"

// A call of a Streamable HTTP session that waits for the client's answer
// to a request of the server's (sampling, elicitation, roots) cannot go on
// without the client. When the session has had no HTTP request in
// progress (no POST, no GET stream) for orphanGraceRetries reconnection
// delays, its client is taken to be gone, and such calls are cancelled:
// what they hold is freed long before the session's idle timeout. A client
// that comes back in time (GET with Last-Event-ID, after the retry delay
// the stream announced) finds them waiting still.

// orphanGraceRetries is how many reconnection delays
// (HTTPOptions.RetryInterval) a session may go without a request in
// progress before the calls waiting for its client are cancelled.
const orphanGraceRetries = 10

// orphanGrace is how long a session may go without a request in progress
// before the calls waiting for its client are cancelled.
func (h *StreamableHTTPHandler) orphanGrace() time.Duration {
	return orphanGraceRetries * h.opts.RetryInterval
}

// watchOrphan arms the session's orphan timer, when it is not armed, as
// the last HTTP request of the session ends. s.mu is held.
func (s *httpSession) watchOrphan() {
	if s.orphanArmed || s.h.rep != nil {
		return // shared sessions: the client may be at another replica
	}
	s.orphanArmed = true
	if s.orphan == nil {
		s.orphan = time.AfterFunc(s.h.orphanGrace(), s.checkOrphan)
		return
	}
	s.orphan.Reset(s.h.orphanGrace())
}

// checkOrphan runs when the session may have gone without a request in
// progress for the grace: it cancels the calls waiting for the client if
// so, waits on if the session has not been idle long enough, and leaves
// the next idle period to arm it again if the session is busy.
func (s *httpSession) checkOrphan() {
	s.mu.Lock()
	s.orphanArmed = false
	if s.ended || s.active > 0 {
		s.mu.Unlock()
		return
	}
	if left := s.h.orphanGrace() - time.Since(s.idleSince); left > 0 {
		s.orphanArmed = true
		s.orphan.Reset(left)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	s.ss.cancelCalls(true)
}
