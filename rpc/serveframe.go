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
// A connection that was closed or shut down serves nothing and returns
// [ErrClosed].
func (c *Conn) ServeFrame(mctx context.Context, msg []byte, reply func([]byte)) error {
	return c.serveFrame(mctx, msg, true, reply)
}

// StartFrame is [Conn.ServeFrame] without the wait: the frame's calls run on
// the connection's workers, as those of a frame read from the transport do,
// and StartFrame returns once they have started. reply is called from the
// goroutine that finishes the frame. A transport that receives messages in
// goroutines of its own (one per HTTP request, say) uses it to hand each
// message straight to the workers instead of through the read loop.
func (c *Conn) StartFrame(mctx context.Context, msg []byte, reply func([]byte)) error {
	return c.serveFrame(mctx, msg, false, reply)
}

func (c *Conn) serveFrame(mctx context.Context, msg []byte, wait bool, reply func([]byte)) error {
	if c.isClosed() {
		return ErrClosed
	}
	if reply == nil {
		reply = c.write
	}
	// Counted as a call in flight while it is decoded and dispatched, so
	// that a shutdown meanwhile waits for its calls.
	c.eng.active.Add(1)
	defer c.eng.active.Add(-1)
	c.eng.frame(withMessageValues(c.ctx, mctx), msg, wait, c.deliver, reply)
	return nil
}
