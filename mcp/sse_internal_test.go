package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// holdResult runs holdFor on c with a hold far longer than any test, and
// returns what it reports once it returns.
func holdResult(c *sseConn) <-chan bool {
	out := make(chan bool, 1)
	go func() {
		whole, err := c.holdFor(context.Background(), time.Hour)
		if err == nil {
			out <- whole
		}
	}()
	return out
}

// waitHold waits (generously) for holdFor to return and gives its whole.
func waitHold(t *testing.T, res <-chan bool, what string) bool {
	t.Helper()
	select {
	case whole := <-res:
		return whole
	case <-time.After(10 * time.Second):
		require.FailNow(t, "holdFor is still holding", what)
		return false
	}
}

// A message a handler sends while it runs starts its stream at once, on a
// stream with a priming event (2025-11-25) and on one without (earlier
// versions) alike: the hold never delays it.
func TestAHeldStreamStartsOnItsFirstMessage(t *testing.T) {
	for _, primed := range []bool{true, false} {
		c := newSSEConn()
		if primed {
			require.True(t, c.push(sseEvent{id: "0", retry: time.Second}))
		}
		res := holdResult(c)
		require.True(t, c.push(sseEvent{id: "1", data: []byte(`{"jsonrpc":"2.0","method":"notifications/progress"}`)}))
		assert.False(t, waitHold(t, res, "a message was queued"), "primed %v: the stream starts, not whole", primed)
	}
}

// A stream whose priming event is all that is queued keeps holding; its
// last answer and its end come in one step, so it is then written whole.
func TestAHeldStreamWithOnlyItsPrimingEventWaitsToBeWrittenWhole(t *testing.T) {
	c := newSSEConn()
	require.True(t, c.push(sseEvent{id: "0", retry: time.Second}))
	res := holdResult(c)
	require.True(t, c.pushLast(sseEvent{id: "1", data: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}))
	assert.True(t, waitHold(t, res, "the stream was finished"))
}

func TestPushLastQueuesNothingAfterTheEndOrOnAFullQueue(t *testing.T) {
	ev := sseEvent{id: "9", data: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}
	t.Run("after the end", func(t *testing.T) {
		c := newSSEConn()
		c.finish()
		assert.True(t, c.pushLast(ev), "events after the end are ignored, not refused")
		assert.Empty(t, c.unwritten())
	})
	t.Run("on a full queue", func(t *testing.T) {
		c := newSSEConn()
		for i := range maxQueuedEvents {
			require.True(t, c.push(sseEvent{data: []byte(`{}`)}), "event %d", i)
		}
		assert.False(t, c.pushLast(ev))
		c.mu.Lock()
		finishing := c.finishing
		c.mu.Unlock()
		assert.False(t, finishing, "a refused last event does not end the connection")
		assert.Len(t, c.unwritten(), maxQueuedEvents)
	})
}
