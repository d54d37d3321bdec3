package mcp

import (
	"context"
	"strings"
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
// store is also looked at every relayPoll in case that word is lost. A
// poll that finds nothing asks the running replica whether the stream is
// still there (kind probe); without an answer by the next poll, the
// replica (or the word) is taken as lost and the connection ends, so that
// the client resumes again rather than wait on a call nobody runs.
type streamRelay struct {
	name string
	conn *sseConn
	last string // the last event id written; only follow touches it
	wake chan struct{}
	news atomic.Int64  // how often the running replica spoke of the stream
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
	rel.news.Add(1)
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
	answered, probed := false, false
	var heard int64
	for {
		polled := false
		select {
		case <-rel.wake:
		case <-t.C:
			polled = true
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
		if news := rel.news.Load(); news != heard || n > 0 {
			heard, probed = news, false
			continue
		}
		if !polled {
			continue
		}
		if probed {
			s.h.log.Debug("mcp: no word of a followed stream; ending it so the client resumes", "session", s.id, "stream", rel.name)
			rel.conn.finish()
			return
		}
		probed = true
		if s.h.rep != nil {
			s.h.rep.publish(s.id, replicaMessage{Kind: kindProbe, Stream: rel.name})
		}
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
		_, response := outboundIDs(data)
		responses = responses || response
		rel.conn.push(sseEvent{id: id, data: data})
		return nil
	})
	return n, responses, err
}

// answerProbe answers another replica's question about a stream: news
// when the stream is open here, completed when it was this replica's and
// is gone (its word of completion may have been lost), nothing otherwise.
func (s *httpSession) answerProbe(name string) {
	s.mu.Lock()
	open := s.stream(name) != nil
	s.mu.Unlock()
	r := s.h.rep
	switch {
	case open:
		r.publish(s.id, replicaMessage{Kind: kindEvent, Stream: name})
	case strings.HasPrefix(name, r.self[:8]+"."):
		r.publish(s.id, replicaMessage{Kind: kindEvent, Stream: name, Completed: true})
	}
}

// anyResponse reports whether events hold a response.
func anyResponse(evs []sseEvent) bool {
	for _, e := range evs {
		if _, response := outboundIDs(e.data); len(e.data) > 0 && response {
			return true
		}
	}
	return false
}
