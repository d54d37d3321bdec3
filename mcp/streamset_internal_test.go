package mcp

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestStream returns a stream named name with these requests pending.
func newTestStream(name string, ids ...string) *stream {
	st := &stream{id: name}
	for _, id := range ids {
		st.pending.add(id)
	}
	return st
}

func TestStreamSetHoldsALoneStreamWithoutMaps(t *testing.T) {
	var s streamSet
	a := newTestStream("1", "7")
	s.add(a)
	assert.Nil(t, s.byName, "one stream made a map")
	assert.Nil(t, s.byID, "one stream made a map")
	assert.Same(t, a, s.named("1"))
	assert.Same(t, a, s.holding("7"))
	assert.Nil(t, s.named("2"))
	assert.Nil(t, s.holding("8"))

	require.True(t, s.answered(a, "7"))
	assert.False(t, s.answered(a, "7"), "an id is answered once")
	assert.Nil(t, s.holding("7"))
	assert.Same(t, a, s.named("1"), "the stream lives until it is removed")
	require.True(t, s.remove(a))
	assert.False(t, s.remove(a), "a stream is removed once")
	assert.Equal(t, streamSet{}, s)
}

func TestStreamSetFindsEveryStreamWhileSeveralAreLive(t *testing.T) {
	var s streamSet
	a, b, c := newTestStream("1", "1"), newTestStream("2", "2", "3"), newTestStream("3", `"x"`)
	for _, st := range []*stream{a, b, c} {
		s.add(st)
	}
	tests := []struct {
		id   string
		want *stream
	}{{"1", a}, {"2", b}, {"3", b}, {`"x"`, c}, {"4", nil}}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			assert.Same(t, tt.want, s.holding(tt.id))
			if tt.want != nil {
				assert.Same(t, tt.want, s.named(tt.want.id))
			}
		})
	}
	assert.False(t, s.answered(a, "2"), "a stream answers only its own requests")
	assert.Same(t, b, s.holding("2"))
	require.True(t, s.answered(b, "2"))
	assert.Nil(t, s.holding("2"))
	assert.Same(t, b, s.holding("3"))

	var seen []*stream
	s.each(func(st *stream) { seen = append(seen, st) })
	assert.ElementsMatch(t, []*stream{a, b, c}, seen)
}

func TestStreamSetDropsItsMapsOnceOneStreamIsLeft(t *testing.T) {
	var s streamSet
	a, b := newTestStream("1", "1"), newTestStream("2", "2", "3")
	s.add(a)
	s.add(b)
	require.NotNil(t, s.byName)
	require.True(t, s.remove(a))
	assert.Nil(t, s.byName, "one stream left, still in maps")
	assert.Nil(t, s.byID, "one stream left, still in maps")
	assert.Same(t, b, s.named("2"))
	assert.Same(t, b, s.holding("3"))
	assert.Nil(t, s.holding("1"), "the removed stream's ids went with it")
	assert.Nil(t, s.named("1"))

	c := newTestStream("3", "1")
	s.add(c)
	assert.Same(t, c, s.holding("1"), "an id is free again once its stream is gone")
	assert.Same(t, b, s.holding("2"))
	s.clear()
	assert.Equal(t, streamSet{}, s)
	assert.False(t, s.remove(b), "a cleared set holds nothing")
}

func TestIDSetTellsWhatItContains(t *testing.T) {
	var s idSet
	assert.False(t, s.contains("1"))
	s.add("1")
	s.add("2")
	assert.True(t, s.contains("1"))
	assert.True(t, s.contains("2"))
	assert.False(t, s.contains("3"))
	var each []string
	s.each(func(id string) { each = append(each, id) })
	assert.ElementsMatch(t, []string{"1", "2"}, each)
	s.remove("1")
	assert.False(t, s.contains("1"))
}
