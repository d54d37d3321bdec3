package rpc

import "context"

// ServeFrame handles one frame (a message or a batch) that the connection's
// peer sent by a way other than the transport's Read, in the calling
// goroutine, exactly as if Read had returned it: responses go to the calls
// waiting for them, requests and notifications run under the connection's
// limits and shutdown rules, and their replies go out. It returns once every
// call of the frame has returned and its reply has been passed on.
//
// mctx's values reach the handlers, as those of a [ContextReader]'s message
// context do; its cancellation does not. reply receives each encoded reply:
// one call for a single message, one with the whole array for a batch, none
// when nothing is to be answered. A nil reply writes the replies to the
// transport.
//
// A connection that was closed or shut down, or whose input ended
// ([Conn.EndInput]), serves nothing and returns [ErrClosed].
func (c *Conn) ServeFrame(mctx context.Context, msg []byte, reply func([]byte)) error {
	return c.serveFrame(mctx, msg, nil, true, reply)
}

// ServeParsedFrame is [Conn.ServeFrame] for a frame [ParseFrame] read: its
// messages are served as the parser read them, not read a second time
// (unless the connection's nesting limit is not ParseFrame's). A transport
// that reads a frame to route it (an HTTP handler finding the ids of its
// requests, say) hands it over this way. f belongs to the connection from
// then on: its messages may be changed as they are served.
func (c *Conn) ServeParsedFrame(mctx context.Context, f *Frame, reply func([]byte)) error {
	return c.serveFrame(mctx, nil, f, true, reply)
}

// StartParsedFrame is [Conn.StartFrame] for a frame [ParseFrame] read, as
// [Conn.ServeParsedFrame] is ServeFrame's.
func (c *Conn) StartParsedFrame(mctx context.Context, f *Frame, reply func([]byte)) error {
	return c.serveFrame(mctx, nil, f, false, reply)
}

// StartFrame is [Conn.ServeFrame] without the wait: the frame's calls run on
// the workers (which every connection shares), as those of a frame read
// from the transport do, and StartFrame returns once they have started. reply is called from the
// goroutine that finishes the frame. A transport that receives messages in
// goroutines of its own (one per HTTP request, say) uses it to hand each
// message straight to the workers instead of through the read loop.
func (c *Conn) StartFrame(mctx context.Context, msg []byte, reply func([]byte)) error {
	return c.serveFrame(mctx, msg, nil, false, reply)
}

// WithPushedInput says that every message of the peer reaches the
// connection through [Conn.ServeFrame] or [Conn.StartFrame], never through
// the transport's Read: NewConn then starts no goroutine to read, so an
// idle connection costs none (a server holding thousands of idle HTTP
// sessions holds no goroutine for them). The input ends with
// [Conn.EndInput], or with Close or Shutdown.
func WithPushedInput() Option {
	return func(o *options) { o.pushed = true }
}

// EndInput tells a connection made [WithPushedInput] that the peer sends
// nothing more, as a failed Read tells another: frames pushed from now on
// are refused with [ErrClosed], calls waiting for the
// peer's responses fail with err (nil for a clean end), the peer's calls in
// flight get the shutdown grace period to finish, and then the connection
// ends (Done). It returns at once. On a connection that reads its
// transport it does nothing: its input ends when Read fails.
func (c *Conn) EndInput(err error) {
	if c.pushed && c.inputEnded.CompareAndSwap(false, true) {
		go c.endOfInput(err)
	}
}

// serveFrame serves the frame msg, or the parsed frame f when it is not
// nil, waiting for its calls when wait is set.
func (c *Conn) serveFrame(mctx context.Context, msg []byte, f *Frame, wait bool, reply func([]byte)) error {
	if c.isClosed() || c.inputEnded.Load() {
		return ErrClosed
	}
	if reply == nil {
		reply = c.write
	}
	// Counted as a call in flight while it is decoded and dispatched, so
	// that a shutdown meanwhile waits for its calls.
	c.eng.active.Add(1)
	defer c.eng.active.Add(-1)
	ctx := withMessageValues(c.ctx, mctx)
	if f != nil {
		c.eng.parsedFrame(ctx, f, wait, c.deliver, reply)
	} else {
		c.eng.frame(ctx, msg, wait, c.deliver, reply)
	}
	return nil
}
