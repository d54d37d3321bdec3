package ratelimit

import (
	"fmt"
	"strconv"
	"time"

	"golang.org/x/time/rate"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// A Rule is one limit: which requests it counts, how many it admits, and
// per whom.
type Rule struct {
	// Method is the method counted; "" counts every request.
	Method string
	// Name narrows Method to the requests whose params.name is Name: a
	// tool for tools/call, a prompt for prompts/get. "" counts them all.
	Name string
	// Rate is how many requests a client may make per second in the long
	// run; it must be positive.
	Rate rate.Limit
	// Burst is how many requests a client may make at once, after a pause
	// long enough to fill its bucket; at least 1.
	Burst int
	// Key names the client a request counts against; nil means
	// [ByClient].
	Key KeyFunc
	// Description names the rule in refusals (error.data.limit); by
	// default it is built from the fields above, like
	// `tools/call "search": 10 per 1m0s`.
	Description string

	period time.Duration // set by Quota, for the description
}

// Quota is the rule admitting n requests per period: a bucket of n that
// refills at n per period. It is a token bucket, not a calendar window: a
// client that used its n requests gets one more each period/n. Narrow it
// with [Rule.For] and choose its clients with [Rule.By].
func Quota(n int, per time.Duration) Rule {
	return Rule{Rate: rate.Limit(float64(n) / per.Seconds()), Burst: n, period: per}
}

// For returns r counting only method, and of it only the requests whose
// params.name is name ("" for all of them).
func (r Rule) For(method, name string) Rule {
	r.Method, r.Name = method, name
	return r
}

// By returns r keyed by key.
func (r Rule) By(key KeyFunc) Rule {
	r.Key = key
	return r
}

// check reports why r cannot be used, nil when it can.
func (r Rule) check() error {
	switch {
	case !(r.Rate > 0):
		return fmt.Errorf("ratelimit: rule %s: the rate must be positive", r.describe())
	case r.Burst < 1:
		return fmt.Errorf("ratelimit: rule %s: the burst must be at least 1", r.describe())
	case r.Name != "" && r.Method == "":
		return fmt.Errorf("ratelimit: rule %s: a name needs a method", r.describe())
	}
	return nil
}

// describe is the rule's name in refusals.
func (r Rule) describe() string {
	if r.Description != "" {
		return r.Description
	}
	what := r.Method
	if what == "" {
		what = "every request"
	}
	if r.Name != "" {
		what += " " + strconv.Quote(r.Name)
	}
	if r.period > 0 {
		return fmt.Sprintf("%s: %d per %s", what, r.Burst, r.period)
	}
	return fmt.Sprintf("%s: %g/s, burst %d", what, float64(r.Rate), r.Burst)
}

// matches reports whether r counts req.
func (r Rule) matches(req *rpc.Request) bool {
	if r.Method != "" && req.Method != r.Method {
		return false
	}
	if r.Name == "" {
		return true
	}
	name, ok := jsonscan.Member(req.Params, "name")
	return ok && jsonscan.StringIs(name, r.Name)
}
