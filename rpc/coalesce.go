package rpc

import (
	"context"
	"errors"
	"sync"
)

// MessagesWriter is implemented by transports that can send several
// messages in one operation (one system call for a stream). A Conn whose
// replies are ready faster than the transport takes them hands it every
// waiting message at once.
type MessagesWriter interface {
	// WriteMessages sends msgs in order, as consecutive Writes would.
	WriteMessages(ctx context.Context, msgs [][]byte) error
}

// coalescer serialises the writes of a connection. A writer that finds
// the transport idle writes at once; writers that arrive while a write is
// under way queue their messages, and when it ends the first of them
// writes the whole queue in one go. Each write returns once its message is
// written (or failed), so a slow peer still pushes back on the writers.
//
// A transport that takes several messages at once gets them in one
// operation under the context of the writer doing the work. One that takes
// them one by one gets each with its own writer's context: for some
// transports a message's write outlives the call (the MCP HTTP client's
// POST, whose response stream belongs to that message), so another
// writer's context must not govern it.
type coalescer struct {
	t    Transport
	mw   MessagesWriter // t, when it can take several messages at once
	mu   sync.Mutex
	cond sync.Cond

	queue   []outgoingMsg
	spare   []outgoingMsg
	busy    bool   // a writer is writing
	queued  uint64 // messages ever queued: the next ticket
	written uint64 // messages ever handed to the transport
	err     error  // the first write failure...
	errAt   uint64 // ...and the first ticket it covers
	// alone holds the tickets whose write failed because their own
	// context ended, which fails nothing else; each is taken by its writer.
	alone map[uint64]error
}

// outgoingMsg is a queued message and the context of its writer.
type outgoingMsg struct {
	ctx context.Context
	msg []byte
}

func newCoalescer(t Transport) *coalescer {
	w := &coalescer{t: t}
	w.mw, _ = t.(MessagesWriter)
	w.cond.L = &w.mu
	return w
}

// write sends msg after every message queued before it.
func (w *coalescer) write(ctx context.Context, msg []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	ticket := w.queued
	w.queued++
	w.queue = append(w.queue, outgoingMsg{ctx, msg})
	for w.busy && w.written <= ticket {
		w.cond.Wait()
	}
	if w.written > ticket {
		return w.outcome(ticket)
	}
	// The transport is idle and our message waits: write the queue.
	w.busy = true
	first := w.written
	batch := w.queue
	w.queue, w.spare = w.spare[:0], nil
	w.mu.Unlock()
	defer func() {
		w.busy = false
		w.cond.Broadcast()
	}()
	if len(batch) == 1 || w.mw == nil {
		return w.writeEach(ticket, first, batch)
	}
	err := w.mw.WriteMessages(ctx, messagesOf(batch))
	w.mu.Lock()
	// A failure of one operation fails every message it carried, and
	// everything after: how much of it reached the peer is unknown.
	w.settle(batch, err, 0)
	return w.outcome(ticket)
}

// writeEach writes batch message by message, each under its own writer's
// context, and returns the outcome of ticket. A message whose context
// ended fails alone; any other failure fails it and everything after.
// w.mu is not held on entry and is held on return.
func (w *coalescer) writeEach(ticket, first uint64, batch []outgoingMsg) error {
	var err error
	var alone []uint64
	var aloneErr []error
	sent := len(batch)
	for i, m := range batch {
		werr := w.t.Write(m.ctx, m.msg)
		if werr == nil {
			continue
		}
		if m.ctx.Err() != nil && errors.Is(werr, m.ctx.Err()) {
			alone = append(alone, first+uint64(i))
			aloneErr = append(aloneErr, werr)
			continue
		}
		err, sent = werr, i
		break
	}
	w.mu.Lock()
	for i, t := range alone {
		if w.alone == nil {
			w.alone = map[uint64]error{}
		}
		w.alone[t] = aloneErr[i]
	}
	w.settle(batch, err, sent)
	return w.outcome(ticket)
}

// settle accounts for a batch handed to the transport: err, when not nil,
// failed batch[sent] and everything after it, for good. w.mu is held.
func (w *coalescer) settle(batch []outgoingMsg, err error, sent int) {
	if err != nil && w.err == nil {
		w.err, w.errAt = err, w.written+uint64(sent)
	}
	w.written += uint64(len(batch))
	clear(batch)
	w.spare = batch[:0]
}

// outcome is the result of the write of ticket, once written; w.mu is
// held.
func (w *coalescer) outcome(ticket uint64) error {
	if err, ok := w.alone[ticket]; ok {
		delete(w.alone, ticket)
		return err
	}
	return w.errFor(ticket)
}

// messagesOf returns the messages of batch.
func messagesOf(batch []outgoingMsg) [][]byte {
	out := make([][]byte, len(batch))
	for i, m := range batch {
		out[i] = m.msg
	}
	return out
}

// errFor is the outcome of the write of ticket; w.mu is held.
func (w *coalescer) errFor(ticket uint64) error {
	if w.err != nil && ticket >= w.errAt {
		return w.err
	}
	return nil
}
