package mcp

import (
	"context"
	"errors"
)

// TapTransport is a ClientTransport that shows every message between the
// client and the server to Tap, in the order it travels: a message the
// client writes before the server can get it, a message the server sends
// once the client has read it. Inspectors and recorders use it to see the
// whole conversation, both directions, as bytes on the wire.
type TapTransport struct {
	// Transport connects to the server.
	Transport ClientTransport
	// Tap sees each message; fromServer tells its sender. Calls come from
	// the goroutines that read and write, so Tap must be safe for
	// concurrent use, return promptly, and not keep msg past the call.
	Tap func(msg []byte, fromServer bool)
}

func (t *TapTransport) dial(ctx context.Context, env *linkEnv) (clientLink, error) {
	if t.Transport == nil || t.Tap == nil {
		return nil, errors.New("mcp: TapTransport needs a Transport and a Tap")
	}
	l, err := t.Transport.dial(ctx, env)
	if err != nil {
		return nil, err
	}
	return &tapLink{clientLink: l, tap: t.Tap}, nil
}

// tapLink passes its link's messages to a tap.
type tapLink struct {
	clientLink
	tap func(msg []byte, fromServer bool)
}

func (l *tapLink) Read(ctx context.Context) ([]byte, error) {
	msg, err := l.clientLink.Read(ctx)
	if err == nil {
		l.tap(msg, true)
	}
	return msg, err
}

// Write shows msg before sending it: over HTTP the answer may be read
// before Write returns.
func (l *tapLink) Write(ctx context.Context, msg []byte) error {
	l.tap(msg, false)
	return l.clientLink.Write(ctx, msg)
}
