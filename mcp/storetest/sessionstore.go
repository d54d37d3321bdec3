package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// SessionStore runs the conformance suite for an mcp.SessionStore.
// newStore returns a fresh, empty store for each subtest; it may register
// cleanups on the t it is given.
func SessionStore(t *testing.T, newStore func(t *testing.T) mcp.SessionStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		run  func(t *testing.T, s mcp.SessionStore)
	}{
		{"PutThenGetReturnsTheState", sessionRoundTrip},
		{"StateIsByteExact", sessionByteExact},
		{"EmptyStateIsStored", sessionEmptyState},
		{"PutReplacesTheState", sessionPutReplaces},
		{"AnyIDWorks", sessionAnyID},
		{"MutatingThePutStateChangesNothingStored", sessionPutCopies},
		{"MutatingTheReturnedStateChangesNothingStored", sessionGetCopies},
		{"GetOfAnAbsentIDIsErrSessionNotFound", sessionGetAbsent},
		{"StateExpiresAfterItsTTL", sessionExpires},
		{"TouchRestartsTheExpiryAtTheNewTTL", sessionTouchShortens},
		{"TouchKeepsTheStateAlive", sessionTouchExtends},
		{"TouchOfAnAbsentIDIsErrSessionNotFound", sessionTouchAbsent},
		{"TouchOfAnExpiredIDIsErrSessionNotFound", sessionTouchExpired},
		{"PutAfterExpiryStoresAgain", sessionPutAfterExpiry},
		{"DeleteDropsTheState", sessionDelete},
		{"DeleteOfAnAbsentIDIsNotAnError", sessionDeleteAbsent},
		{"SessionsAreIsolated", sessionIsolation},
		{"ConcurrentUse", sessionConcurrent},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.run(t, newStore(t))
		})
	}
}

// sessionTTL is long enough that nothing a test stores with it expires
// while the test runs.
const sessionTTL = time.Minute

func sessionRoundTrip(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte(`{"v":1}`), sessionTTL))
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, `{"v":1}`, string(got))
	got, err = s.Get(ctx, "s1")
	require.NoError(t, err, "a Get does not consume the state")
	assert.Equal(t, `{"v":1}`, string(got))
}

func sessionByteExact(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	state := make([]byte, 0, 512)
	for i := range 256 {
		state = append(state, byte(i), byte(255-i))
	}
	state = append(state, "\xff\xfe not UTF-8 \x00"...)
	require.NoError(t, s.Put(ctx, "s1", state, sessionTTL))
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, state, got)
}

func sessionEmptyState(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	for _, state := range [][]byte{nil, {}} {
		require.NoError(t, s.Put(ctx, "s1", state, sessionTTL))
		got, err := s.Get(ctx, "s1")
		require.NoError(t, err, "an empty state is a state, not an absent one")
		assert.Empty(t, got)
	}
}

func sessionPutReplaces(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("long first state"), sessionTTL))
	require.NoError(t, s.Put(ctx, "s1", []byte("second"), sessionTTL))
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "second", string(got))
}

func sessionAnyID(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	ids := []string{"", "a:b", "a/b c", "{tag}x", "é\u2028\x00", "*", "s1*"}
	for i, id := range ids {
		require.NoError(t, s.Put(ctx, id, []byte(fmt.Sprint(i)), sessionTTL), "id %q", id)
	}
	for i, id := range ids {
		got, err := s.Get(ctx, id)
		require.NoError(t, err, "id %q", id)
		assert.Equal(t, fmt.Sprint(i), string(got), "id %q", id)
	}
	require.NoError(t, s.Delete(ctx, "*"))
	_, err := s.Get(ctx, "s1*")
	assert.NoError(t, err, "deleting id * drops that id only")
}

func sessionPutCopies(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	state := []byte("original")
	require.NoError(t, s.Put(ctx, "s1", state, sessionTTL))
	copy(state, "MUTATED!")
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "original", string(got))
}

func sessionGetCopies(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("original"), sessionTTL))
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	copy(got, "MUTATED!")
	again, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "original", string(again))
}

func sessionGetAbsent(t *testing.T, s mcp.SessionStore) {
	_, err := s.Get(t.Context(), "never-stored")
	assert.ErrorIs(t, err, mcp.ErrSessionNotFound)
}

// waitExpired waits until the state under id is gone.
func waitExpired(t *testing.T, s mcp.SessionStore, id string) {
	t.Helper()
	var err error
	eventually(t, expiryBound, func() bool {
		_, err = s.Get(t.Context(), id)
		return err != nil
	}, "the state did not expire")
	assert.ErrorIs(t, err, mcp.ErrSessionNotFound)
}

