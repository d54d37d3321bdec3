package mcp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// sseEvent is one server-sent event: an id (empty when the event store
// failed to keep it), the JSON message (empty for a priming event) and,
// when non-zero, the reconnection delay to announce.
type sseEvent struct {
	id    string
	data  []byte
	retry time.Duration
}

// writeSSEEvent writes one event in the text/event-stream format. The
// message is written as data lines; a line break inside it (only possible
// in JSON whitespace) starts another data line, which the client joins back
// with a newline, leaving the JSON equivalent.
func writeSSEEvent(w io.Writer, e sseEvent) error {
	var b bytes.Buffer
	if e.id != "" {
		b.WriteString("id: ")
		b.WriteString(e.id)
		b.WriteByte('\n')
	}
	if e.retry > 0 {
		b.WriteString("retry: ")
		b.WriteString(strconv.FormatInt(e.retry.Milliseconds(), 10))
		b.WriteByte('\n')
	}
	if len(e.data) > 0 {
		b.WriteString("event: message\n")
	}
	if e.id == "" && len(e.data) == 0 {
		// Only a retry field: no event reaches the client's handlers.
		b.WriteByte('\n')
		_, err := w.Write(b.Bytes())
		return err
	}
	data := e.data
	for {
		line, rest, more := cutLine(data)
		b.WriteString("data: ")
		b.Write(line)
		b.WriteByte('\n')
		if !more {
			break
		}
		data = rest
	}
	b.WriteByte('\n')
	_, err := w.Write(b.Bytes())
	return err
}

// cutLine splits data at its first line ending (\n, \r or \r\n).
func cutLine(data []byte) (line, rest []byte, found bool) {
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return data, nil, false
	}
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		return data[:i], data[i+2:], true
	}
	return data[:i], data[i+1:], true
}

// keepAliveComment is written on an idle stream so that proxies keep it open
// and a vanished client is noticed; clients ignore comments.
var keepAliveComment = []byte(": keep-alive\n\n")

// sseWriteTimeout bounds one write to a client, so that a client that stops
// reading cannot hold a stream (and its memory) forever.
const sseWriteTimeout = 30 * time.Second

// maxQueuedEvents bounds the events waiting to be written to one client.
// Past it the connection is dropped; the events stay in the event store
// and the client gets them by resuming.
const maxQueuedEvents = 1024

// errConnReplaced ends a connection whose stream another connection took
// over, or whose session ended.
var errConnReplaced = errors.New("mcp: the stream was taken over or ended")

// sseConn is a live HTTP response delivering one stream's events. The
// session queues events on it from any goroutine; the HTTP handler's
// goroutine writes them in serve.
//
// A GET stream over HTTP/1.1 is taken over instead (see takeOver): the
// handler's goroutine returns, and a writer goroutine runs only while there
// is something to write.
type sseConn struct {
	wake chan struct{} // a token when the queue or state changed
	dead chan struct{} // closed by kill

	mu        sync.Mutex
	queue     []sseEvent
	finishing bool // end once the queue is written
	killOnce  sync.Once

	out *takenOver // the connection, once taken over; nil while a handler serves it
}

// newSSEConn returns a connection with nothing queued.
func newSSEConn() *sseConn {
	return &sseConn{wake: make(chan struct{}, 1), dead: make(chan struct{})}
}

// push queues an event. It reports false when the queue is full, and then
// queues nothing; events pushed after finish are ignored.
func (c *sseConn) push(e sseEvent) bool { return c.enqueue(e, false) }

// pushLast queues a connection's last event and finishes it, in one step:
// serve never sees the event without the end, so a stream it holds back
// (holdFor) is written whole. It reports false, queuing nothing and
// finishing nothing, when the queue is full.
func (c *sseConn) pushLast(e sseEvent) bool { return c.enqueue(e, true) }

// enqueue is push, and with last pushLast.
func (c *sseConn) enqueue(e sseEvent, last bool) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finishing {
		return true
	}
	if len(c.queue) >= maxQueuedEvents {
		return false
	}
	c.queue = append(c.queue, e)
	c.finishing = last
	c.signal()
	return true
}

// finish ends the connection after the events queued so far are written.
func (c *sseConn) finish() {
	c.mu.Lock()
	c.finishing = true
	c.signal()
	c.mu.Unlock()
}

// kill ends the connection now; what is still queued stays unwritten.
func (c *sseConn) kill() {
	c.killOnce.Do(func() {
		close(c.dead)
		c.mu.Lock()
		c.signal()
		c.mu.Unlock()
	})
}

