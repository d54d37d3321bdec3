package mcp

import (
	"context"
	"errors"
	"log/slog"

	"github.com/schemarpc/schemarpc/rpc"
)

// A ClientTransport connects a [Client] to one server. The transports are
// [CommandTransport] (stdio, spawning the server), [StreamTransport] (any
// rpc.Transport, for custom byte streams and tests),
// [StreamableHTTPTransport] (Streamable HTTP of both eras, falling back to
// the 2024-11-05 HTTP+SSE transport) and [SSETransport] (HTTP+SSE only).
type ClientTransport interface {
	// dial opens a link to the server.
	dial(ctx context.Context, env *linkEnv) (clientLink, error)
}

// linkEnv is what a link gets from the client that dials it.
type linkEnv struct {
	// fail ends the call waiting for the response to id with err. A link
	// calls it when it learns after Write returned that a request will get
	// no JSON-RPC answer (an HTTP status, a stream that ended without the
	// response and cannot be resumed). The client sets it before the first
	// Write.
	fail func(id rpc.ID, err error)
	// logger receives the link's warnings; never nil.
	logger *slog.Logger
	// logParams allows a bounded excerpt of an unreadable message in the
	// logs (ClientOptions.LogParams).
	logParams bool
}

// clientLink is an open connection to a server: whole JSON-RPC messages
// both ways (rpc.Transport), plus what the client's era logic needs.
//
// Write must return promptly: a link over HTTP starts the POST and
// returns; what the server answers arrives through Read, and a request
// that can get no answer is ended through linkEnv.fail.
type clientLink interface {
	rpc.Transport
	// isHTTP reports whether the link is HTTP, where era detection reads
	// HTTP statuses and tools whose x-mcp-header annotations break the
	// rules are dropped from tools/list.
	isHTTP() bool
	// key names the server for the client's era cache: the command line
	// of a spawned server, the origin and path of an HTTP one.
	key() string
	// cancel abandons the request with id by closing its response stream
	// (a 2026-07-28 HTTP request); it reports whether it did. When it
	// did not, the client sends notifications/cancelled where the era
	// asks for it.
	cancel(id rpc.ID) bool
}

// StreamTransport connects a client over an existing message stream: any
// rpc.Transport, such as rpc.NewStreamTransport over a socket, or one end
// of rpc.NewPipe with a Server on the other (tests, in-process servers).
type StreamTransport struct {
	// Transport carries the messages; Close closes it.
	Transport rpc.Transport
	// Key names the server for the client's era cache; "" caches nothing.
	Key string
}

func (t *StreamTransport) dial(context.Context, *linkEnv) (clientLink, error) {
	if t.Transport == nil {
		return nil, errors.New("mcp: StreamTransport without a Transport")
	}
	return &streamLink{Transport: t.Transport, name: t.Key}, nil
}

// streamLink is a client link over a message stream: no HTTP, no way to
// abandon a request but notifications/cancelled.
type streamLink struct {
	rpc.Transport
	name string
}

func (l *streamLink) isHTTP() bool       { return false }
func (l *streamLink) key() string        { return l.name }
func (l *streamLink) cancel(rpc.ID) bool { return false }
