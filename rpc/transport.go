package rpc

import (
	"context"
	"errors"
)

// Transport moves whole messages. A [Conn] reads from one goroutine and
// writes from one goroutine at a time, so implementations need no locking
// of their own for that.
type Transport interface {
	// Read returns the next message. At the end of the input it returns
	// io.EOF. A message over the size limit is reported as an error
	// matching ErrMessageTooLarge, after which reading may go on.
	Read(ctx context.Context) ([]byte, error)
	// Write sends one message.
	Write(ctx context.Context, msg []byte) error
	// Close releases the transport; a blocked Read returns.
	Close() error
}

// ErrMessageTooLarge reports a message over the size limit.
var ErrMessageTooLarge = errors.New("rpc: message too large")

// ErrClosed reports a call on a closed connection.
var ErrClosed = errors.New("rpc: connection closed")
