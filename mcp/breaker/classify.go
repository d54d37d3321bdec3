package breaker

import (
	"context"
	"errors"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// An Outcome is what a call's answer tells a circuit.
type Outcome int

const (
	// Success counts towards closing a circuit and ends a run of failures.
	Success Outcome = iota
	// Failure counts towards opening a circuit.
	Failure
	// Ignored counts neither way: the answer says nothing about the
	// method's health (a client's mistake, a cancellation).
	Ignored
)

// Classify is the default [Options].Classify. A failure is a tools/call
// result with isError true, an internal error (-32603), an error that is
// not a JSON-RPC error (the transports answer it with -32603), and a
// deadline that passed. Other JSON-RPC errors are ignored: the client's
// mistakes (parse, invalid request, unknown method, invalid params), the
// codes MCP gives answers of its own (-32002 resource not found, -32042
// and the other server-range codes), application codes, refusals with a
// retry hint (a rate limit, another circuit); so are calls cancelled by
// their client. Everything else is a success.
func Classify(req *rpc.Request, res any, err error) Outcome {
	if err == nil {
		if req.Method == "tools/call" && mcp.ToolFailed(res) {
			return Failure
		}
		return Success
	}
	var e *rpc.Error
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return Failure
	case errors.Is(err, context.Canceled), errors.Is(err, rpc.ErrNoResponse):
		return Ignored
	case errors.As(err, &e) && e.Code != rpc.CodeInternalError:
		return Ignored
	}
	return Failure
}
