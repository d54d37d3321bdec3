package rpc

import "context"

// Dispatcher serves requests that a transport of the caller's own has read
// and parsed, in the calling goroutine, through the engine every [Conn] and
// [HTTPHandler] runs: the handler's panic recovered as -32603, its error
// mapped to the one sent, the response encoded, and the same log lines. A
// transport whose answers need more than bytes on a wire (an HTTP status,
// an SSE stream that carries notifications first) uses it to answer as
// every other transport does.
//
// A Dispatcher applies no in-flight bound: the transport that admits the
// requests bounds them. Options: [WithLogger], [WithErrorDetail] and
// [WithLogParams]; the limits are ignored.
type Dispatcher struct {
	eng *engine
}

// NewDispatcher returns a Dispatcher serving h.
func NewDispatcher(h Handler, opts ...Option) *Dispatcher {
	return &Dispatcher{eng: newEngine(buildOptions(append(opts, WithHandler(h))))}
}

// Serve runs req in ctx and returns its encoded response: nil for a
// notification and for a request its handler left unanswered
// ([ErrNoResponse]).
func (d *Dispatcher) Serve(ctx context.Context, req *Request) []byte {
	d.eng.received(ctx, req)
	return d.eng.call(ctx, req)
}
