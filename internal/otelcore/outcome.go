package otelcore

import (
	"context"
	"errors"
	"strconv"

	"github.com/schemarpc/schemarpc/rpc"
)

// Outcome is how a request ended, as spans and metrics record it.
type Outcome struct {
	// Code is the JSON-RPC error code as a string, "" when the peer got
	// (or sent) no error object.
	Code string
	// ErrorType is the error.type attribute, "" on success.
	ErrorType string
	// Message describes the failure for the span status.
	Message string
}

// Failed reports whether the outcome is a failure.
func (o Outcome) Failed() bool { return o.ErrorType != "" }

// ErrorOutcome classifies err. A *rpc.Error is its code; a request given
// up (rpc.ErrNoResponse, a cancelled context) is "cancelled", a deadline
// "timeout". Any other error is, on the server side (the peer is answered
// -32603), "-32603", and on the sending side "_OTHER".
func ErrorOutcome(err error, server bool) Outcome {
	if err == nil {
		return Outcome{}
	}
	var rerr *rpc.Error
	switch {
	case errors.As(err, &rerr):
		c := strconv.Itoa(rerr.Code)
		return Outcome{Code: c, ErrorType: c, Message: rerr.Message}
	case errors.Is(err, rpc.ErrNoResponse), errors.Is(err, context.Canceled):
		return Outcome{ErrorType: "cancelled", Message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return Outcome{ErrorType: "timeout", Message: err.Error()}
	case server:
		c := strconv.Itoa(rpc.CodeInternalError)
		return Outcome{Code: c, ErrorType: c, Message: err.Error()}
	}
	return Outcome{ErrorType: OtherValue, Message: err.Error()}
}
