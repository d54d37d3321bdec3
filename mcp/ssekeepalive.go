package mcp

import (
	"sync"
	"time"
)

// keepAlives sends the keep-alive comments of a handler's GET streams
// taken over (see takeOver), with one ticker for all of them rather than
// a timer per stream. The ticker runs only while a stream is open; it
// ticks every quarter of the interval, so a stream gets its comment after
// one to one and a quarter intervals of silence. The zero interval (or a
// negative one) sends none.
type keepAlives struct {
	every time.Duration

	mu    sync.Mutex
	conns map[*sseConn]struct{}
	stop  chan struct{} // closed to stop the ticker; nil while none runs
}

// add starts sending keep-alive comments on c.
func (k *keepAlives) add(c *sseConn) {
	if k.every <= 0 {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.conns == nil {
		k.conns = map[*sseConn]struct{}{}
	}
	k.conns[c] = struct{}{}
	if k.stop == nil {
		k.stop = make(chan struct{})
		go k.tick(k.stop)
	}
}

// remove stops sending keep-alive comments on c; the ticker stops with
// the last stream.
func (k *keepAlives) remove(c *sseConn) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.conns, c)
	if len(k.conns) == 0 && k.stop != nil {
		close(k.stop)
		k.stop = nil
	}
}

// tick asks every silent stream for a comment, until stop is closed.
func (k *keepAlives) tick(stop chan struct{}) {
	t := time.NewTicker(max(k.every/4, time.Millisecond))
	defer t.Stop()
	var conns []*sseConn
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		k.mu.Lock()
		conns = conns[:0]
		for c := range k.conns {
			conns = append(conns, c)
		}
		k.mu.Unlock()
		now := time.Now()
		for _, c := range conns {
			c.aliveIfSilent(now, k.every)
		}
		clear(conns)
	}
}
