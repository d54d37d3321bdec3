package rpc

import (
	"errors"
	"fmt"
)

// WithErrorDetail sets the error detail policy of a [Conn], [HTTPHandler]
// or [WebSocketHandler]. By default (false) a handler's failure that is not
// an *Error, a panic, or a result that cannot be encoded reaches the peer
// as a bare -32603 "internal error", and the details go to the log only.
// With true, that -32603 carries the cause in error.data, {"cause": "…"}
// (for a panic, "panic: " and the value; never a stack trace). It is meant
// for development: causes can hold paths, addresses or secrets.
func WithErrorDetail(on bool) Option { return func(o *options) { o.errorDetail = on } }

// InternalErrorWithCause returns -32603 with the cause in error.data
// ({"cause": "…"}): what the debug error detail policy sends.
func InternalErrorWithCause(cause error) *Error {
	return InternalError().WithData(map[string]string{"cause": cause.Error()})
}

// panicError is a recovered panic, as a cause.
type panicError struct{ value any }

func (p panicError) Error() string { return fmt.Sprintf("panic: %v", p.value) }

// wireErrorFor is the error sent for a handler's failure under the
// engine's detail policy.
func (e *engine) wireErrorFor(err error) *Error {
	if e.detail && !errors.As(err, new(*Error)) {
		return InternalErrorWithCause(err)
	}
	return asWireError(err)
}
