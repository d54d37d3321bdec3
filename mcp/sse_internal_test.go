package mcp

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
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

// takenOverConn is a connection taken over that writes to conn, and the
// channel closed when it has ended.
func takenOverConn(conn net.Conn) (*sseConn, <-chan struct{}) {
	ended := make(chan struct{})
	c := newSSEConn()
	c.out = &takenOver{conn: conn, keep: &keepAlives{}, ended: func() { close(ended) }, lastWrite: time.Now()}
	return c, ended
}

// waitEnded waits (generously) for a connection taken over to end.
func waitEnded(t *testing.T, ended <-chan struct{}) {
	t.Helper()
	select {
	case <-ended:
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the stream did not end")
	}
}

// A write that fails ends a stream taken over and puts the events it
// carried back in the queue, for the session to keep (detach).
func TestATakenOverStreamWhoseWriteFailsKeepsItsEvents(t *testing.T) {
	client, server := net.Pipe()
	require.NoError(t, client.Close())
	c, ended := takenOverConn(server)
	evs := []sseEvent{{id: "1", data: []byte(`{"a":1}`)}, {id: "2", data: []byte(`{"b":2}`)}}
	require.True(t, c.push(evs[0]))
	require.True(t, c.push(evs[1]))
	waitEnded(t, ended)
	assert.Equal(t, evs, c.unwritten())
}

// A stream taken over that is killed writes nothing more of its queue,
// ends its chunked body and closes its connection.
func TestAKilledTakenOverStreamEndsItsBodyAndLeavesItsQueue(t *testing.T) {
	client, server := net.Pipe()
	defer client.Close()
	c, ended := takenOverConn(server)
	got := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(client)
		got <- b
	}()
	c.mu.Lock()
	c.queue = append(c.queue, sseEvent{id: "1", data: []byte(`{}`)})
	c.mu.Unlock()
	c.kill()
	waitEnded(t, ended)
	select {
	case b := <-got:
		assert.Equal(t, chunkEnd, string(b))
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the connection was not closed")
	}
	assert.Len(t, c.unwritten(), 1)
}

// A held stream that ends with nothing to send (its calls were cancelled,
// or its session ended or another connection took it over, before the
// hold was over) still goes out as a stream, chunked, never as a
// zero-length body: Go's HTTP client hands the connection of a
// zero-length answer back to its pool before the caller has it, and a
// client cancelling the POST at that moment closes the connection under
// the next request of the pool. A stream finished with its answers keeps
// being written whole, with a length.
func TestAHeldStreamEndingEmptyIsSentChunked(t *testing.T) {
	answer := sseEvent{id: "1", data: []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`)}
	for _, tc := range []struct {
		name    string
		events  []sseEvent
		end     func(c *sseConn)
		err     error
		chunked bool
	}{
		{"finished with nothing to send", nil, (*sseConn).finish, nil, true},
		{"ended by its session", nil, (*sseConn).kill, errConnReplaced, true},
		{"ended by its session with a priming event", []sseEvent{{id: "0", retry: time.Second}}, (*sseConn).kill, errConnReplaced, true},
		{"finished with only a priming event", []sseEvent{{id: "0", retry: time.Second}}, (*sseConn).finish, nil, false},
		{"finished with its answer", []sseEvent{answer}, (*sseConn).finish, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newSSEConn()
			for _, e := range tc.events {
				require.True(t, c.push(e))
			}
			tc.end(c)
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				startSSE(w)
				assert.ErrorIs(t, c.serve(r.Context(), w, 0, time.Hour), tc.err)
			}))
			defer ts.Close()
			resp, err := ts.Client().Get(ts.URL)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			if tc.chunked {
				assert.Equal(t, int64(-1), resp.ContentLength)
				assert.Equal(t, []string{"chunked"}, resp.TransferEncoding)
				return
			}
			assert.Equal(t, int64(len(body)), resp.ContentLength, "written whole, with its length")
			assert.NotEmpty(t, body)
		})
	}
}
