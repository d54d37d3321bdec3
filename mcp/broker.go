package mcp

import (
	"context"
	"sync"
)

// Broker carries messages between the replicas of a server: what one
// replica learns that another must act on. A response to a request the
// server sent a client, posted to another replica than the one waiting for
// it; a notification such as notifications/cancelled for a call running
// elsewhere; the end of a session; a change of a list or a resource that
// listening clients connected to other replicas must hear of; the events
// of a stream a client resumes on another replica.
//
// Delivery is at most once and in publication order per topic and
// publisher: what must survive a replica's loss goes to an EventStore or a
// SessionStore, not only through the broker. A subscriber receives every
// message published on its topic after Subscribe returned, its own
// included. Implementations must be safe for concurrent use.
type Broker interface {
	// Publish sends msg to the current subscribers of topic.
	Publish(ctx context.Context, topic string, msg []byte) error
	// Subscribe calls fn, from one goroutine at a time and in order, for
	// each message published on topic until unsubscribe is called or ctx
	// ends. fn must not block for long: a slow subscriber may lose
	// messages rather than hold the others up.
	Subscribe(ctx context.Context, topic string, fn func(msg []byte)) (unsubscribe func(), err error)
}

// MemoryBroker is a Broker within one process: the default of a single
// replica, and, shared by several handlers, a cluster of replicas in one
// process (tests). The zero value is ready to use.
type MemoryBroker struct {
	mu     sync.Mutex
	topics map[string]map[*memorySub]struct{}
}

// memorySubQueue bounds the messages waiting for one subscriber; past it,
// new messages to that subscriber are dropped.
const memorySubQueue = 1024

type memorySub struct {
	ch   chan []byte
	stop chan struct{}
	once sync.Once
}

// Publish hands every subscriber of topic a copy of msg of its own. A subscriber
// whose queue is full misses it.
func (b *MemoryBroker) Publish(_ context.Context, topic string, msg []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.topics[topic]) == 0 {
		return nil
	}
	for s := range b.topics[topic] {
		select {
		case s.ch <- append([]byte(nil), msg...): // each its own copy
		default:
		}
	}
	return nil
}

// Subscribe delivers the messages of topic to fn on a goroutine of its
// own.
func (b *MemoryBroker) Subscribe(ctx context.Context, topic string, fn func(msg []byte)) (func(), error) {
	s := &memorySub{ch: make(chan []byte, memorySubQueue), stop: make(chan struct{})}
	b.mu.Lock()
	if b.topics == nil {
		b.topics = map[string]map[*memorySub]struct{}{}
	}
	if b.topics[topic] == nil {
		b.topics[topic] = map[*memorySub]struct{}{}
	}
	b.topics[topic][s] = struct{}{}
	b.mu.Unlock()
	unsubscribe := func() {
		s.once.Do(func() {
			b.mu.Lock()
			delete(b.topics[topic], s)
			if len(b.topics[topic]) == 0 {
				delete(b.topics, topic)
			}
			b.mu.Unlock()
			close(s.stop)
		})
	}
	go func() {
		for {
			select {
			case msg := <-s.ch:
				fn(msg)
			case <-s.stop:
				return
			case <-ctx.Done():
				unsubscribe()
				return
			}
		}
	}()
	return unsubscribe, nil
}
