package mcp

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A stream the client acknowledged having is forgotten when its events
// are all the session has had: a replay from before its last event is
// refused, one from its last event replays nothing, and the session's
// next events get new ids and are replayed as ever. With another stream's
// events stored, nothing is forgotten.
func TestTheStoreForgetsAnAcknowledgedStream(t *testing.T) {
	ctx := context.Background()
	replay := func(m *MemoryEventStore, id string) ([]string, error) {
		var got []string
		_, err := m.Replay(ctx, "s", id, func(id string, _ []byte) error { got = append(got, id); return nil })
		return got, err
	}
	t.Run("alone", func(t *testing.T) {
		m := NewMemoryEventStore(nil)
		prime, err := m.Append(ctx, "s", "1", nil)
		require.NoError(t, err)
		last, err := m.Append(ctx, "s", "1", []byte(`{"result":{}}`))
		require.NoError(t, err)
		m.forgetStream("s", "1")
		assert.Empty(t, m.sessions["s"].events)
		_, err = replay(m, prime)
		assert.ErrorIs(t, err, ErrEventNotFound, "a replay that would miss the forgotten answer")
		got, err := replay(m, last)
		require.NoError(t, err)
		assert.Empty(t, got)

		next, err := m.Append(ctx, "s", "0", []byte(`{"method":"n"}`))
		require.NoError(t, err)
		assert.NotEqual(t, last, next)
		after, err := m.Append(ctx, "s", "0", []byte(`{"method":"m"}`))
		require.NoError(t, err)
		got, err = replay(m, next)
		require.NoError(t, err)
		assert.Equal(t, []string{after}, got)
	})
	t.Run("beside another stream", func(t *testing.T) {
		m := NewMemoryEventStore(nil)
		prime, err := m.Append(ctx, "s", "1", nil)
		require.NoError(t, err)
		_, err = m.Append(ctx, "s", "0", []byte(`{"method":"n"}`))
		require.NoError(t, err)
		last, err := m.Append(ctx, "s", "1", []byte(`{"result":{}}`))
		require.NoError(t, err)
		m.forgetStream("s", "1")
		got, err := replay(m, prime)
		require.NoError(t, err)
		assert.Equal(t, []string{last}, got)
	})
}
