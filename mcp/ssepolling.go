package mcp

import "github.com/schemarpc/schemarpc/internal/jsonscan"

// SSE polling (2025-11-25, SEP-1699): a POST's SSE stream starts with a
// priming event (an event id, empty data, and the retry delay), so that a
// client can resume it with GET and Last-Event-ID before any message came,
// and the server may end the stream before the response (CloseSSEStream);
// the client then waits the retry delay and resumes. Earlier versions know
// neither: their clients read every event's data as a message, and expect
// the stream to stay open until the response. Their streams still carry
// event ids, which those versions allow, so a broken stream is resumed
// from the last message received.

// streamPolls reports whether a POST's stream speaks a version with SSE
// polling: the session's version, or for an initialize request the one it
// will negotiate.
func (s *httpSession) streamPolls(body []byte, init bool) bool {
	if !init {
		return featuresOf(s.ss.ProtocolVersion()).ssePolling
	}
	return featuresOf(s.ss.server.negotiate(requestedVersion(body))).ssePolling
}

// requestedVersion returns the protocolVersion an initialize request asks
// for, "" when it names none.
func requestedVersion(body []byte) string {
	params, _ := jsonscan.Member(body, "params")
	raw, _ := jsonscan.Member(params, "protocolVersion")
	v, _ := jsonscan.String(raw)
	return v
}