// killed reports whether kill was called.
func (c *sseConn) killed() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

// signal wakes serve, or on a connection taken over starts its writer
// unless one runs; c.mu is held.
func (c *sseConn) signal() {
	if c.out != nil {
		c.startWriter()
		return
	}
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// unwritten takes the events serve did not write.
func (c *sseConn) unwritten() []sseEvent {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queue
	c.queue = nil
	return q
}

// serve writes queued events to w until the connection is finished (nil),
// killed, the client goes away, or a write fails. keepAlive > 0 sends a
// comment after that much silence.
//
// hold > 0 lets a POST's stream wait that long before it starts (see
// holdFor): a stream whose answers are all there by then is written in one
// piece, without flushing, so the HTTP server sends the whole response at
// once when the handler returns.
func (c *sseConn) serve(ctx context.Context, w http.ResponseWriter, keepAlive, hold time.Duration) error {
	rc := http.NewResponseController(w)
	whole := false
	if hold > 0 {
		var err error
		if whole, err = c.holdFor(ctx, hold); err != nil {
			// The stream ended (its session did, or another connection
			// took it over) before it started. It is still sent as a
			// stream: flushed before the handler returns, it goes out
			// chunked. Left as it is it would be a zero-length body, and
			// Go's HTTP client hands the connection of a zero-length
			// answer back to its pool before the caller has it: a client
			// cancelling this POST at that moment closes the connection
			// under the next request of the pool, which then fails with
			// this request's "context canceled".
			_ = rc.Flush()
			return err
		}
	}
	var tick <-chan time.Time
	if keepAlive > 0 && !whole {
		t := time.NewTicker(keepAlive)
		defer t.Stop()
		tick = t.C
	}
	if !whole {
		if err := rc.Flush(); err != nil { // the client sees the status at once
			return err
		}
	}
	for {
		c.mu.Lock()
		q, fin := c.queue, c.finishing
		c.queue = nil
		c.mu.Unlock()
		for i, e := range q {
			_ = rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
			if err := writeSSEEvent(w, e); err != nil {
				c.requeue(q[i:])
				return err
			}
		}
		// A held stream that ends with nothing in it is still flushed:
		// see the hold's error above.
		if (len(q) > 0 || fin) && (!whole || len(q) == 0) {
			if err := rc.Flush(); err != nil {
				return err
			}
		}
		if fin {
			return nil
		}
		select {
		case <-c.wake:
		case <-c.dead:
			return errConnReplaced
		case <-ctx.Done():
			return ctx.Err()
		case <-tick:
			_ = rc.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
			if _, err := w.Write(keepAliveComment); err != nil {
				return err
			}
			if err := rc.Flush(); err != nil {
				return err
			}
		}
	}
}

// requeue puts events that were not written back at the head of the queue.
func (c *sseConn) requeue(q []sseEvent) {
	c.mu.Lock()
	c.queue = append(append([]sseEvent(nil), q...), c.queue...)
	c.mu.Unlock()
}

// holdFor waits, at most d, for a POST stream to have a message to send
// (its priming event, when it has one, does not count). It reports whole
// when the stream is finished (every answer queued, its last with the end:
// pushLast): the response can then be written in one piece. It returns
// whole false as soon as a message is queued before the end (a
// notification or request a handler sends while it runs, which the client
// should get at once), or when d has passed with the calls still running.
func (c *sseConn) holdFor(ctx context.Context, d time.Duration) (whole bool, err error) {
	check := func() (done, whole bool) {
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case c.finishing:
			return true, true
		case c.hasMessage():
			return true, false
		}
		return false, false
	}
	if done, whole := check(); done {
		return whole, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-c.wake:
		case <-t.C:
			return false, nil
		case <-c.dead:
			return false, errConnReplaced
		case <-ctx.Done():
			return false, ctx.Err()
		}
		if done, whole := check(); done {
			return whole, nil
		}
	}
}

// hasMessage reports whether a message (not only a priming event or a
// retry field) is queued; c.mu is held.
func (c *sseConn) hasMessage() bool {
	for _, e := range c.queue {
		if len(e.data) > 0 {
			return true
		}
	}
	return false
}

// startSSE writes the header of an event-stream response.
func startSSE(w http.ResponseWriter) {
	setSSEHeader(w.Header())
	w.WriteHeader(http.StatusOK)
}

// setSSEHeader sets the header fields of an event-stream response.
func setSSEHeader(h http.Header) {
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
}
