package rpc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// engine turns inbound frames into calls and calls into replies. It is
// shared by every transport: a [Conn] runs it asynchronously, the HTTP
// handler synchronously.
type engine struct {
	handler Handler
	log     *slog.Logger
	lim     limits
	slots   chan struct{} // one token per running handler
	active  atomic.Int64  // running plus waiting calls, until their replies are out
	load    atomic.Int64  // running plus waiting requests, until their handlers return: the bound's count
	notes   atomic.Int64  // notification handlers running, bounded apart
	batches atomic.Int64  // batch replies being assembled
	// draining is set by a shutdown: requests are refused from then on,
	// notifications (a cancellation, say) still run.
	draining atomic.Bool
	wg       sync.WaitGroup
	detail   bool // WithErrorDetail
	// logParams adds params and excerpts to the debug lines (WithLogParams).
	logParams bool
}

func newEngine(o options) *engine {
	h := o.handler
	if h == nil {
		h = HandlerFunc(func(_ context.Context, req *Request) (any, error) {
			return nil, MethodNotFound(req.Method)
		})
	}
	if o.transport != "" {
		o.logger = logx.With(o.logger, logx.Transport, o.transport)
	}
	return &engine{
		handler: h,
		log:     o.logger,
		lim:     o.limits,
		slots:   make(chan struct{}, o.maxInFlight),
		detail:  o.errorDetail,

		logParams: o.logParams,
	}
}

// frame handles one inbound frame. Responses it holds go to deliver. Replies
// go to reply: one call per answered single message, one call with the whole
// array for a batch. With wait set, frame returns only after every call of
// the frame has finished; otherwise the calls run in the background.
func (e *engine) frame(ctx context.Context, msg []byte, wait bool, deliver func(*Response), reply func([]byte)) {
	items, batch, perr := decodeFrame(msg, e.lim.maxDepth)
	if perr != nil {
		e.unreadable(ctx, msg, perr)
		reply(EncodeError(NullID(), perr))
		return
	}
	e.serveItems(ctx, msg, items, batch, wait, deliver, reply)
}

// parsedFrame is frame for a frame ParseFrame read: its messages are served
// as read, unless the engine's nesting limit is not the one they were read
// with; then the bytes are read again under the engine's.
func (e *engine) parsedFrame(ctx context.Context, f *Frame, wait bool, deliver func(*Response), reply func([]byte)) {
	if f.depth != e.lim.maxDepth || f.raw == nil {
		e.frame(ctx, f.raw, wait, deliver, reply)
		return
	}
	e.serveItems(ctx, f.raw, f.items, f.Batch, wait, deliver, reply)
}

// serveItems serves the messages read from the frame msg, as frame says.
func (e *engine) serveItems(ctx context.Context, msg []byte, items []inbound, batch, wait bool, deliver func(*Response), reply func([]byte)) {
	if !batch {
		e.dispatch(ctx, items[0], wait, deliver, replyTo{fn: reply})
		return
	}
	if len(items) == 0 {
		perr := InvalidRequest("empty batch")
		e.unreadable(ctx, msg, perr)
		reply(EncodeError(NullID(), perr))
		return
	}
	if len(items) > e.lim.maxBatch {
		e.log.LogAttrs(ctx, slog.LevelWarn, "jsonrpc: batch refused: too many elements",
			slog.Int("elements", len(items)), slog.Int("limit", e.lim.maxBatch))
		reply(EncodeError(NullID(), InvalidRequest(fmt.Sprintf("batch of %d elements exceeds the limit of %d", len(items), e.lim.maxBatch))))
		return
	}
	e.batch(ctx, items, wait, deliver, reply)
}

// batch answers a batch element by element, in request order, leaving out
// notifications; when nothing is to be answered it replies nothing at all.
func (e *engine) batch(ctx context.Context, items []inbound, wait bool, deliver func(*Response), reply func([]byte)) {
	e.batches.Add(1) // before any call starts, so a shutdown waits for the reply
	replies := make([][]byte, len(items))
	var calls sync.WaitGroup
	calls.Add(len(items))
	for i, it := range items {
		e.dispatch(ctx, it, false, deliver, replyTo{fn: func(b []byte) {
			replies[i] = b
			calls.Done()
		}, every: true})
	}
	assemble := func() {
		calls.Wait()
		var out []byte
		for _, r := range replies {
			if r == nil {
				continue
			}
			if out == nil {
				out = append(out, '[')
			} else {
				out = append(out, ',')
			}
			out = append(out, r...)
		}
		if out != nil {
			reply(append(out, ']'))
		}
	}
	if wait {
		assemble()
		e.batches.Add(-1)
		return
	}
	e.wg.Add(1)
	pool.runNow(func() {
		defer e.wg.Done()
		defer e.batches.Add(-1)
		assemble()
	})
}

// replyTo is where the reply to one message of a frame goes: to fn, which
// gets only a reply there is, or every outcome, nil for none, when every
// is set (a batch's element, whose assembly counts them). A value, so that
// a lone message's reply is passed on without a closure to filter it.
type replyTo struct {
	fn    func([]byte)
	every bool
}

// send passes b on, unless it is nil and fn wants replies only.
func (r replyTo) send(b []byte) {
	if b != nil || r.every {
		r.fn(b)
	}
}

// dispatch handles one message of a frame: a response goes to deliver, an
// invalid message is answered at once, a call is started. done receives the
// encoded reply, or nil when there is none.
func (e *engine) dispatch(ctx context.Context, it inbound, wait bool, deliver func(*Response), done replyTo) {
	switch {
	case it.resp != nil:
		e.receivedResponse(ctx, it.resp)
		deliver(it.resp)
		done.send(nil)
	case it.dropped != nil:
		e.malformedResponse(ctx, it.id, it.dropped)
		done.send(nil)
	case it.invalid != nil:
		e.invalidRequest(ctx, it.id, it.invalid)
		done.send(EncodeError(it.id, it.invalid))
	default:
		e.start(ctx, it.req, wait, done)
	}
}

