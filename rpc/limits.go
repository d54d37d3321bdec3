package rpc

import (
	"context"
	"log/slog"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// Default limits. Each can be changed per connection or handler with the
// matching option.
const (
	// DefaultMaxMessageSize bounds one message (a stream line, an HTTP body,
	// a WebSocket frame): 4 MiB.
	DefaultMaxMessageSize = 4 << 20
	// DefaultMaxBatch bounds the number of elements in one batch.
	DefaultMaxBatch = 1000
	// DefaultMaxInFlight bounds the handlers running at once per connection.
	DefaultMaxInFlight = 64
	// DefaultMaxQueued bounds the calls waiting for a handler slot per
	// connection; past it, calls are answered with a -32000 busy error.
	DefaultMaxQueued = 1000
)

// limits are the bounds an engine enforces.
type limits struct {
	maxMessageSize int
	maxBatch       int
	maxDepth       int
	maxInFlight    int
	maxQueued      int
}

func defaultLimits() limits {
	return limits{
		maxMessageSize: DefaultMaxMessageSize,
		maxBatch:       DefaultMaxBatch,
		maxDepth:       DefaultMaxDepth,
		maxInFlight:    DefaultMaxInFlight,
		maxQueued:      DefaultMaxQueued,
	}
}

// Option configures a [Conn], an [HTTPHandler], a [WebSocketHandler] or an
// [HTTPClient]; each takes the options that apply to it and ignores the rest.
type Option func(*options)

type options struct {
	limits
	handler   Handler
	logger    *slog.Logger
	header    map[string][]string
	onAbandon func(ctx context.Context, id ID, method string)
	onCancel  func()
	grace     time.Duration // see WithShutdownGrace
	outgoing  []Middleware  // see WithOutgoing
	// errorDetail puts the cause of internal errors in error.data (see
	// WithErrorDetail).
	errorDetail bool
	base        context.Context // see WithBaseContext
	logParams   bool            // see WithLogParams
	transport   string          // the "transport" of the log lines
	// inlineBudget bounds a call served in the read loop (see
	// WithInlineBudget); <= 0 serves none there.
	inlineBudget time.Duration
	firstID      int64 // see WithFirstID
	pushed       bool  // see WithPushedInput

	allowedHosts   []string // see WithAllowedHosts
	allowedOrigins []string // see WithAllowedOrigins
	hostCheckOff   bool     // see WithoutHostCheck
}

func buildOptions(opts []Option) options {
	o := options{limits: defaultLimits(), logger: logx.Fallback(), grace: DefaultShutdownGrace, inlineBudget: DefaultInlineBudget}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithMaxMessageSize bounds one message in bytes (default 4 MiB; n < 1
// counts as 1). A larger message is refused as described in
// docs/transports.md, and the connection goes on.
func WithMaxMessageSize(n int) Option { return func(o *options) { o.maxMessageSize = positive(n) } }

// WithMaxBatch bounds the elements of one batch (default 1000; n < 1
// counts as 1). A larger batch is answered with a single -32600 error with
// id null, and none of its elements runs.
func WithMaxBatch(n int) Option { return func(o *options) { o.maxBatch = positive(n) } }

// WithMaxDepth bounds the nesting of arrays and objects in one message
// (default 1000; n < 1 counts as 1). A deeper message is answered with
// -32700 and id null.
func WithMaxDepth(n int) Option { return func(o *options) { o.maxDepth = positive(n) } }

// WithMaxInFlight bounds the request handlers running at once (default 64;
// n < 1 counts as 1); more wait for a place, up to [WithMaxQueued]. A
// place is free before its call's reply is written. Notifications do not
// wait for a place, so that a cancellation reaches a connection whose
// places are all taken; up to in-flight plus queued of them run at once,
// and past that they are dropped with a log. Within the bound, handlers
// that compute run a few per processor at a time and the other calls wait
// their turn; when handlers block (on the peer, on I/O), more workers
// start for the waiting calls within milliseconds.
func WithMaxInFlight(n int) Option { return func(o *options) { o.maxInFlight = positive(n) } }

// WithMaxQueued bounds the calls waiting for a handler slot (default 1000);
// calls past it are answered with -32000 "server busy". Zero means no queue.
func WithMaxQueued(n int) Option { return func(o *options) { o.maxQueued = max(n, 0) } }

// WithAbandonHook has a [Conn] call f with a call's id and method when
// Call returns because its context ended before the response came: the
// place to tell the peer that the call is abandoned (MCP sends
// notifications/cancelled). f runs on the caller's goroutine with the
// call's context, which has ended but still carries its values (use
// context.WithoutCancel to send with them).
func WithAbandonHook(f func(ctx context.Context, id ID, method string)) Option {
	return func(o *options) { o.onAbandon = f }
}

// WithCancelHook has a [Conn] call f each time it cancels its context,
// which the contexts of its handlers' calls derive from: when it is
// closed, when a write fails, when calls outlive a shutdown's grace
// period, and as it ends. A handler that runs calls in contexts of its own
// rather than ones derived from the connection's (which keeps a record of
// every context derived from it for as long as it lives, a cost for a
// server holding many idle connections) cancels them from f. f runs after
// the connection's context is cancelled, on the goroutine that cancelled
// it, and may run more than once, concurrently.
func WithCancelHook(f func()) Option {
	return func(o *options) { o.onCancel = f }
}

// WithHandler sets the handler that serves calls from the peer. Without one,
// a [Conn] answers every request with -32601.
func WithHandler(h Handler) Option { return func(o *options) { o.handler = h } }

func positive(n int) int { return max(n, 1) }
