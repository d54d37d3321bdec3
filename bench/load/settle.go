package load

import (
	"context"
	"time"
)

// settleRun is how many samples in a row must agree for a server's RSS to
// count as settled, and settleTolerance how far apart they may lie.
const (
	settleRun       = 3
	settleTolerance = 64 << 10
)

// settle samples read every interval until settleRun samples in a row lie
// within settleTolerance of each other, at most samples times, and returns
// the last sample and whether it settled. A Go server's RSS moves for a
// while after work stops (the collector runs, the scavenger returns pages),
// so a size read at once would count passing garbage.
func settle(ctx context.Context, read func() (int64, error), interval time.Duration, samples int) (int64, bool, error) {
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	var seen []int64
	for {
		v, err := read()
		if err != nil {
			return 0, false, err
		}
		seen = append(seen, v)
		if steady(seen) {
			return v, true, nil
		}
		if len(seen) >= samples {
			return v, false, nil
		}
		select {
		case <-ctx.Done():
			return 0, false, ctx.Err()
		case <-ticker.C:
		}
	}
}

// steady reports whether the last settleRun samples lie within
// settleTolerance of each other.
func steady(seen []int64) bool {
	if len(seen) < settleRun {
		return false
	}
	last := seen[len(seen)-settleRun:]
	return max(last[0], last[1], last[2])-min(last[0], last[1], last[2]) <= settleTolerance
}
