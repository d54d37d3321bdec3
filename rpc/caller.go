package rpc

import "context"

// Caller sends calls to a peer. [Conn] and [HTTPClient] implement it;
// generated clients are built on it.
type Caller interface {
	// Call sends a request and decodes its result into result (a pointer,
	// or nil to discard it). A JSON-RPC error from the peer is an *Error.
	Call(ctx context.Context, method string, params, result any) error
	// Notify sends a notification, which the peer never answers.
	Notify(ctx context.Context, method string, params any) error
}

var (
	_ Caller = (*Conn)(nil)
	_ Caller = (*HTTPClient)(nil)
)
