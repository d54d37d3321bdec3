package ratelimit

import (
	"context"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// DefaultMaxKeys is how many clients a rule tracks at once when
// [Options].MaxKeys is 0.
const DefaultMaxKeys = 10000

// Options tune a [Limiter]; the zero value is the default.
type Options struct {
	// MaxKeys bounds the clients each rule tracks: 0 means
	// [DefaultMaxKeys], a negative value no bound. Past it the requests of
	// clients not tracked yet share one bucket of the rule (as if they
	// were one client) until buckets of tracked clients fill up again and
	// are forgotten.
	MaxKeys int
	// Now is the clock; nil means time.Now. Tests set it.
	Now func() time.Time
}

// A Limiter admits or refuses requests by its rules. It is safe for
// concurrent use; one Limiter may serve several servers, whose clients then
// share its buckets.
type Limiter struct {
	now   func() time.Time
	mu    sync.Mutex
	rules []*table
}

// New returns a Limiter enforcing rules; it fails on a rule with no
// positive rate, a burst below 1, or a name without a method. With no
// rules it admits everything.
func New(opts Options, rules ...Rule) (*Limiter, error) {
	l := &Limiter{now: opts.Now}
	if l.now == nil {
		l.now = time.Now
	}
	maxKeys := opts.MaxKeys
	switch {
	case maxKeys == 0:
		maxKeys = DefaultMaxKeys
	case maxKeys < 0:
		maxKeys = 0
	}
	for _, r := range rules {
		if err := r.check(); err != nil {
			return nil, err
		}
		if r.Key == nil {
			r.Key = ByClient
		}
		l.rules = append(l.rules, newTable(r, maxKeys))
	}
	return l, nil
}

// Allow takes a token from every rule req matches and reports nil, or,
// when one of them has none, takes nothing and returns the refusal:
// rpc.RateLimited with the wait until every rule could admit req, naming
// the rule that asks for the longest wait. Notifications are always
// admitted and counted nowhere. A nil Limiter admits everything.
func (l *Limiter) Allow(ctx context.Context, req *rpc.Request) error {
	if l == nil || req.IsNotification() || len(l.rules) == 0 {
		return nil
	}
	// Keys first, outside the lock: a KeyFunc is the user's code.
	type hit struct {
		t   *table
		key any
	}
	var hitsBuf [4]hit
	hits := hitsBuf[:0]
	for _, t := range l.rules {
		if t.rule.matches(req) {
			hits = append(hits, hit{t, t.rule.Key(ctx, req)})
		}
	}
	if len(hits) == 0 {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var longest time.Duration
	var refusing *table
	for _, h := range hits {
		if d := wait(h.t.bucket(h.key, now), now); d > longest {
			longest, refusing = d, h.t
		}
	}
	if refusing != nil {
		return rpc.RateLimited(longest, refusing.desc)
	}
	for _, h := range hits {
		h.t.bucket(h.key, now).AllowN(now, 1)
	}
	return nil
}

// Middleware returns the middleware that runs a request only when Allow
// admits it, and answers it with the refusal otherwise. A nil Limiter, or
// one without rules, gives middleware that adds nothing to a request.
func (l *Limiter) Middleware() rpc.Middleware {
	if l == nil || len(l.rules) == 0 {
		return func(next rpc.Handler) rpc.Handler { return next }
	}
	return func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			if err := l.Allow(ctx, req); err != nil {
				return nil, err
			}
			return next.Handle(ctx, req)
		})
	}
}
