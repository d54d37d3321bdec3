package mcp

import (
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBytesGivenBackThroughTheirCountLeaveNothingCounted(t *testing.T) {
	b := newBudget(1<<20, 1<<16)
	a := account{"session", "s"}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for i := range 200 {
				held, err := b.take(a, 100)
				if !assert.Nil(t, err) {
					return
				}
				// Other accounts come and go meanwhile, so that sweeps run
				// while a's count is out.
				other := account{"address", strconv.Itoa(w*1000 + i)}
				if h, err := b.take(other, 1); err == nil {
					b.giveHeld(h, 1)
				}
				b.giveHeld(held, 100)
			}
		})
	}
	wg.Wait()
	total, mine := b.usage(a)
	assert.Zero(t, total)
	assert.Zero(t, mine)
	b.mu.Lock()
	defer b.mu.Unlock()
	for acc, held := range b.accounts {
		assert.Zero(t, held.Load(), "%v", acc)
	}
}

func TestATakePastTheShareCountsNothing(t *testing.T) {
	b := newBudget(1<<20, 1000)
	a := account{"session", "s"}
	held, err := b.take(a, 900)
	require.Nil(t, err)
	_, err = b.take(a, 200)
	require.NotNil(t, err)
	assert.Contains(t, err.Message, limitShare)
	total, mine := b.usage(a)
	assert.Equal(t, int64(900), total)
	assert.Equal(t, int64(900), mine)
	b.giveHeld(held, 900)
	total, mine = b.usage(a)
	assert.Zero(t, total)
	assert.Zero(t, mine)
}

func TestAnAccountTakenFromAgainAfterASweepDroppedItIsCountedInTheMap(t *testing.T) {
	b := newBudget(1<<20, 1000)
	a := account{"session", "s"}
	held, err := b.take(a, 100)
	require.Nil(t, err)
	b.giveHeld(held, 100)
	// a is the account looked up last, and empty: enough new accounts
	// make a sweep drop it.
	for i := range minSweep + 1 {
		h, err := b.take(account{"address", strconv.Itoa(i)}, 1)
		require.Nil(t, err)
		b.giveHeld(h, 1)
	}
	b.mu.Lock()
	_, kept := b.accounts[a]
	b.mu.Unlock()
	require.False(t, kept, "the sweep dropped the empty account")

	held, err = b.take(a, 900)
	require.Nil(t, err)
	_, err = b.take(a, 200)
	require.NotNil(t, err, "the second take is counted with the first: together past the share")
	_, mine := b.usage(a)
	assert.Equal(t, int64(900), mine, "the count the map holds is the one taken from")
	b.giveHeld(held, 900)
}
