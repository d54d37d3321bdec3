package load

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestPercentileUsesNearestRank(t *testing.T) {
	hundred := make([]time.Duration, 100)
	for i := range hundred {
		hundred[i] = time.Duration(i+1) * time.Microsecond
	}
	tests := []struct {
		name   string
		sorted []time.Duration
		p      float64
		want   time.Duration
	}{
		{"empty gives zero", nil, 50, 0},
		{"single value", []time.Duration{7}, 99, 7},
		{"p50 of 100", hundred, 50, 50 * time.Microsecond},
		{"p90 of 100", hundred, 90, 90 * time.Microsecond},
		{"p99 of 100", hundred, 99, 99 * time.Microsecond},
		{"p100 is the maximum", hundred, 100, 100 * time.Microsecond},
		{"tiny p is the minimum", hundred, 0.001, time.Microsecond},
		{"p99 of 3 is the maximum", []time.Duration{1, 2, 3}, 99, 3},
		{"p50 of 4 is the second", []time.Duration{1, 2, 3, 4}, 50, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Percentile(tt.sorted, tt.p))
		})
	}
}

func TestMedianOfOddEvenAndEmpty(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
	}{
		{"odd count takes the middle", []float64{5, 1, 3}, 3},
		{"even count averages the middle two", []float64{4, 1, 3, 2}, 2.5},
		{"one value", []float64{9}, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Median(tt.xs))
		})
	}
	assert.True(t, math.IsNaN(Median(nil)), "the median of nothing is NaN")
}

func TestMedianLeavesItsInputUnsorted(t *testing.T) {
	xs := []float64{3, 1, 2}
	Median(xs)
	assert.Equal(t, []float64{3, 1, 2}, xs)
}

func TestSpreadGivesExtremesQuartilesAndMedian(t *testing.T) {
	xs := []float64{9, 1, 5, 3, 7, 2, 8, 4, 6}
	got := spreadOf(xs)
	assert.Equal(t, Spread{N: 9, Min: 1, Q1: 3, Median: 5, Q3: 7, Max: 9}, got)
	assert.Equal(t, []float64{9, 1, 5, 3, 7, 2, 8, 4, 6}, xs, "the samples keep their order")
	assert.Equal(t, Spread{N: 1, Min: 4, Q1: 4, Median: 4, Q3: 4, Max: 4}, spreadOf([]float64{4}))
	assert.Equal(t, Num(2.5), spreadOf([]float64{3, 2}).Median, "an even count takes the mean of the middle two")
}

func TestSpreadOfNoSamplesIsMissing(t *testing.T) {
	s := spreadOf(nil)
	assert.Zero(t, s.N)
	for _, n := range []Num{s.Min, s.Q1, s.Median, s.Q3, s.Max} {
		assert.False(t, n.OK())
	}
}
