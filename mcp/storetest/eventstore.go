package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// EventStore runs the conformance suite for an mcp.EventStore. newStore
// returns a fresh, empty store for each subtest, with bounds of at least
// 1000 events and 4 MiB per session; it may register cleanups on the t it
// is given. EventStoreBounds checks what happens past the bounds.
func EventStore(t *testing.T, newStore func(t *testing.T) mcp.EventStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s mcp.EventStore)
	}{
		{"ReplayGivesTheLaterEventsOfTheIDsStream", eventsReplay},
		{"ReplayFromTheLastIDGivesNothing", eventsReplayFromLast},
		{"IDsAreVisibleASCIIUniqueAndNameTheirStream", eventsIDs},
		{"AnyStreamNameWorks", eventsAnyStream},
		{"DataIsByteExact", eventsByteExact},
		{"NilDataStoresAnEmptyEvent", eventsNilData},
		{"MutatingAppendedDataChangesNothingStored", eventsAppendCopies},
		{"MutatingReplayedDataChangesNothingStored", eventsReplayCopies},
		{"AnErrorFromFnStopsTheReplay", eventsFnError},
		{"AnIDNeverIssuedIsErrEventNotFound", eventsNeverIssued},
		{"SessionsAreIsolated", eventsSessionIsolation},
		{"ForgetDropsTheSession", eventsForget},
		{"ForgetOfAnAbsentSessionIsNotAnError", eventsForgetAbsent},
		{"ConcurrentAppendsKeepEachStreamInOrder", eventsConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newStore(t))
		})
	}
}

// EventStoreBounds runs the suite for an mcp.EventStore's bounds: newStore
// returns a fresh, empty store that keeps at most maxEvents events per
// session.
func EventStoreBounds(t *testing.T, newStore func(t *testing.T, maxEvents int) mcp.EventStore) {
	t.Helper()
	t.Run("AReplayThatWouldMissEventsIsErrEventNotFound", func(t *testing.T) {
		s := newStore(t, 3)
		a1 := appendEvent(t, s, "S", "1", "a1")
		appendEvent(t, s, "S", "1", "a2")
		b1 := appendEvent(t, s, "S", "2", "b1")
		appendEvent(t, s, "S", "2", "b2")
		b3 := appendEvent(t, s, "S", "2", "b3")
		_, _, err := replay(t, s, "S", a1)
		assert.ErrorIs(t, err, mcp.ErrEventNotFound, "a2, after a1, is gone")
		stream, got, err := replay(t, s, "S", b1)
		require.NoError(t, err, "every event after b1 is kept")
		assert.Equal(t, "2", stream)
		assert.Equal(t, []string{"b2", "b3"}, got.data)
		_, got, err = replay(t, s, "S", b3)
		require.NoError(t, err)
		assert.Empty(t, got.ids)
	})
	t.Run("TheNewestEventsAreKept", func(t *testing.T) {
		s := newStore(t, 5)
		var ids []string
		for i := range 50 {
			ids = append(ids, appendEvent(t, s, "S", "1", fmt.Sprint(i)))
		}
		_, got, err := replay(t, s, "S", ids[46])
		require.NoError(t, err)
		assert.Equal(t, []string{"47", "48", "49"}, got.data)
		_, _, err = replay(t, s, "S", ids[10])
		assert.ErrorIs(t, err, mcp.ErrEventNotFound)
	})
	t.Run("BoundsArePerSession", func(t *testing.T) {
		s := newStore(t, 3)
		t1 := appendEvent(t, s, "T", "1", "t1")
		appendEvent(t, s, "T", "1", "t2")
		for i := range 10 {
			appendEvent(t, s, "S", "1", fmt.Sprint(i))
		}
		_, got, err := replay(t, s, "T", t1)
		require.NoError(t, err, "another session's events do not push T's out")
		assert.Equal(t, []string{"t2"}, got.data)
	})
}

// replayed is what a replay delivered.
type replayed struct {
	ids  []string
	data []string
}

func replay(t *testing.T, s mcp.EventStore, session, last string) (string, replayed, error) {
	t.Helper()
	var r replayed
	stream, err := s.Replay(t.Context(), session, last, func(id string, data []byte) error {
		r.ids = append(r.ids, id)
		r.data = append(r.data, string(data))
		return nil
	})
	return stream, r, err
}

func appendEvent(t *testing.T, s mcp.EventStore, session, stream, data string) string {
	t.Helper()
	id, err := s.Append(t.Context(), session, stream, []byte(data))
	require.NoError(t, err)
	return id
}

