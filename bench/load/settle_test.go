package load

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// samples returns a read function that gives xs in turn, then the last
// one forever, and counts its calls.
func samples(xs ...int64) (func() (int64, error), *int) {
	n := 0
	return func() (int64, error) {
		v := xs[min(n, len(xs)-1)]
		n++
		return v, nil
	}, &n
}

func TestSettleWaitsForSamplesThatAgree(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name      string
		xs        []int64
		want      int64
		wantReads int
	}{
		{"steady from the start", []int64{5 * mib, 5 * mib, 5 * mib}, 5 * mib, 3},
		{"falls, then holds", []int64{9 * mib, 7 * mib, 6 * mib, 6 * mib, 6*mib + 4096}, 6*mib + 4096, 5},
		{"small moves count as steady", []int64{mib, mib + settleTolerance, mib + 1000}, mib + 1000, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read, reads := samples(tt.xs...)
			v, ok, err := settle(context.Background(), read, time.Millisecond, 40)
			require.NoError(t, err)
			assert.True(t, ok)
			assert.Equal(t, tt.want, v)
			assert.Equal(t, tt.wantReads, *reads)
		})
	}
}

func TestSettleGivesUpAfterItsSamples(t *testing.T) {
	n := int64(0)
	growing := func() (int64, error) { n += 1 << 20; return n, nil }
	v, ok, err := settle(context.Background(), growing, time.Millisecond, 5)
	require.NoError(t, err)
	assert.False(t, ok, "a size that keeps moving has not settled")
	assert.Equal(t, int64(5<<20), v, "the last of the five samples")
}

func TestSettleFailsOnAReadError(t *testing.T) {
	_, _, err := settle(context.Background(), func() (int64, error) { return 0, errors.New("gone") }, time.Millisecond, 5)
	assert.ErrorContains(t, err, "gone")
}

func TestSettleEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := int64(0)
	growing := func() (int64, error) { n += 1 << 20; return n, nil }
	_, _, err := settle(ctx, growing, time.Hour, 5)
	assert.ErrorIs(t, err, context.Canceled)
}
