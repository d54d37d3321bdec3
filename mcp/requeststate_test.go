package mcp

import (
	"bytes"
	"encoding/base64"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The sealer's clock is replaced through its unexported field, so these
// tests live inside the package.

func newTestSealer(t *testing.T, key []byte, ttl time.Duration) (*StateSealer, *time.Time) {
	t.Helper()
	s, err := NewStateSealer(key, ttl)
	require.NoError(t, err)
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return now }
	return s, &now
}

func TestSealedStateOpensForItsBinding(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	token, err := s.Seal([]byte("step=2;name=Alice"), "tools/call test_tool digest")
	require.NoError(t, err)
	assert.Regexp(t, `^[A-Za-z0-9_-]+$`, token, "URL-safe base64 without padding")
	got, err := s.Open(token, "tools/call test_tool digest")
	require.NoError(t, err)
	assert.Equal(t, []byte("step=2;name=Alice"), got)
}

func TestSealingTwiceGivesDifferentTokens(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	a, err := s.Seal([]byte("x"), "b")
	require.NoError(t, err)
	b, err := s.Seal([]byte("x"), "b")
	require.NoError(t, err)
	assert.NotEqual(t, a, b)
}

func TestEmptyStateRoundTrips(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	for _, state := range [][]byte{nil, {}} {
		token, err := s.Seal(state, "b")
		require.NoError(t, err)
		got, err := s.Open(token, "b")
		require.NoError(t, err)
		assert.Empty(t, got)
	}
}

func TestTamperedStateIsInvalid(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	token, err := s.Seal([]byte("confirm"), "b")
	require.NoError(t, err)
	raw, err := base64.RawURLEncoding.DecodeString(token)
	require.NoError(t, err)
	for i := range raw {
		changed := bytes.Clone(raw)
		changed[i] ^= 0x01
		_, err := s.Open(base64.RawURLEncoding.EncodeToString(changed), "b")
		require.ErrorIs(t, err, ErrStateInvalid, "byte %d flipped", i)
	}
	tests := map[string]string{
		"appended text":      token + "-TAMPERED",
		"truncated":          token[:len(token)-4],
		"too short":          "AAAA",
		"empty":              "",
		"not base64":         "!!!" + token,
		"standard base64":    base64.StdEncoding.EncodeToString(raw),
		"one character more": token + "A",
	}
	for name, bad := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := s.Open(bad, "b")
			assert.ErrorIs(t, err, ErrStateInvalid)
			assert.NotErrorIs(t, err, ErrStateExpired)
		})
	}
}

func TestStateForAnotherBindingIsInvalid(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	token, err := s.Seal([]byte("x"), "tools/call a")
	require.NoError(t, err)
	for _, other := range []string{"tools/call b", "", "tools/call a ", "prompts/get a"} {
		_, err := s.Open(token, other)
		assert.ErrorIs(t, err, ErrStateInvalid, "binding %q", other)
	}
}

func TestStateUnderAnotherKeyIsInvalid(t *testing.T) {
	a, _ := newTestSealer(t, bytes.Repeat([]byte{1}, 32), 0)
	b, _ := newTestSealer(t, bytes.Repeat([]byte{2}, 32), 0)
	token, err := a.Seal([]byte("x"), "b")
	require.NoError(t, err)
	_, err = b.Open(token, "b")
	assert.ErrorIs(t, err, ErrStateInvalid)

	same, _ := newTestSealer(t, bytes.Repeat([]byte{1}, 32), 0)
	got, err := same.Open(token, "b")
	require.NoError(t, err, "a sealer with the same key opens it")
	assert.Equal(t, []byte("x"), got)
}

func TestStateExpiresAfterItsTTL(t *testing.T) {
	s, now := newTestSealer(t, nil, time.Minute)
	token, err := s.Seal([]byte("x"), "b")
	require.NoError(t, err)
	*now = now.Add(time.Minute - time.Millisecond)
	_, err = s.Open(token, "b")
	require.NoError(t, err, "still valid just before the TTL")
	*now = now.Add(time.Millisecond)
	_, err = s.Open(token, "b")
	assert.ErrorIs(t, err, ErrStateExpired)
	assert.NotErrorIs(t, err, ErrStateInvalid)
}

func TestTheDefaultTTLIsTenMinutes(t *testing.T) {
	for _, ttl := range []time.Duration{0, -time.Second} {
		s, now := newTestSealer(t, nil, ttl)
		token, err := s.Seal([]byte("x"), "b")
		require.NoError(t, err)
		*now = now.Add(10*time.Minute - time.Second)
		_, err = s.Open(token, "b")
		require.NoError(t, err)
		*now = now.Add(time.Second)
		_, err = s.Open(token, "b")
		assert.ErrorIs(t, err, ErrStateExpired)
	}
}

func TestStateKeyLength(t *testing.T) {
	for _, n := range []int{16, 24, 32} {
		_, err := NewStateSealer(make([]byte, n), 0)
		assert.NoError(t, err, "%d bytes", n)
	}
	for _, n := range []int{0, 1, 15, 31, 33, 64} {
		_, err := NewStateSealer(make([]byte, n), 0)
		assert.ErrorContains(t, err, "want 16, 24 or 32 bytes", "%d bytes", n)
	}
}

func TestARandomKeySealerDrawsItsKeyOnceUnderConcurrentFirstUse(t *testing.T) {
	s, _ := newTestSealer(t, nil, 0)
	other, _ := newTestSealer(t, nil, 0)
	const n = 8
	tokens := make([]string, n)
	var wg sync.WaitGroup
	for i := range tokens {
		wg.Go(func() {
			tok, err := s.Seal([]byte{byte(i)}, "b")
			assert.NoError(t, err)
			tokens[i] = tok
		})
	}
	wg.Wait()
	for i, tok := range tokens {
		got, err := s.Open(tok, "b")
		require.NoError(t, err, "token %d: every seal used the one key", i)
		assert.Equal(t, []byte{byte(i)}, got)
		_, err = other.Open(tok, "b")
		assert.ErrorIs(t, err, ErrStateInvalid, "token %d: another random-key sealer has another key", i)
	}
}

func TestARandomKeySealerOpensNothingBeforeItSealed(t *testing.T) {
	sealer, _ := newTestSealer(t, nil, 0)
	keyed, _ := newTestSealer(t, bytes.Repeat([]byte{7}, 32), 0)
	tok, err := keyed.Seal([]byte("x"), "b")
	require.NoError(t, err)
	_, err = sealer.Open(tok, "b")
	assert.ErrorIs(t, err, ErrStateInvalid, "a first Open draws the key too, and no other sealer's token opens")
}
