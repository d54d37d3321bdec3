package ratelimit

import (
	"time"

	"golang.org/x/time/rate"
)

// sweepEvery is how often, at most, a rule whose table is full looks for
// buckets to forget.
const sweepEvery = time.Second

// minSweep is the table size below which a rule never sweeps.
const minSweep = 64

// table holds a rule's buckets, one per client key. The Limiter's lock
// guards it.
type table struct {
	rule    Rule
	desc    string
	maxKeys int // 0: no bound
	buckets map[any]*rate.Limiter
	// overflow is the bucket shared by clients not tracked because the
	// table is full.
	overflow  *rate.Limiter
	sweepAt   int       // the size at which a new key sweeps first
	lastSweep time.Time // of a sweep of the full table
}

func newTable(r Rule, maxKeys int) *table {
	return &table{rule: r, desc: r.describe(), maxKeys: maxKeys, buckets: map[any]*rate.Limiter{}, sweepAt: minSweep}
}

// wait is the time from now until bucket b has a token, 0 when it has one
// now.
func wait(b *rate.Limiter, now time.Time) time.Duration {
	tokens := b.TokensAt(now)
	if tokens >= 1 {
		return 0
	}
	d := time.Duration((1 - tokens) / float64(b.Limit()) * float64(time.Second))
	return max(d, 1)
}

// refilled reports whether bucket b is back at its burst, and so no
// different from a new bucket.
func refilled(b *rate.Limiter, now time.Time) bool {
	return b.TokensAt(now) >= float64(b.Burst())
}

// bucket returns key's bucket, making it when key is new. A new key first
// sweeps the table when it has grown enough since the last sweep (so that
// sweeping costs each new key a bounded share), and, when the table is at
// its bound, at most once every sweepEvery; if the table is still full,
// the key gets the overflow bucket.
func (t *table) bucket(key any, now time.Time) *rate.Limiter {
	if b, ok := t.buckets[key]; ok {
		return b
	}
	n := len(t.buckets)
	atBound := t.maxKeys > 0 && n >= t.maxKeys
	if n >= t.sweepAt || atBound && now.Sub(t.lastSweep) >= sweepEvery {
		t.sweep(now)
		n = len(t.buckets)
		atBound = t.maxKeys > 0 && n >= t.maxKeys
	}
	if atBound {
		if t.overflow == nil {
			t.overflow = t.newBucket()
		}
		return t.overflow
	}
	b := t.newBucket()
	t.buckets[key] = b
	return b
}

func (t *table) newBucket() *rate.Limiter {
	return rate.NewLimiter(t.rule.Rate, t.rule.Burst)
}

// sweep forgets the buckets that have refilled.
func (t *table) sweep(now time.Time) {
	for k, b := range t.buckets {
		if refilled(b, now) {
			delete(t.buckets, k)
		}
	}
	if t.overflow != nil && refilled(t.overflow, now) {
		t.overflow = nil
	}
	t.lastSweep = now
	t.sweepAt = max(2*len(t.buckets), minSweep)
}
