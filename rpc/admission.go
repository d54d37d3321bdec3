package rpc

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
)

// admission admits the requests of an HTTP handler until it shuts down, counts
// those in progress, and cancels them when the grace period is over.
type admission struct {
	inside   *atomic.Int64
	draining *atomic.Bool
	ctx      context.Context // cancelled when a shutdown gives up waiting
	cancel   context.CancelFunc
}

func newAdmission() admission {
	ctx, cancel := context.WithCancel(context.Background())
	return admission{inside: new(atomic.Int64), draining: new(atomic.Bool), ctx: ctx, cancel: cancel}
}

// enter admits a request unless a shutdown has begun. The returned context
// ends with the request's or when the shutdown cancels what still runs;
// leave must be called when the request is done.
func (g admission) enter(parent context.Context) (context.Context, func(), bool) {
	// Counting before looking at draining means a shutdown that has set
	// draining and then sees no request inside cannot miss this one.
	g.inside.Add(1)
	if g.draining.Load() {
		g.inside.Add(-1)
		return nil, nil, false
	}
	ctx, cancel := context.WithCancel(parent)
	stop := context.AfterFunc(g.ctx, cancel)
	return ctx, func() {
		stop()
		cancel()
		g.inside.Add(-1)
	}, true
}

// shutdown refuses new requests and waits for those inside to leave, or
// for ctx to end, when it cancels them and returns ctx's error.
func (g admission) shutdown(ctx context.Context) error {
	g.draining.Store(true)
	err := waitUntil(ctx, func() bool { return g.inside.Load() == 0 })
	if err != nil {
		g.cancel()
	}
	return err
}

// refuseShuttingDown answers a request that arrived during a shutdown: 503
// with Retry-After, the connection closed, and the JSON-RPC error of
// [ShuttingDown] with id null.
func refuseShuttingDown(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", strconv.Itoa(1))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write(EncodeError(NullID(), ShuttingDown()))
}
