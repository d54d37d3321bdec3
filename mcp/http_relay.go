package mcp

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"time"
)

// relayPoll is how often a relayed stream looks at the event store when no
// word comes from the replica running its call.
const relayPoll = time.Second

// streamRelay is a client's resumed stream whose call runs at another
// replica: this replica writes it what the event store has of the stream,
// as it comes, until the call's answers are all there. The replica
// running the call says when the stream has new events, and when it
// completed, while no client is connected to it there (kind event); the
// store is also looked at every relayPoll in case that word is lost.
type streamRelay struct {
	name string
	conn *sseConn
	last string // the last event id written; only follow touches it
	wake chan struct{}
	done atomic.Bool   // the stream completed at its replica
	stop chan struct{} // closed when the client's connection ends
}

// relay starts relaying stream name, replayed up to last, to c; s.mu is
// held.
func (s *httpSession) relay(name, last string, c *sseConn) {
	if s.relays == nil {
		s.relays = map[string]*streamRelay{}
	}
	if old := s.relays[name]; old != nil {
		old.conn.kill()
		close(old.stop)
	}
	rel := &streamRelay{name: name, conn: c, last: last, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	s.relays[name] = rel
	go s.follow(rel)
}

// dropRelay forgets the relay writing to c, once its connection ended.
func (s *httpSession) dropRelay(c *sseConn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for name, rel := range s.relays {
		if rel.conn == c {
			delete(s.relays, name)
			close(rel.stop)
		}
	}
}

// endRelays ends every relay; s.mu is held.
func (s *httpSession) endRelays() {
	for name, rel := range s.relays {
		rel.conn.kill()
		close(rel.stop)
		delete(s.relays, name)
	}
}

// streamNews tells a relay of this session that its stream has new
// events, or completed.
func (s *httpSession) streamNews(name string, completed bool) {
	s.mu.Lock()
	rel := s.relays[name]
	s.mu.Unlock()
	if rel == nil {
		return
	}
	if completed {
		rel.done.Store(true)
	}
	select {
	case rel.wake <- struct{}{}:
	default:
	}
}

// follow writes what the store has of a relayed stream after rel.last,
// whenever there is news and every relayPoll, until the stream completed
// (or, the word of it lost, until a response was written and a poll found
// nothing after it) or the client's connection ends.
func (s *httpSession) follow(rel *streamRelay) {
	t := time.NewTicker(relayPoll)
	defer t.Stop()
	answered := false
	for {
		select {
		case <-rel.wake:
		case <-t.C:
		case <-rel.stop:
			return
		}
		completed := rel.done.Load()
		n, responses, err := s.catchUp(rel)
		if err != nil {
			s.h.log.Warn("mcp: cannot follow a stream another replica serves", "session", s.id, "stream", rel.name, "error", err)
			rel.conn.finish()
			return
		}
		if completed || (answered && n == 0) {
			rel.conn.finish()
			return
		}
		answered = answered || responses
	}
}

// catchUp writes the relayed stream's events after rel.last to its
// connection; it returns how many there were and whether a response was
// among them.
func (s *httpSession) catchUp(rel *streamRelay) (n int, responses bool, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	_, err = s.h.store.Replay(ctx, s.id, rel.last, func(id string, data []byte) error {
		rel.last = id
		if len(data) == 0 {
			return nil
		}
		n++
		responses = responses || isResponse(data)
		rel.conn.push(sseEvent{id: id, data: data})
		return nil
	})
	return n, responses, err
}

// isResponse reports whether a message is a response (or a batch holding
// one).
func isResponse(msg []byte) bool {
	if isBatch(msg) {
		var batch []envelope
		if json.Unmarshal(msg, &batch) != nil {
			return false
		}
		for _, e := range batch {
			if e.Method == nil && e.ID != nil {
				return true
			}
		}
		return false
	}
	e, err := envelopeOf(msg)
	return err == nil && e.Method == nil && e.ID != nil
}

// anyResponse reports whether events hold a response.
func anyResponse(evs []sseEvent) bool {
	for _, e := range evs {
		if len(e.data) > 0 && isResponse(e.data) {
			return true
		}
	}
	return false
}
