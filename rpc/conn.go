package rpc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/internal/stackroom"
)

// Conn is a JSON-RPC connection that works in both directions: it serves
// the peer's calls with its handler and lets this side call the peer.
// Responses are matched to calls by id. A Conn starts working as soon as it
// is made and is safe for concurrent use.
type Conn struct {
	t         Transport
	eng       *engine
	ctx       context.Context
	cancelCtx context.CancelFunc
	onCancel  func() // WithCancelHook

	// out is what every write goes through, in order: made on first use,
	// so that a connection whose replies go elsewhere (a session over
	// HTTP, pushed frames with a reply function) and that sends nothing
	// holds none (see writer).
	out atomic.Pointer[coalescer]

	mu      sync.Mutex
	pending map[ID]chan *Response     // nil while no call awaits an answer
	sends   map[*outstanding]struct{} // calls and batches awaiting answers; nil while none
	closed  bool
	shut    atomic.Bool // closed, readable without mu
	err     error
	nextID  atomic.Int64

	readDone   atomic.Bool   // the peer's input ended: no answer can come
	ended      bool          // the connection is done; guarded by mu
	done       chan struct{} // closed once ended; made by the first Done (an idle connection holds none); guarded by mu
	pushed     bool          // WithPushedInput: no read loop
	inputEnded atomic.Bool   // pushed: EndInput ran
	onDone     []func()      // run once done is closed; guarded by mu

	onAbandon func(ctx context.Context, id ID, method string)
	grace     time.Duration
	outgoing  Handler // the WithOutgoing chain, nil without one

	// Serving calls in the read loop (see WithInlineBudget): the budget,
	// the timer that hands the reading over, and the frame being served
	// (a sequence number; 0 when none is, or once it was taken over).
	inlineBudget time.Duration
	inlineTimer  *time.Timer // made on first use: a connection without a read loop never uses it
	inlineSeq    atomic.Uint64
	inlineRun    atomic.Uint64
}

type connKey struct{}

// ConnFromContext returns the connection a handler's call arrived on, so the
// handler can call the peer back; nil outside a Conn's handler.
func ConnFromContext(ctx context.Context) *Conn {
	c, _ := ctx.Value(connKey{}).(*Conn)
	return c
}

// NewConn starts a connection over t. Use [WithHandler] to serve the peer's
// calls; the limit options bound what the peer may send.
func NewConn(t Transport, opts ...Option) *Conn {
	o := buildOptions(opts)
	withTransportName(transportName(t))(&o)
	c := &Conn{
		t:         t,
		eng:       newEngine(o),
		onAbandon: o.onAbandon,
		onCancel:  o.onCancel,
		grace:     o.grace,
		pushed:    o.pushed,

		inlineBudget: o.inlineBudget,
	}
	c.nextID.Store(o.firstID)
	c.outgoing = c.sender(o.outgoing)
	base := context.Background()
	if o.base != nil {
		base = context.WithoutCancel(o.base)
	}
	c.ctx, c.cancelCtx = context.WithCancel(context.WithValue(base, connKey{}, c))
	if !c.pushed {
		go c.readLoop()
	}
	return c
}

// Serve runs a connection over t with handler h until the peer closes the
// input or ctx is done; either way the calls in flight get the grace period
// of [WithShutdownGrace] (10 seconds by default) to finish and have their
// responses written, as in [Conn.Shutdown]. It returns nil at a clean end of
// input, ctx's error after ctx is done.
func Serve(ctx context.Context, t Transport, h Handler, opts ...Option) error {
	c := NewConn(t, append(opts, WithHandler(h))...)
	select {
	case <-ctx.Done():
		c.shutdownFor(c.grace)
		return ctx.Err()
	case <-c.Done():
		return c.Err()
	}
}

// shutdownFor runs Shutdown with the grace period as its deadline.
func (c *Conn) shutdownFor(grace time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), max(grace, 0))
	defer cancel()
	c.Shutdown(ctx)
}

