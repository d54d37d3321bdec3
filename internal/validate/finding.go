package validate

import (
	"encoding/json"

	"github.com/schemarpc/schemarpc/rpc"
)

// Position says where a message was read.
type Position struct {
	// File names the input ("-" for standard input; "client" or "server"
	// in the proxy).
	File string
	// Line is the line the message starts on, counting from 1; 0 when not
	// known.
	Line int
	// Index is the message's place in its input, counting from 1.
	Index int
}

// Finding is one problem with one message.
type Finding struct {
	Position
	// Pointer is a JSON pointer to the offending value inside the message
	// as read ("" for the whole message; "/1/params/name" inside a batch).
	Pointer string
	// Code is the JSON-RPC error code a schemarpc runtime answers the
	// message with (-32700, -32600, -32601, -32602), or -32603 for a
	// result that breaks its schema.
	Code int
	// Reason says what is wrong, in one line.
	Reason string
	// Kind classifies the message: request, notification, response, batch
	// or invalid.
	Kind string
	// Method is the method concerned, when known (a response's is the
	// method of the request it answers).
	Method string
	// From is the side that sent the message, when known.
	From Direction
	// Violations are the schema violations behind the finding, at most
	// rpc.MaxViolations; nil when the finding is not a schema failure.
	Violations []rpc.Violation
}

// Direction is the side that sent a message.
type Direction int

// The senders.
const (
	// Unknown: the input does not say; it is inferred where possible.
	Unknown Direction = iota
	// FromClient: the client sent it.
	FromClient
	// FromServer: the server sent it.
	FromServer
)

// String returns "client", "server" or "unknown".
func (d Direction) String() string {
	switch d {
	case FromClient:
		return "client"
	case FromServer:
		return "server"
	}
	return "unknown"
}

// ParseDirection reads "client" or "server"; anything else is Unknown and
// false.
func ParseDirection(s string) (Direction, bool) {
	switch s {
	case "client":
		return FromClient, true
	case "server":
		return FromServer, true
	}
	return Unknown, false
}

// other returns the opposite side; Unknown stays Unknown.
func (d Direction) other() Direction {
	switch d {
	case FromClient:
		return FromServer
	case FromServer:
		return FromClient
	}
	return Unknown
}

// failure is a schema failure of a message: the runtime's error, with the
// violations its data lists decoded once, to rank it against others and to
// make a finding of it.
type failure struct {
	err       *rpc.Error
	vs        []rpc.Violation
	truncated bool
}

// newFailure decodes the violations an rpc error's data lists.
func newFailure(e *rpc.Error) failure {
	f := failure{err: e}
	if len(e.Data) == 0 {
		return f
	}
	var d rpc.ValidationData
	if json.Unmarshal(e.Data, &d) != nil || len(d.Errors) == 0 {
		return f
	}
	f.vs, f.truncated = d.Errors, d.Truncated
	return f
}
