package mcp

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// members lists the entries of every shard of s.
func (s *callSet) members() []*callEntry {
	var out []*callEntry
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		for e := sh.head; e != nil; e = e.next {
			out = append(out, e)
		}
		sh.mu.Unlock()
	}
	return out
}

func TestACallSetCancelsTheCallsRunningWhenItGivesUp(t *testing.T) {
	var s callSet
	entries := make([]callEntry, 5)
	ctxs := make([]context.Context, 5)
	for i := range entries {
		ctx, cancel := context.WithCancel(context.Background())
		ctxs[i] = ctx
		// Keys 0, 16 and 32 share a shard: its list has a head, a middle
		// and a tail.
		s.join(&entries[i], cancel, uint(i%3)*callShards+uint(i/3))
	}
	require.Len(t, s.members(), 5)
	s.leave(&entries[3]) // the head of its shard
	s.leave(&entries[0]) // the tail of the shared shard
	members := s.members()
	assert.ElementsMatch(t, []*callEntry{&entries[1], &entries[2], &entries[4]}, members)
	s.cancelAll()
	for i, ctx := range ctxs {
		left := i == 0 || i == 3
		assert.Equal(t, !left, ctx.Err() != nil, "call %d: cancelled unless it left first", i)
	}
	// A call that joins once the set gave up is cancelled at once, and
	// leaves as any other.
	late, cancel := context.WithCancel(context.Background())
	var e callEntry
	s.join(&e, cancel, 7)
	assert.Error(t, late.Err())
	s.leave(&e)
}

func TestACallSetTakesJoinsAndLeavesFromManyGoroutines(t *testing.T) {
	var s callSet
	const goroutines, calls = 8, 500
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Go(func() {
			entries := make([]callEntry, calls)
			for i := range entries {
				s.join(&entries[i], func() {}, uint(g*calls+i))
				if i%2 == 1 { // leave in another order than joined
					s.leave(&entries[i])
					s.leave(&entries[i-1])
				}
			}
		})
	}
	wg.Wait()
	assert.Empty(t, s.members())
}
