package rpc

import (
	"context"
	"io"
	"sync"
)

// NewPipe returns two connected in-memory transports: what one writes, the
// other reads. Closing either end ends both: reads return io.EOF once the
// messages already sent are read, writes fail with io.ErrClosedPipe.
// Useful for tests and for wiring a client to a server in one process.
func NewPipe() (Transport, Transport) {
	shared := &pipeState{done: make(chan struct{})}
	ab := make(chan []byte, 64)
	ba := make(chan []byte, 64)
	return &pipeEnd{in: ba, out: ab, s: shared}, &pipeEnd{in: ab, out: ba, s: shared}
}

type pipeState struct {
	once sync.Once
	done chan struct{}
}

type pipeEnd struct {
	in  <-chan []byte
	out chan<- []byte
	s   *pipeState
}

func (p *pipeEnd) Read(ctx context.Context) ([]byte, error) {
	select {
	case m := <-p.in:
		return m, nil
	default:
	}
	select {
	case m := <-p.in:
		return m, nil
	case <-p.s.done:
		select {
		case m := <-p.in:
			return m, nil
		default:
			return nil, io.EOF
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pipeEnd) Write(ctx context.Context, msg []byte) error {
	select {
	case <-p.s.done:
		return io.ErrClosedPipe
	default:
	}
	m := append([]byte(nil), msg...)
	select {
	case p.out <- m:
		return nil
	case <-p.s.done:
		return io.ErrClosedPipe
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pipeEnd) Close() error {
	p.s.once.Do(func() { close(p.s.done) })
	return nil
}