func (c *Conn) readLoop() {
	stackroom.Reserve()
	var err error
	cr, _ := c.t.(ContextReader)
	for {
		var msg []byte
		var mctx context.Context
		if cr != nil {
			mctx, msg, err = cr.ReadContext(c.ctx)
		} else {
			msg, err = c.t.Read(c.ctx)
		}
		if c.isClosed() {
			// Shut down or closed while reading: what came in is not served.
			break
		}
		if err != nil {
			if tooLarge := (*MessageTooLargeError)(nil); errors.As(err, &tooLarge) {
				c.eng.log.LogAttrs(c.ctx, slog.LevelWarn, "jsonrpc: message too large; skipped", slog.Int("limit", tooLarge.Limit))
				c.write(EncodeError(NullID(), InvalidRequest(fmt.Sprintf("message exceeds the limit of %d bytes", tooLarge.Limit))))
				continue
			}
			break
		}
		ctx := withMessageValues(c.ctx, mctx)
		if c.inlineOK() {
			if !c.serveInline(ctx, msg) {
				return // another goroutine reads from now on
			}
			continue
		}
		c.eng.frame(ctx, msg, false, c.deliver, c.write)
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	c.endOfInput(err)
}

// endOfInput ends the connection once the peer sends nothing more: calls
// waiting for its responses fail now, the peer's own calls in flight still
// get their answers (and may still send notifications before them), then
// everything is released and Done is closed.
func (c *Conn) endOfInput(err error) {
	c.readDone.Store(true)
	c.fail(err)
	c.drainFor(c.grace)
	c.eng.wg.Wait()
	c.cancel()
	c.t.Close()
	c.mu.Lock()
	c.ended = true
	if c.done != nil {
		close(c.done)
	}
	hooks := c.onDone
	c.onDone = nil
	c.mu.Unlock()
	for _, f := range hooks {
		f()
	}
}

// cancel cancels the connection's context, and so its handlers' calls,
// then tells the WithCancelHook.
func (c *Conn) cancel() {
	c.cancelCtx()
	if c.onCancel != nil {
		c.onCancel()
	}
}

// isClosed reports whether the connection was closed or shut down.
func (c *Conn) isClosed() bool { return c.shut.Load() }

// fail ends every pending call and refuses new ones.
func (c *Conn) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.closed = true
	c.shut.Store(true)
	if err != nil && c.err == nil {
		c.err = err
	}
	for id, ch := range c.pending {
		close(ch)
		delete(c.pending, id)
	}
}

func (c *Conn) write(b []byte) {
	if err := c.writer().write(c.ctx, b); err != nil {
		c.eng.log.LogAttrs(c.ctx, slog.LevelWarn, "jsonrpc: write failed; closing the connection", slog.String(logx.Error, err.Error()))
		c.cancel()
		c.t.Close()
	}
}

// writer returns the connection's coalescer, made on first use.
func (c *Conn) writer() *coalescer {
	if w := c.out.Load(); w != nil {
		return w
	}
	w := newCoalescer(c.t)
	if c.out.CompareAndSwap(nil, w) {
		return w
	}
	return c.out.Load()
}

func (c *Conn) deliver(r *Response) {
	c.mu.Lock()
	if r.ID.IsNull() && r.Error != nil {
		// The peer could not read a message of ours (too large, say) and
		// answered it with id null. With one call or batch outstanding
		// that answer is unambiguously its; with more it is only logged.
		if len(c.sends) == 1 {
			for o := range c.sends {
				for _, id := range o.ids {
					if ch, ok := c.pending[id]; ok {
						delete(c.pending, id)
						ch <- &Response{ID: id, Error: r.Error}
					}
				}
			}
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		c.eng.log.LogAttrs(c.ctx, slog.LevelWarn, "jsonrpc: the peer could not read a message of ours",
			slog.Int(logx.Code, r.Error.Code), slog.String(logx.Error, r.Error.Message))
		return
	}
	ch, ok := c.pending[r.ID]
	delete(c.pending, r.ID)
	c.mu.Unlock()
	if !ok {
		c.eng.log.LogAttrs(c.ctx, slog.LevelWarn, "jsonrpc: response to an unknown id dropped", slog.String(logx.ID, r.ID.String()))
		return
	}
	ch <- r
}

// Close closes the connection at once: handlers' contexts are cancelled,
// pending calls fail with ErrClosed. It does not wait for handlers; see Wait.
func (c *Conn) Close() error {
	c.fail(nil)
	c.cancel()
	err := c.t.Close()
	c.EndInput(nil)
	return err
}

// Done is closed when the connection has ended and every handler returned.
func (c *Conn) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		if c.ended {
			close(c.done)
		}
	}
	return c.done
}

// OnDone arranges for f to run once the connection is done (Done is
// closed), on the goroutine that ended it; at once, on the caller's, if it
// is done already. It costs no goroutine while the connection lives, which
// matters for servers holding many idle connections.
func (c *Conn) OnDone(f func()) {
	c.mu.Lock()
	if c.ended {
		c.mu.Unlock()
		f()
		return
	}
	c.onDone = append(c.onDone, f)
	c.mu.Unlock()
}

// Wait blocks until the connection ends and returns why (nil at a clean
// end of input or after Close).
func (c *Conn) Wait() error {
	<-c.Done()
	return c.Err()
}

// Err returns the error that ended the connection, if any.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Call sends a request and waits for its response. On success the result is
// decoded into result (a pointer; nil discards it). A JSON-RPC error from
// the peer is returned as an *Error. When ctx ends first, Call returns its
// error and a late response is ignored; a call whose ctx has already ended
// is not sent.
func (c *Conn) Call(ctx context.Context, method string, params, result any) error {
	if err := ctx.Err(); err != nil {
		// Not sent at all: once sent, a response that is already there
		// and the done context would race, and either could win.
		return err
	}
	id := Int64ID(c.nextID.Add(1))
	if c.outgoing != nil {
		return c.sendVia(ctx, id, method, params, result)
	}
	return c.call(ctx, id, method, params, result)
}