// start runs one call under the in-flight bound and passes its encoded
// reply (nil for notifications) to done. Past the queue bound, requests are
// answered at once with -32000 and notifications are dropped with a log.
// Notifications never wait for a request's place, so that a cancellation
// reaches a server whose places are all taken; they have a bound of their
// own of the same size.
func (e *engine) start(ctx context.Context, req *Request, wait bool, done replyTo) {
	e.received(ctx, req)
	note := req.IsNotification()
	if e.draining.Load() && !note {
		werr := ShuttingDown()
		e.refused(ctx, req, werr)
		done.send(EncodeError(req.ID, werr))
		return
	}
	count := &e.load
	if note {
		count = &e.notes
	}
	if count.Add(1) > int64(e.lim.maxInFlight+e.lim.maxQueued) {
		count.Add(-1)
		if note {
			e.log.LogAttrs(ctx, slog.LevelWarn, "jsonrpc: busy; notification dropped", slog.String(logx.Method, req.Method))
			done.send(nil)
			return
		}
		werr := ServerError(CodeServerBusy, "server busy: too many calls in flight")
		e.refused(ctx, req, werr)
		done.send(EncodeError(req.ID, werr))
		return
	}
	e.active.Add(1)
	if wait {
		// Run here, without a closure to carry the call to a worker.
		e.run(ctx, req, count, done)
		return
	}
	e.wg.Add(1)
	job := func() {
		defer e.wg.Done()
		e.run(ctx, req, count, done)
	}
	if note {
		// A notification may cancel a call that holds a worker.
		pool.runNow(job)
		return
	}
	pool.run(job)
}

// run runs a call that start admitted (counted in e.active and in count,
// e.load or e.notes) and passes its encoded reply to done.
func (e *engine) run(ctx context.Context, req *Request, count *atomic.Int64, done replyTo) {
	defer e.active.Add(-1)
	if req.IsNotification() {
		e.call(ctx, req)
		count.Add(-1)
		done.send(nil)
		return
	}
	if !e.takeSlot(ctx) {
		// The connection (or HTTP request) is gone: nothing can be
		// answered, and the queued call never starts.
		e.load.Add(-1)
		done.send(nil)
		return
	}
	b := e.call(ctx, req)
	// The place is free before the reply goes out: a peer that sends
	// its next call on reading this reply must not find it taken.
	<-e.slots
	e.load.Add(-1)
	done.send(b)
}

// takeSlot takes a place among the calls running, waiting for one while
// ctx lasts; false when ctx ended first. A free place is taken without
// looking at ctx.Done: that makes the channel of a context that has none
// yet (the connection's, which an idle connection need not hold).
func (e *engine) takeSlot(ctx context.Context) bool {
	select {
	case e.slots <- struct{}{}:
		return true
	default:
	}
	select {
	case e.slots <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}

// call runs the handler, recovering a panic, and encodes the reply.
func (e *engine) call(ctx context.Context, req *Request) []byte {
	res, panicked, err := e.invoke(ctx, req)
	if req.IsNotification() {
		if err != nil && !panicked {
			e.noteFailed(ctx, req, err)
		}
		return nil
	}
	if errors.Is(err, ErrNoResponse) {
		if e.debugOn(ctx) {
			e.log.LogAttrs(ctx, slog.LevelDebug, "jsonrpc: request left unanswered",
				slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()))
		}
		return nil
	}
	var werr *Error
	if err != nil {
		werr = e.wireErrorFor(err)
		switch {
		case panicked:
			// Logged with its stack by invoke.
		case errors.As(err, new(*Error)):
			e.answeredError(ctx, req, werr)
		default:
			// The peer gets the generic -32603; the details go to the log.
			e.log.LogAttrs(ctx, slog.LevelError, "jsonrpc: handler failed",
				slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()),
				slog.Int(logx.Code, werr.Code), slog.String(logx.Error, err.Error()))
		}
	}
	b, encErr := encodeResponse(req.ID, res, werr)
	if encErr != nil {
		werr = e.wireErrorFor(fmt.Errorf("encoding the result: %w", encErr))
		e.log.LogAttrs(ctx, slog.LevelError, "jsonrpc: cannot encode the result",
			slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()),
			slog.Int(logx.Code, werr.Code), slog.String(logx.Error, encErr.Error()))
		b = EncodeError(req.ID, werr)
	}
	return b
}

// invoke runs the handler. A panic is logged at error, with its stack, and
// becomes -32603; panicked reports it.
func (e *engine) invoke(ctx context.Context, req *Request) (res any, panicked bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			panicked = true
			e.log.LogAttrs(ctx, slog.LevelError, "jsonrpc: handler panicked",
				slog.String(logx.Method, req.Method), slog.String(logx.ID, req.ID.String()), slog.Int(logx.Code, CodeInternalError),
				slog.String("panic", fmt.Sprint(p)), slog.String("stack", string(debug.Stack())))
			res, err = nil, InternalError()
			if e.detail {
				err = panicError{p}
			}
		}
	}()
	res, err = e.handler.Handle(ctx, req)
	return res, false, err
}

// EncodeError renders the error response to id: pass NullID() for a
// message whose id could not be read. It never fails: an error whose data
// cannot be encoded is rendered as -32603.
func EncodeError(id ID, err *Error) []byte {
	b, encErr := encodeResponse(id, nil, err)
	if encErr != nil {
		b, _ = encodeResponse(id, nil, InternalError())
	}
	return b
}
