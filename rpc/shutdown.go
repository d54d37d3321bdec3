package rpc

import (
	"context"
	"time"
)

// DefaultShutdownGrace is how long calls in flight may go on after the
// peer's input ends, before their contexts are cancelled: 10 seconds.
const DefaultShutdownGrace = 10 * time.Second

// WithShutdownGrace bounds how long a [Conn] lets the calls in flight run
// after the peer's input ends (stdio EOF, a closed socket) and, in [Serve],
// after its context is done. Past it their contexts are cancelled. 0 means
// [DefaultShutdownGrace]; a negative d cancels them at once.
func WithShutdownGrace(d time.Duration) Option {
	return func(o *options) {
		if d == 0 {
			d = DefaultShutdownGrace
		}
		o.grace = d
	}
}

// ShuttingDown returns the error that answers a request arriving while its
// server shuts down: code -32000 (the server range), message "server
// shutting down". The request was not run; the client may retry it
// elsewhere or later.
func ShuttingDown() *Error {
	return ServerError(CodeServerBusy, "server shutting down")
}

// Shutdown ends the connection gracefully. From the moment it is called,
// requests from the peer are answered with [ShuttingDown] and not run;
// notifications are still handled, and responses to this side's calls
// still arrive, so handlers in flight can finish what they are doing. When
// every call in flight has returned and its response has been written,
// Shutdown closes the connection and returns nil. If ctx ends first, the
// handlers' contexts are cancelled, the connection is closed at once and
// ctx's error is returned; [Conn.Done] is closed when the last handler has
// returned.
func (c *Conn) Shutdown(ctx context.Context) error {
	c.eng.draining.Store(true)
	err := c.eng.waitIdle(ctx)
	c.fail(nil)
	c.cancel()
	c.t.Close()
	c.EndInput(nil)
	return err
}

// idle reports whether no call runs or waits and no batch reply is being
// put together.
func (e *engine) idle() bool { return e.active.Load() == 0 && e.batches.Load() == 0 }

// waitIdle waits until the engine is idle or ctx ends, and returns ctx's
// error in the second case.
func (e *engine) waitIdle(ctx context.Context) error { return waitUntil(ctx, e.idle) }

// waitUntil polls done, more slowly as time goes by (1 ms up to 50 ms),
// until it holds or ctx ends, and returns ctx's error in the second case. It
// polls, as http.Server.Shutdown does: a shutdown happens once, and the
// counters it watches stay free of the bookkeeping a wake-up would need.
func waitUntil(ctx context.Context, done func() bool) error {
	const longest = 50 * time.Millisecond
	wait := time.Millisecond
	t := time.NewTimer(wait)
	defer t.Stop()
	for !done() {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, longest)
		t.Reset(wait)
	}
	return nil
}

// drainFor waits for the calls in flight for at most the grace period,
// then cancels what still runs. It is the end of a connection whose peer
// stopped sending.
func (c *Conn) drainFor(grace time.Duration) {
	if grace > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		err := c.eng.waitIdle(ctx)
		cancel()
		if err == nil {
			return
		}
		c.eng.log.Warn("jsonrpc: calls still running after the shutdown grace period; cancelling them", "grace", grace)
	}
	c.cancel()
}

// Shutdown stops the handler gracefully: requests that arrive from now on
// get 503 with Retry-After and a [ShuttingDown] error; requests in progress
// run to the end and their responses are written. It returns nil when none
// is left, or ctx's error after cancelling the contexts of those still
// running. Call it alongside http.Server.Shutdown, which stops the
// listener and the idle connections.
func (h *HTTPHandler) Shutdown(ctx context.Context) error {
	return h.gate.shutdown(ctx)
}