// call sends one request and waits for its response.
func (c *Conn) call(ctx context.Context, id ID, method string, params, result any) error {
	msg, err := encodeRequest(id, method, params)
	if err != nil {
		return err
	}
	o, chans, err := c.expect([]ID{id})
	if err != nil {
		return err
	}
	defer c.finish(o)
	if err := c.send(ctx, msg); err != nil {
		return err
	}
	select {
	case r, ok := <-chans[0]:
		if !ok {
			return c.closedErr()
		}
		return r.decode(result)
	case <-ctx.Done():
		if c.onAbandon != nil {
			c.onAbandon(ctx, id, method)
		}
		return ctx.Err()
	}
}

// Fail ends the call waiting for the response to id with err, as if err
// had come back from the peer; a response arriving later is ignored. It
// reports whether a call was waiting. Transports that learn only after
// Write returned that a request cannot be answered (an HTTP status, a
// stream that broke) use it.
func (c *Conn) Fail(id ID, err error) bool {
	c.mu.Lock()
	ch, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if ok {
		ch <- &Response{ID: id, err: err}
	}
	return ok
}

// Notify sends a notification; the peer never answers it.
func (c *Conn) Notify(ctx context.Context, method string, params any) error {
	if c.outgoing != nil {
		return c.sendVia(ctx, ID{}, method, params, nil)
	}
	return c.notify(ctx, method, params)
}

// notify sends one notification. It needs no answer, so unlike a call it
// still goes out after the peer's input ended, while the calls in flight
// finish and their responses are written (progress and log messages come
// before them); it fails once the connection is closed.
func (c *Conn) notify(ctx context.Context, method string, params any) error {
	msg, err := encodeRequest(ID{}, method, params)
	if err != nil {
		return err
	}
	if c.ctx.Err() != nil {
		return c.closedErr()
	}
	if err := c.writer().write(ctx, msg); err != nil {
		return fmt.Errorf("rpc: write: %w", err)
	}
	return nil
}

// Batch sends the calls as one batch and waits for every response. Each
// call's outcome is stored in its Err and Result. The returned error is
// for the batch as a whole (encoding, transport, context). When the peer
// refuses the whole batch with one error, every request gets that error.
func (c *Conn) Batch(ctx context.Context, calls []*BatchCall) error {
	if len(calls) == 0 {
		return errors.New("rpc: empty batch")
	}
	msg, ids, err := encodeBatch(calls, func() ID { return Int64ID(c.nextID.Add(1)) })
	if err != nil {
		return err
	}
	var reqIDs []ID
	var reqCalls []*BatchCall
	for i, id := range ids {
		if !id.IsZero() {
			reqIDs = append(reqIDs, id)
			reqCalls = append(reqCalls, calls[i])
		}
	}
	o, chans, err := c.expect(reqIDs)
	if err != nil {
		return err
	}
	defer c.finish(o)
	if err := c.send(ctx, msg); err != nil {
		return err
	}
	for i, ch := range chans {
		select {
		case r, ok := <-ch:
			if !ok {
				reqCalls[i].Err = c.closedErr()
				continue
			}
			reqCalls[i].Err = r.decode(reqCalls[i].Result)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// outstanding is one call or batch awaiting its responses.
type outstanding struct{ ids []ID }

// expect registers ids as awaiting responses.
func (c *Conn) expect(ids []ID) (*outstanding, []chan *Response, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, nil, c.closedErrLocked()
	}
	chans := make([]chan *Response, len(ids))
	if c.pending == nil && len(ids) > 0 {
		c.pending = make(map[ID]chan *Response, len(ids))
		c.sends = map[*outstanding]struct{}{}
	}
	for i, id := range ids {
		chans[i] = make(chan *Response, 1)
		c.pending[id] = chans[i]
	}
	o := &outstanding{ids: ids}
	if len(ids) > 0 {
		c.sends[o] = struct{}{}
	}
	return o, chans, nil
}

// finish forgets o's ids: responses still to come are ignored.
func (c *Conn) finish(o *outstanding) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range o.ids {
		delete(c.pending, id)
	}
	delete(c.sends, o)
}

// send writes a request or a batch: once the peer's input has ended no
// answer can come, and it fails.
func (c *Conn) send(ctx context.Context, msg []byte) error {
	if c.readDone.Load() {
		return c.closedErr()
	}
	if err := c.writer().write(ctx, msg); err != nil {
		return fmt.Errorf("rpc: write: %w", err)
	}
	return nil
}

func (c *Conn) closedErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closedErrLocked()
}

func (c *Conn) closedErrLocked() error {
	if c.err != nil {
		return fmt.Errorf("%w: %v", ErrClosed, c.err)
	}
	return ErrClosed
}

// decode turns a response into the caller's result or error.
func (r *Response) decode(result any) error {
	if r.err != nil {
		return r.err
	}
	if r.Error != nil {
		return r.Error
	}
	if result == nil {
		return nil
	}
	if err := DecodeJSON(r.Result, result); err != nil {
		return fmt.Errorf("rpc: decoding the result: %w", err)
	}
	return nil
}