func sessionExpires(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "short", []byte("x"), expiryTTL))
	require.NoError(t, s.Put(ctx, "long", []byte("y"), sessionTTL))
	waitExpired(t, s, "short")
	got, err := s.Get(ctx, "long")
	require.NoError(t, err, "another session's ttl is its own")
	assert.Equal(t, "y", string(got))
}

func sessionTouchShortens(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("x"), sessionTTL))
	require.NoError(t, s.Touch(ctx, "s1", expiryTTL))
	waitExpired(t, s, "s1")
}

func sessionTouchExtends(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	const ttl = 500 * time.Millisecond
	require.NoError(t, s.Put(ctx, "s1", []byte("x"), ttl))
	require.NoError(t, s.Touch(ctx, "s1", sessionTTL))
	time.Sleep(ttl + 200*time.Millisecond)
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err, "the state outlived its first ttl after Touch")
	assert.Equal(t, "x", string(got))
}

func sessionTouchAbsent(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	assert.ErrorIs(t, s.Touch(ctx, "never-stored", sessionTTL), mcp.ErrSessionNotFound)
	_, err := s.Get(ctx, "never-stored")
	assert.ErrorIs(t, err, mcp.ErrSessionNotFound, "Touch does not create state")
}

func sessionTouchExpired(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("x"), expiryTTL))
	waitExpired(t, s, "s1")
	assert.ErrorIs(t, s.Touch(ctx, "s1", sessionTTL), mcp.ErrSessionNotFound)
}

func sessionPutAfterExpiry(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("old"), expiryTTL))
	waitExpired(t, s, "s1")
	require.NoError(t, s.Put(ctx, "s1", []byte("new"), sessionTTL))
	got, err := s.Get(ctx, "s1")
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}

func sessionDelete(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "s1", []byte("x"), sessionTTL))
	require.NoError(t, s.Delete(ctx, "s1"))
	_, err := s.Get(ctx, "s1")
	assert.ErrorIs(t, err, mcp.ErrSessionNotFound)
	assert.ErrorIs(t, s.Touch(ctx, "s1", sessionTTL), mcp.ErrSessionNotFound)
	assert.NoError(t, s.Delete(ctx, "s1"), "deleting twice")
}

func sessionDeleteAbsent(t *testing.T, s mcp.SessionStore) {
	assert.NoError(t, s.Delete(t.Context(), "never-stored"))
}

func sessionIsolation(t *testing.T, s mcp.SessionStore) {
	ctx := t.Context()
	require.NoError(t, s.Put(ctx, "a", []byte("state of a"), sessionTTL))
	require.NoError(t, s.Put(ctx, "b", []byte("state of b"), sessionTTL))
	require.NoError(t, s.Put(ctx, "a", []byte("new state of a"), sessionTTL))
	require.NoError(t, s.Delete(ctx, "a"))
	got, err := s.Get(ctx, "b")
	require.NoError(t, err)
	assert.Equal(t, "state of b", string(got))
}

// sessionConcurrent has goroutines each put, read, touch and delete their
// own sessions while all of them rewrite one shared session.
func sessionConcurrent(t *testing.T, s mcp.SessionStore) {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	const workers, rounds = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			errs <- sessionWorker(ctx, s, w, rounds)
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	got, err := s.Get(ctx, "shared")
	require.NoError(t, err)
	assert.Regexp(t, `^worker \d+ round \d+$`, string(got), "the shared state is one whole Put")
	for w := range workers {
		got, err := s.Get(ctx, fmt.Sprint("own-", w))
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprint("worker ", w, " round ", rounds-1), string(got))
	}
}

// sessionWorker is one goroutine of sessionConcurrent.
func sessionWorker(ctx context.Context, s mcp.SessionStore, w, rounds int) error {
	own := fmt.Sprint("own-", w)
	temp := fmt.Sprint("temp-", w)
	for r := range rounds {
		state := []byte(fmt.Sprint("worker ", w, " round ", r))
		for _, id := range []string{own, temp, "shared"} {
			if err := s.Put(ctx, id, state, sessionTTL); err != nil {
				return err
			}
		}
		got, err := s.Get(ctx, own)
		if err != nil {
			return err
		}
		if string(got) != string(state) {
			return fmt.Errorf("worker %d read %q, wrote %q", w, got, state)
		}
		if _, err := s.Get(ctx, "shared"); err != nil {
			return err
		}
		if err := s.Touch(ctx, own, sessionTTL); err != nil {
			return err
		}
		if err := s.Delete(ctx, temp); err != nil {
			return err
		}
	}
	return nil
}
