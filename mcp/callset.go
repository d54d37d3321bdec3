package mcp

import (
	"context"
	"sync"
)

// callSet holds the cancel functions of the 2026-07-28 calls a Streamable
// HTTP handler is running, so that a shutdown that gives up waiting can
// cancel them (cancelAll). Calls join and leave on every POST, from many
// goroutines at once: the set is split into shards, each under its own
// lock, so that two calls seldom take turns at one; and a call's entry is
// part of its response (statelessResponse.entry), so joining allocates
// nothing. (Registering each call's context with one shared context, as
// context.AfterFunc does, serialized every call of the handler on that
// context's lock and allocated for each.)
type callSet struct {
	shards [callShards]callShard
}

// callShards is the number of shards of a callSet.
const callShards = 16

// callShard is one lock's part of a callSet: a list of entries, and
// whether cancelAll has passed, after which a joining call is cancelled at
// once. It is padded to its own cache line, so that the locks of two
// shards do not share one.
type callShard struct {
	mu        sync.Mutex
	head      *callEntry
	cancelled bool
	_         [40]byte
}

// callEntry is one call's place in a callSet: its cancel function and its
// links in its shard's list.
type callEntry struct {
	cancel     context.CancelFunc
	shard      *callShard
	prev, next *callEntry
}

// join adds e, whose call cancel cancels, to the set; the shard is picked
// by key, any number that differs from call to call. A call that joins
// after cancelAll is cancelled at once.
func (s *callSet) join(e *callEntry, cancel context.CancelFunc, key uint) {
	sh := &s.shards[key%callShards]
	e.cancel, e.shard = cancel, sh
	sh.mu.Lock()
	if sh.cancelled {
		sh.mu.Unlock()
		cancel()
		return
	}
	e.next = sh.head
	if sh.head != nil {
		sh.head.prev = e
	}
	sh.head = e
	sh.mu.Unlock()
}

// leave removes e, which joined, from the set.
func (s *callSet) leave(e *callEntry) {
	sh := e.shard
	sh.mu.Lock()
	switch {
	case e.prev != nil:
		e.prev.next = e.next
	case sh.head == e:
		sh.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	}
	e.prev, e.next = nil, nil
	sh.mu.Unlock()
}

// cancelAll cancels every call in the set, and every call that joins
// after it.
func (s *callSet) cancelAll() {
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		sh.cancelled = true
		var cancels []context.CancelFunc
		for e := sh.head; e != nil; e = e.next {
			cancels = append(cancels, e.cancel)
		}
		sh.mu.Unlock()
		for _, cancel := range cancels {
			cancel() // outside the lock: a cancelled call's leave takes it
		}
	}
}
