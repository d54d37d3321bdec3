package mcp

import "time"

// A call of a Streamable HTTP session that waits for the client's answer
// to a request of the server's (sampling, elicitation, roots) cannot go on
// without the client. When the session has had no HTTP request in
// progress (no POST, no GET stream) for orphanGraceRetries reconnection
// delays, its client is taken to be gone, and such calls are cancelled:
// what they hold is freed long before the session's idle timeout. A client
// that comes back in time (GET with Last-Event-ID, after the retry delay
// the stream announced) finds them waiting still. The handler's timer
// checks the session for it (see deadlines.go).

// orphanGraceRetries is how many reconnection delays
// (HTTPOptions.RetryInterval) a session may go without a request in
// progress before the calls waiting for its client are cancelled.
const orphanGraceRetries = 10

// orphanGrace is how long a session may go without a request in progress
// before the calls waiting for its client are cancelled.
func (h *StreamableHTTPHandler) orphanGrace() time.Duration {
	return orphanGraceRetries * h.opts.RetryInterval
}
