package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// replayed collects what a replay delivers.
type replayed struct {
	ids  []string
	data []string
}

func replay(t *testing.T, s mcp.EventStore, session, last string) (string, replayed, error) {
	t.Helper()
	var r replayed
	stream, err := s.Replay(context.Background(), session, last, func(id string, data []byte) error {
		r.ids = append(r.ids, id)
		r.data = append(r.data, string(data))
		return nil
	})
	return stream, r, err
}

func appendEvent(t *testing.T, s mcp.EventStore, session, stream, data string) string {
	t.Helper()
	id, err := s.Append(context.Background(), session, stream, []byte(data))
	require.NoError(t, err)
	return id
}

func TestMemoryEventStoreReplaysOnlyTheStreamAfterTheID(t *testing.T) {
	s := mcp.NewMemoryEventStore(nil)
	a1 := appendEvent(t, s, "S", "1", "a1")
	appendEvent(t, s, "S", "2", "b1")
	a2 := appendEvent(t, s, "S", "1", "a2")
	appendEvent(t, s, "S", "2", "b2")
	a3 := appendEvent(t, s, "S", "1", "a3")
	appendEvent(t, s, "other", "1", "x")

	stream, got, err := replay(t, s, "S", a1)
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Equal(t, []string{a2, a3}, got.ids)
	assert.Equal(t, []string{"a2", "a3"}, got.data)

	stream, got, err = replay(t, s, "S", a3)
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Empty(t, got.ids)
}

func TestMemoryEventStoreIDsAreUniqueAndNameTheirStream(t *testing.T) {
	s := mcp.NewMemoryEventStore(nil)
	seen := map[string]bool{}
	for i := range 20 {
		stream := fmt.Sprint(i % 3)
		id := appendEvent(t, s, "S", stream, "d")
		assert.False(t, seen[id], "duplicate id %s", id)
		seen[id] = true
		got, _, err := replay(t, s, "S", id)
		require.NoError(t, err)
		assert.Equal(t, stream, got)
		for _, c := range id {
			assert.True(t, c > 0x20 && c < 0x7f, "id %q is not visible ASCII", id)
		}
	}
}

func TestMemoryEventStoreRefusesIDsItCannotResumeFrom(t *testing.T) {
	s := mcp.NewMemoryEventStore(nil)
	id := appendEvent(t, s, "S", "1", "a")
	for _, tc := range []struct{ name, session, last string }{
		{"unknown session", "T", id},
		{"malformed id", "S", "garbage"},
		{"id never issued", "S", "1-99"},
		{"non-numeric counter", "S", "1-x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := replay(t, s, tc.session, tc.last)
			assert.ErrorIs(t, err, mcp.ErrEventNotFound)
		})
	}
}

func TestMemoryEventStoreBoundsEventsPerSession(t *testing.T) {
	s := mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxEvents: 3})
	a1 := appendEvent(t, s, "S", "1", "a1")
	b1 := appendEvent(t, s, "S", "2", "b1")
	appendEvent(t, s, "S", "1", "a2")
	appendEvent(t, s, "S", "1", "a3")
	appendEvent(t, s, "S", "1", "a4") // evicts a1, then b1

	_, got, err := replay(t, s, "S", a1)
	require.NoError(t, err, "nothing of stream 1 after a1 was lost")
	assert.Equal(t, []string{"a2", "a3", "a4"}, got.data)

	b0 := "2-0"
	_, _, err = replay(t, s, "S", b0)
	assert.ErrorIs(t, err, mcp.ErrEventNotFound, "b1 came after it and is gone")

	_, got, err = replay(t, s, "S", b1)
	require.NoError(t, err, "resuming from the evicted event itself loses nothing")
	assert.Empty(t, got.data)
}

func TestMemoryEventStoreBoundsBytesPerSession(t *testing.T) {
	s := mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxBytes: 10})
	first := appendEvent(t, s, "S", "1", "0123456789")
	appendEvent(t, s, "S", "2", "x") // 11 bytes: the first event goes
	before := "1-0"
	_, _, err := replay(t, s, "S", before)
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)
	_, _, err = replay(t, s, "S", first)
	assert.NoError(t, err)
}

func TestMemoryEventStoreRefusesOldIDsOnceItsEvictionRecordIsFolded(t *testing.T) {
	s := mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxEvents: 1})
	var ids []string
	for i := range 12 { // one stream per event: the eviction record outgrows 4 streams
		ids = append(ids, appendEvent(t, s, "S", fmt.Sprint(i), "d"))
	}
	_, _, err := replay(t, s, "S", "0-0")
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)
	_, _, err = replay(t, s, "S", ids[len(ids)-1])
	assert.NoError(t, err)
}

func TestMemoryEventStoreForgetDropsTheSession(t *testing.T) {
	s := mcp.NewMemoryEventStore(nil)
	id := appendEvent(t, s, "S", "1", "a")
	require.NoError(t, s.Forget(context.Background(), "S"))
	_, _, err := replay(t, s, "S", id)
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)
}

func TestMemoryEventStoreReplayStopsAtTheCallbacksError(t *testing.T) {
	s := mcp.NewMemoryEventStore(nil)
	id := appendEvent(t, s, "S", "1", "a")
	appendEvent(t, s, "S", "1", "b")
	appendEvent(t, s, "S", "1", "c")
	boom := errors.New("boom")
	calls := 0
	_, err := s.Replay(context.Background(), "S", id, func(string, []byte) error {
		calls++
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.Equal(t, 1, calls)
}