func eventsReplay(t *testing.T, s mcp.EventStore) {
	a1 := appendEvent(t, s, "S", "1", "a1")
	b1 := appendEvent(t, s, "S", "2", "b1")
	a2 := appendEvent(t, s, "S", "1", "a2")
	b2 := appendEvent(t, s, "S", "2", "b2")
	a3 := appendEvent(t, s, "S", "1", "a3")
	appendEvent(t, s, "other", "1", "x")

	stream, got, err := replay(t, s, "S", a1)
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Equal(t, []string{a2, a3}, got.ids)
	assert.Equal(t, []string{"a2", "a3"}, got.data)

	stream, got, err = replay(t, s, "S", b1)
	require.NoError(t, err)
	assert.Equal(t, "2", stream)
	assert.Equal(t, []string{b2}, got.ids)
	assert.Equal(t, []string{"b2"}, got.data)

	_, again, err := replay(t, s, "S", a1)
	require.NoError(t, err)
	assert.Equal(t, []string{a2, a3}, again.ids, "a replay does not consume the events")
}

func eventsReplayFromLast(t *testing.T, s mcp.EventStore) {
	appendEvent(t, s, "S", "1", "a1")
	last := appendEvent(t, s, "S", "1", "a2")
	appendEvent(t, s, "S", "2", "b1")
	stream, got, err := replay(t, s, "S", last)
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Empty(t, got.ids)
}

// assertVisibleASCII checks that id is non-empty visible ASCII, as an SSE
// id field and a Last-Event-ID header carry it.
func assertVisibleASCII(t *testing.T, id string) {
	t.Helper()
	assert.NotEmpty(t, id)
	for _, c := range []byte(id) {
		if !assert.True(t, c > 0x20 && c < 0x7f, "id %q is not visible ASCII", id) {
			return
		}
	}
}

func eventsIDs(t *testing.T, s mcp.EventStore) {
	seen := map[string]bool{}
	for i := range 30 {
		stream := fmt.Sprint(i % 3)
		id := appendEvent(t, s, "S", stream, "d")
		assertVisibleASCII(t, id)
		assert.False(t, seen[id], "duplicate id %s", id)
		seen[id] = true
		got, _, err := replay(t, s, "S", id)
		require.NoError(t, err)
		assert.Equal(t, stream, got, "id %s names its stream", id)
	}
}

func eventsAnyStream(t *testing.T, s mcp.EventStore) {
	streams := []string{"", "-", "/", "1-2", "a b", "é", "%41", "x\x00y", "{tag}"}
	ids := make([]string, len(streams))
	for i, stream := range streams {
		ids[i] = appendEvent(t, s, "S", stream, "first of "+stream)
		assertVisibleASCII(t, ids[i])
	}
	for _, stream := range streams {
		appendEvent(t, s, "S", stream, "second of "+stream)
	}
	for i, stream := range streams {
		got, r, err := replay(t, s, "S", ids[i])
		require.NoError(t, err, "stream %q", stream)
		assert.Equal(t, stream, got)
		assert.Equal(t, []string{"second of " + stream}, r.data, "stream %q", stream)
	}
}

func eventsByteExact(t *testing.T, s mcp.EventStore) {
	binary := make([]byte, 0, 256)
	for i := range 256 {
		binary = append(binary, byte(i))
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	first := appendEvent(t, s, "S", "1", "first")
	want := [][]byte{binary, []byte("\xff\xfe not UTF-8"), big, []byte("data: x\n\nid: 7\r\n")}
	for _, d := range want {
		_, err := s.Append(t.Context(), "S", "1", d)
		require.NoError(t, err)
	}
	var got [][]byte
	_, err := s.Replay(t.Context(), "S", first, func(_ string, data []byte) error {
		got = append(got, append([]byte(nil), data...))
		return nil
	})
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.True(t, bytes.Equal(want[i], got[i]), "event %d differs: %d bytes stored, %d replayed", i, len(want[i]), len(got[i]))
	}
}

func eventsNilData(t *testing.T, s mcp.EventStore) {
	first := appendEvent(t, s, "S", "1", "first")
	primed, err := s.Append(t.Context(), "S", "1", nil)
	require.NoError(t, err, "the priming event has no data")
	assertVisibleASCII(t, primed)
	stream, got, err := replay(t, s, "S", first)
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Equal(t, []string{primed}, got.ids)
	assert.Equal(t, []string{""}, got.data)
	stream, got, err = replay(t, s, "S", primed)
	require.NoError(t, err, "a replay may start at the priming event")
	assert.Equal(t, "1", stream)
	assert.Empty(t, got.ids)

	lone, err := s.Append(t.Context(), "T", "0", nil)
	require.NoError(t, err, "a session's first event may be a priming event")
	stream, got, err = replay(t, s, "T", lone)
	require.NoError(t, err)
	assert.Equal(t, "0", stream)
	assert.Empty(t, got.ids)
}

func eventsAppendCopies(t *testing.T, s mcp.EventStore) {
	first := appendEvent(t, s, "S", "1", "first")
	data := []byte("original")
	_, err := s.Append(t.Context(), "S", "1", data)
	require.NoError(t, err)
	copy(data, "MUTATED!")
	_, got, err := replay(t, s, "S", first)
	require.NoError(t, err)
	assert.Equal(t, []string{"original"}, got.data)
}

