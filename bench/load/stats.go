package load

import (
	"cmp"
	"math"
	"slices"
)

// Percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method, or the zero value when sorted is empty.
func Percentile[T cmp.Ordered](sorted []T, p float64) T {
	if len(sorted) == 0 {
		var zero T
		return zero
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// Median returns the median of xs (the mean of the two middle values when
// len(xs) is even), or NaN when xs is empty. xs is not modified.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	mid := len(s) / 2
	if len(s)%2 == 1 {
		return s[mid]
	}
	return (s[mid-1] + s[mid]) / 2
}

// Spread describes a handful of samples: their count, extremes, quartiles
// (nearest rank) and median. Missing figures (no samples) are NaN.
type Spread struct {
	N      int `json:"n"`
	Min    Num `json:"min"`
	Q1     Num `json:"q1"`
	Median Num `json:"median"`
	Q3     Num `json:"q3"`
	Max    Num `json:"max"`
}

// spreadOf describes xs, which it does not modify.
func spreadOf(xs []float64) Spread {
	if len(xs) == 0 {
		return Spread{Min: missing, Q1: missing, Median: missing, Q3: missing, Max: missing}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return Spread{
		N: len(s), Min: Num(s[0]), Q1: Num(Percentile(s, 25)), Median: Num(Median(s)),
		Q3: Num(Percentile(s, 75)), Max: Num(s[len(s)-1]),
	}
}
