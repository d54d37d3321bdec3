package rpc

import (
	"context"
	"errors"
	"fmt"
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

// ErrMessageTooLarge reports a message over the size limit. Transports
// return a *MessageTooLargeError, which matches it under errors.Is.
var ErrMessageTooLarge = errors.New("rpc: message too large")

// MessageTooLargeError reports a message over a transport's size limit.
type MessageTooLargeError struct {
	// Limit is the size limit in bytes.
	Limit int
}

// Error says which limit the message exceeded.
func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("rpc: message exceeds the limit of %d bytes", e.Limit)
}

// Is makes the error match ErrMessageTooLarge.
func (e *MessageTooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// ErrClosed reports a call on a closed connection.
var ErrClosed = errors.New("rpc: connection closed")
