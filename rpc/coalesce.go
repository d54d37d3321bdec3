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
type coalescer struct {
	t    Transport
	mw   MessagesWriter // t, when it can take several messages at once
	mu   sync.Mutex
	cond sync.Cond

	queue   [][]byte
	spare   [][]byte
	busy    bool   // a writer is writing
	queued  uint64 // messages ever queued: the next ticket
	written uint64 // messages ever handed to the transport
	err     error  // the first write failure...
	errAt   uint64 // ...and the first ticket it covers
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
	w.queue = append(w.queue, msg)
	for w.busy && w.written <= ticket {
		w.cond.Wait()
	}
	if w.written > ticket {
		return w.errFor(ticket)
	}
	// The transport is idle and our message waits: write the queue.
	w.busy = true
	first := w.written
	batch := w.queue
	w.queue, w.spare = w.spare[:0], nil
	w.mu.Unlock()
	var err error
	sent := len(batch) // how many of batch were written when err is set
	if len(batch) == 1 || w.mw == nil {
		for i, m := range batch {
			if m == nil {
				continue // its writer gave up before it was written
			}
			if err = w.t.Write(ctx, m); err != nil {
				sent = i
				break
			}
		}
	} else {
		err = w.mw.WriteMessages(ctx, withoutNil(batch))
	}
	w.mu.Lock()
	defer func() {
		w.busy = false
		w.cond.Broadcast()
	}()
	if err != nil && sent < len(batch) && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		// Only this writer's context ended, before batch[sent] was
		// written; the transport is fine. Our own message, if it was not
		// written, is dropped and we report the error; the others go back
		// to the head of the queue for the next writer, so that neither
		// they nor later writes fail for a context that was not theirs.
		own := int(ticket - first)
		rest := batch[sent:]
		if own >= sent {
			rest[own-sent] = nil
		}
		q := make([][]byte, 0, len(rest)+len(w.queue))
		w.queue = append(append(q, rest...), w.queue...)
		w.written = first + uint64(sent)
		if own >= sent {
			return err
		}
		return nil
	}
	if err != nil && w.err == nil {
		w.err, w.errAt = err, w.written
	}
	w.written += uint64(len(batch))
	clear(batch)
	w.spare = batch[:0]
	return w.errFor(ticket)
}

// withoutNil returns msgs without the nil entries of writers that gave up.
func withoutNil(msgs [][]byte) [][]byte {
	for i, m := range msgs {
		if m == nil {
			out := append([][]byte(nil), msgs[:i]...)
			for _, m := range msgs[i+1:] {
				if m != nil {
					out = append(out, m)
				}
			}
			return out
		}
	}
	return msgs
}

// errFor is the outcome of the write of ticket; w.mu is held.
func (w *coalescer) errFor(ticket uint64) error {
	if w.err != nil && ticket >= w.errAt {
		return w.err
	}
	return nil
}
