package mcp

import (
	"bytes"
	"net"
	"net/http"
	"strconv"
	"time"
)

// takenOver is what a GET stream keeps once its HTTP/1.1 connection was
// taken from net/http (see takeOver): the connection and a little state.
// No goroutine serves it while it is idle; a writer goroutine starts when
// there is something to write and ends when the queue is empty. Its fields
// are guarded by the sseConn's mu, except conn, keep and ended, which are
// set once.
type takenOver struct {
	conn      net.Conn
	keep      *keepAlives
	ended     func() // runs once, when the stream has ended
	head      []byte // the response head, written with the first chunk
	lastWrite time.Time
	writing   bool // a writer runs (or the stream has ended)
	aliveDue  bool // a keep-alive comment is due
}

// chunkEnd ends a chunked response body.
const chunkEnd = "0\r\n\r\n"

// takeOver serves a GET stream's connection c without holding a goroutine
// while the stream is idle. For an HTTP/1.1 request whose ResponseWriter
// can be hijacked, it takes the connection from net/http, writes the
// response head (chunked, with Connection: close) and what is queued, and
// returns true; the handler may return. ended runs once when the stream
// has ended: finished, killed, or a write failed. A client that goes away
// is noticed only when a write fails (a keep-alive comment at the latest),
// since nothing reads the connection.
//
// It returns false, having written nothing, when the connection cannot be
// taken over (HTTP/2, HTTP/1.0, a ResponseWriter without Hijack): the
// caller serves c itself.
func (h *StreamableHTTPHandler) takeOver(w http.ResponseWriter, r *http.Request, c *sseConn, ended func()) bool {
	if r.ProtoMajor != 1 || r.ProtoMinor < 1 {
		return false
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return false
	}
	c.mu.Lock()
	c.out = &takenOver{conn: conn, keep: h.keepAlives, ended: ended, head: sseHead(w.Header()), lastWrite: time.Now(), writing: true}
	c.mu.Unlock()
	h.keepAlives.add(c)
	c.writeOut() // in the handler's goroutine: the head and what is queued
	return true
}

// sseHead is the head of an event-stream response written on a connection
// taken over: the handler's header fields (a middleware's included), the
// event-stream ones, and the framing of our own.
func sseHead(h http.Header) []byte {
	setSSEHeader(h)
	for _, k := range []string{"Content-Length", "Transfer-Encoding", "Connection"} {
		h.Del(k)
	}
	if _, ok := h["Date"]; !ok {
		h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	}
	var b bytes.Buffer
	b.WriteString("HTTP/1.1 200 OK\r\n")
	h.Write(&b)
	b.WriteString("Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
	return b.Bytes()
}

// startWriter starts the writer of a connection taken over, unless one
// runs; c.mu is held.
func (c *sseConn) startWriter() {
	if c.out.writing {
		return
	}
	c.out.writing = true
	go c.writeOut()
}

// writeOut writes what is queued on a connection taken over, each batch
// as one chunk, until the queue is empty, and then returns. It ends the
// stream when it is finished (after the queue), killed (leaving the queue
// unwritten) or a write fails (putting the batch back at the head of the
// queue). One runs at a time (takenOver.writing).
func (c *sseConn) writeOut() {
	o := c.out
	var payload, buf bytes.Buffer
	for {
		c.mu.Lock()
		dead := c.killed()
		q, fin, alive, head := c.queue, c.finishing, o.aliveDue, o.head
		if dead {
			q = nil
		} else {
			c.queue = nil
		}
		if !dead && !fin && len(q) == 0 && !alive && head == nil {
			o.writing = false
			c.mu.Unlock()
			return
		}
		o.aliveDue, o.head = false, nil
		c.mu.Unlock()

		payload.Reset()
		for _, e := range q {
			writeSSEEvent(&payload, e)
		}
		if alive && len(q) == 0 {
			payload.Write(keepAliveComment)
		}
		buf.Reset()
		buf.Write(head)
		if payload.Len() > 0 {
			buf.Write(strconv.AppendInt(nil, int64(payload.Len()), 16))
			buf.WriteString("\r\n")
			buf.Write(payload.Bytes())
			buf.WriteString("\r\n")
		}
		if dead || fin {
			buf.WriteString(chunkEnd)
		}
		_ = o.conn.SetWriteDeadline(time.Now().Add(sseWriteTimeout))
		if _, err := o.conn.Write(buf.Bytes()); err != nil {
			c.requeue(q)
			c.endTakenOver()
			return
		}
		if dead || fin {
			c.endTakenOver()
			return
		}
		c.mu.Lock()
		o.lastWrite = time.Now()
		c.mu.Unlock()
	}
}

// endTakenOver closes a connection taken over and runs its ended, once:
// only its writer calls it, and no writer starts after it (writing stays
// set).
func (c *sseConn) endTakenOver() {
	o := c.out
	o.conn.Close()
	o.keep.remove(c)
	o.ended()
}

// aliveIfSilent asks for a keep-alive comment on a connection taken over
// that has written nothing for every, unless its writer runs.
func (c *sseConn) aliveIfSilent(now time.Time, every time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	o := c.out
	if o.writing || now.Sub(o.lastWrite) < every {
		return
	}
	o.aliveDue = true
	c.startWriter()
}