func eventsReplayCopies(t *testing.T, s mcp.EventStore) {
	first := appendEvent(t, s, "S", "1", "first")
	appendEvent(t, s, "S", "1", "original")
	_, err := s.Replay(t.Context(), "S", first, func(_ string, data []byte) error {
		copy(data, "MUTATED!")
		return nil
	})
	require.NoError(t, err)
	_, got, err := replay(t, s, "S", first)
	require.NoError(t, err)
	assert.Equal(t, []string{"original"}, got.data)
}

func eventsFnError(t *testing.T, s mcp.EventStore) {
	first := appendEvent(t, s, "S", "1", "first")
	appendEvent(t, s, "S", "1", "second")
	appendEvent(t, s, "S", "1", "third")
	stop := errors.New("stop here")
	calls := 0
	stream, err := s.Replay(t.Context(), "S", first, func(string, []byte) error {
		calls++
		return fmt.Errorf("wrapped: %w", stop)
	})
	assert.ErrorIs(t, err, stop)
	assert.Equal(t, "1", stream)
	assert.Equal(t, 1, calls)
}

func eventsNeverIssued(t *testing.T, s mcp.EventStore) {
	appendEvent(t, s, "S", "1", "a")
	var other []string
	for i := range 5 {
		other = append(other, appendEvent(t, s, "T", "1", fmt.Sprint(i)))
	}
	for _, tc := range []struct{ name, session, last string }{
		{"EmptyID", "S", ""},
		{"Garbage", "S", "not an id at all"},
		{"SeparatorsOnly", "S", "-/-:"},
		{"AnIDOfAnotherSession", "S", other[4]},
		{"AnySessionNeverUsed", "never-used", other[0]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			called := false
			_, err := s.Replay(t.Context(), tc.session, tc.last, func(string, []byte) error {
				called = true
				return nil
			})
			assert.ErrorIs(t, err, mcp.ErrEventNotFound)
			assert.False(t, called)
		})
	}
}

func eventsSessionIsolation(t *testing.T, s mcp.EventStore) {
	s1 := appendEvent(t, s, "S", "1", "s1")
	t1 := appendEvent(t, s, "T", "1", "t1")
	appendEvent(t, s, "T", "1", "t2")
	appendEvent(t, s, "S", "1", "s2")
	_, got, err := replay(t, s, "S", s1)
	require.NoError(t, err)
	assert.Equal(t, []string{"s2"}, got.data)
	_, got, err = replay(t, s, "T", t1)
	require.NoError(t, err)
	assert.Equal(t, []string{"t2"}, got.data)
}

func eventsForget(t *testing.T, s mcp.EventStore) {
	s1 := appendEvent(t, s, "S", "1", "s1")
	appendEvent(t, s, "S", "1", "s2")
	t1 := appendEvent(t, s, "T", "1", "t1")
	appendEvent(t, s, "T", "1", "t2")
	require.NoError(t, s.Forget(t.Context(), "S"))
	_, _, err := replay(t, s, "S", s1)
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)
	_, got, err := replay(t, s, "T", t1)
	require.NoError(t, err, "forgetting S leaves T")
	assert.Equal(t, []string{"t2"}, got.data)
	require.NoError(t, s.Forget(t.Context(), "S"), "forgetting twice")

	again := appendEvent(t, s, "S", "1", "after")
	appendEvent(t, s, "S", "1", "after 2")
	_, got, err = replay(t, s, "S", again)
	require.NoError(t, err, "a forgotten session can store events again")
	assert.Equal(t, []string{"after 2"}, got.data)
}

func eventsForgetAbsent(t *testing.T, s mcp.EventStore) {
	assert.NoError(t, s.Forget(t.Context(), "never-used"))
}

// eventsConcurrent has goroutines append to their own streams, some in one
// session and some in their own, then checks every stream in full.
func eventsConcurrent(t *testing.T, s mcp.EventStore) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const workers, each = 8, 25
	ids := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			session := []string{"shared", fmt.Sprint("own-", w)}[w%2]
			for i := range each {
				id, err := s.Append(ctx, session, fmt.Sprint(w), fmt.Appendf(nil, "%d/%d", w, i))
				if !assert.NoError(t, err) {
					return
				}
				ids[w] = append(ids[w], id)
			}
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for w := range workers {
		require.Len(t, ids[w], each)
		session := []string{"shared", fmt.Sprint("own-", w)}[w%2]
		stream, got, err := replay(t, s, session, ids[w][0])
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint(w), stream)
		assert.Equal(t, ids[w][1:], got.ids)
		for i, d := range got.data {
			assert.Equal(t, fmt.Sprintf("%d/%d", w, i+1), d)
		}
		if w%2 == 0 {
			for _, id := range ids[w] {
				assert.False(t, seen[id], "id %s issued twice in one session", id)
				seen[id] = true
			}
		}
	}
}
