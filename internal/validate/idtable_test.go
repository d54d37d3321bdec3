package validate

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An id removed and put again is younger than the ids put in between:
// eviction takes those first.
func TestIDTableEvictsByTheLatestInsertion(t *testing.T) {
	tb := newIDTable(3)
	tb.put("a", request{method: "1"})
	tb.put("b", request{})
	tb.remove("a")
	tb.put("a", request{method: "2"})
	tb.put("c", request{})
	assert.True(t, tb.put("d", request{}), "full: one is evicted")
	_, hasB := tb.get("b")
	assert.False(t, hasB, "b is the oldest")
	r, hasA := tb.get("a")
	require.True(t, hasA, "a was put again after b")
	assert.Equal(t, "2", r.method)
	assert.Equal(t, 3, tb.len())
}

// However long the stream, the insertion log stays proportional to the
// table.
func TestIDTableLogStaysBounded(t *testing.T) {
	tb := newIDTable(100)
	for i := range 100_000 {
		tb.put(fmt.Sprint(i), request{})
		if i%3 == 0 {
			tb.remove(fmt.Sprint(i - 1))
		}
	}
	assert.LessOrEqual(t, tb.len(), 100)
	assert.Less(t, len(tb.order), 2*100+64+100+1)
}
