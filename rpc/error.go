package rpc

import (
	"encoding/json"
	"errors"
	"fmt"
)

// The error codes JSON-RPC 2.0 reserves.
const (
	// CodeParseError: the bytes are not one valid JSON text.
	CodeParseError = -32700
	// CodeInvalidRequest: the JSON is not a valid request object.
	CodeInvalidRequest = -32600
	// CodeMethodNotFound: no such method, or it is not available.
	CodeMethodNotFound = -32601
	// CodeInvalidParams: the params do not fit the method's params schema.
	CodeInvalidParams = -32602
	// CodeInternalError: the server failed while handling a valid call.
	CodeInternalError = -32603
	// CodeServerErrorFirst is the lowest code of the implementation-defined
	// server error range.
	CodeServerErrorFirst = -32099
	// CodeServerErrorLast is the highest code of that range.
	CodeServerErrorLast = -32000
	// CodeServerBusy: the connection already runs as many calls as it may.
	CodeServerBusy = -32000
)

// Error is a JSON-RPC error object, and a Go error. A handler that returns an
// *Error (directly or wrapped) sends exactly its code, message and data to the
// peer; any other error becomes -32603 with a generic message.
//
// Two *Error values match under [errors.Is] when their codes are equal, so
// errors.Is(err, rpc.MethodNotFound("")) asks "is this a -32601?".
type Error struct {
	// Code is the kind of failure; see the Code constants.
	Code int `json:"code"`
	// Message is one short sentence about the failure.
	Message string `json:"message"`
	// Data is optional detail, any JSON value; nil when absent.
	Data json.RawMessage `json:"data,omitempty"`
}

// NewError returns an error with the given code and message. Use it for
// application errors (any code outside -32768…-32000) and for codes not
// covered by the other constructors.
func NewError(code int, message string) *Error {
	return &Error{Code: code, Message: message}
}

// Errorf returns an error with the given code and a formatted message.
func Errorf(code int, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ParseError returns a -32700 error: the bytes were not one valid JSON text.
func ParseError(reason string) *Error {
	return &Error{Code: CodeParseError, Message: "parse error: " + reason}
}

// InvalidRequest returns a -32600 error: the message is not a valid request.
func InvalidRequest(reason string) *Error {
	return &Error{Code: CodeInvalidRequest, Message: "invalid request: " + reason}
}

// MethodNotFound returns a -32601 error naming the method.
func MethodNotFound(method string) *Error {
	return &Error{Code: CodeMethodNotFound, Message: fmt.Sprintf("method not found: %q", method)}
}

// InvalidParams returns a -32602 error: the params do not fit the method.
func InvalidParams(reason string) *Error {
	return &Error{Code: CodeInvalidParams, Message: "invalid params: " + reason}
}

// InternalError returns a -32603 error with the generic message sent for
// handler failures whose details must not reach the peer.
func InternalError() *Error {
	return &Error{Code: CodeInternalError, Message: "internal error"}
}

// ServerError returns an error in the -32099…-32000 server range. A code
// outside that range is clamped to -32000, so the result is always in range.
func ServerError(code int, message string) *Error {
	if code < CodeServerErrorFirst || code > CodeServerErrorLast {
		code = CodeServerErrorLast
	}
	return &Error{Code: code, Message: message}
}

// WithData returns a copy of e whose data is v encoded as JSON. A value that
// cannot be encoded leaves data empty; use [Error.WithRawData] for bytes.
func (e *Error) WithData(v any) *Error {
	out := *e
	out.Data = nil
	if b, err := json.Marshal(v); err == nil {
		out.Data = b
	}
	return &out
}

// WithRawData returns a copy of e whose data is the given JSON, unchanged.
func (e *Error) WithRawData(data json.RawMessage) *Error {
	out := *e
	out.Data = data
	return &out
}

// Error implements the error interface: "jsonrpc error <code>: <message>".
func (e *Error) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && t.Code == e.Code
}

// asWireError turns what a handler returned into the error sent to the peer:
// an *Error anywhere in the chain is sent as it is, anything else becomes the
// generic -32603 so that no internals leak.
func asWireError(err error) *Error {
	var e *Error
	if errors.As(err, &e) && e != nil {
		if e.Code == 0 {
			// Code 0 is never sent: a code-less error is an internal error.
			out := *e
			out.Code = CodeInternalError
			return &out
		}
		return e
	}
	return InternalError()
}

// ErrNoResponse, returned (or wrapped) by a handler, leaves a request
// unanswered: no response at all is sent. It is for protocols where the
// peer gave the request up and must not get an answer (MCP's
// notifications/cancelled); a request answered this way is the caller's to
// forget.
var ErrNoResponse = errors.New("rpc: no response")
