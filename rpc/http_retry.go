package rpc

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// SetRetryAfter sets the Retry-After header of an HTTP answer to wait in
// whole seconds, rounded up, and at least 1.
func SetRetryAfter(h http.Header, wait time.Duration) {
	secs := (wait + time.Second - 1) / time.Second
	h.Set("Retry-After", strconv.FormatInt(max(int64(secs), 1), 10))
}

// ResponseRetryAfter reports the wait an encoded JSON-RPC response asks
// for: the retryAfterMs of its error when that is a -32000 refusal with a
// retry hint ([RateLimited]), as [RetryAfter] reads it. A result, any
// other error and a batch report false. The transports use it to answer a
// lone refused request with HTTP 429.
func ResponseRetryAfter(msg []byte) (time.Duration, bool) {
	raw, ok := responseError(msg)
	if !ok {
		return 0, false
	}
	var e Error
	if json.Unmarshal(raw, &e) != nil {
		return 0, false
	}
	return RetryAfter(&e)
}

// responseError returns the error member of a response. The responses of
// this module put it right after the id, so that a result is told apart
// without reading it; other encodings are searched.
func responseError(msg []byte) ([]byte, bool) {
	const head, member = `{"jsonrpc":"2.0","id":`, `,"error":`
	if !bytes.HasPrefix(msg, []byte(head)) {
		return jsonscan.Member(msg, "error")
	}
	end := jsonscan.End(msg, len(head))
	if end < 0 || !bytes.HasPrefix(msg[end:], []byte(member)) {
		return nil, false
	}
	start := end + len(member)
	stop := jsonscan.End(msg, start)
	if stop < 0 {
		return nil, false
	}
	return msg[start:stop], true
}
