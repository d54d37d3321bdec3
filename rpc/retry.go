package rpc

import (
	"encoding/json"
	"errors"
	"time"
)

// RetryData is the error.data of a refusal that names when to try again,
// such as [RateLimited].
type RetryData struct {
	// RetryAfterMs is the wait, in milliseconds, before the request may
	// succeed; at least 1.
	RetryAfterMs int64 `json:"retryAfterMs"`
	// Limit names the limit that refused the request, when there is one
	// worth telling (for example "tools/call per session").
	Limit string `json:"limit,omitempty"`
}

// RateLimited returns the error that refuses a request over a rate limit
// or quota: code -32000 (the server range, as for a busy server), message
// "rate limit exceeded", and data {"retryAfterMs": n, "limit": "…"}
// telling the client how long to wait (rounded up to a millisecond) and,
// when limit is not empty, which limit it hit. The request was not run.
// Over HTTP the transports answer it with 429 and a Retry-After header.
func RateLimited(retryAfter time.Duration, limit string) *Error {
	return RetryLater("rate limit exceeded", retryAfter, limit)
}

// RetryLater returns a refusal of a request that was not run and may
// succeed later: code -32000 with message, and data {"retryAfterMs": n,
// "limit": "…"} as [RateLimited] has it, so that [RetryAfter] and the
// HTTP transports (429 with Retry-After) treat every such refusal alike.
// A circuit breaker that fails calls fast uses it.
func RetryLater(message string, retryAfter time.Duration, limit string) *Error {
	ms := (retryAfter + time.Millisecond - 1) / time.Millisecond
	return ServerError(CodeServerBusy, message).WithData(RetryData{RetryAfterMs: max(int64(ms), 1), Limit: limit})
}

// RetryAfter reports the wait a refusal asks for: the retryAfterMs of the
// data of a -32000 *Error in err's chain. It reports false for any other
// error, so a handler's own errors never become retry hints by accident.
func RetryAfter(err error) (time.Duration, bool) {
	var e *Error
	if !errors.As(err, &e) || e == nil || e.Code != CodeServerBusy || len(e.Data) == 0 {
		return 0, false
	}
	var d RetryData
	if json.Unmarshal(e.Data, &d) != nil || d.RetryAfterMs <= 0 {
		return 0, false
	}
	return time.Duration(d.RetryAfterMs) * time.Millisecond, true
}
