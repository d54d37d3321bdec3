package breaker

import (
	"fmt"
	"strconv"
	"time"
)

// Defaults of the fields of a [Rule] left zero.
const (
	DefaultFailures = 5
	DefaultOpenFor  = 30 * time.Second
	DefaultProbes   = 1
)

// A Rule is when the calls it guards open their circuits.
type Rule struct {
	// Method is the method guarded; "" guards every request, each method
	// with a circuit of its own.
	Method string
	// Name narrows Method to the requests whose params.name is Name: a
	// tool for tools/call, a prompt for prompts/get. "" guards them all,
	// each tool or prompt with a circuit of its own.
	Name string
	// Failures is how many failures in a row open a circuit;
	// [DefaultFailures] when 0.
	Failures int
	// Window bounds the run: while a circuit is closed its counts start
	// over every Window, so that only Failures failures within one window
	// open it. 0 means the run may take any time.
	Window time.Duration
	// OpenFor is how long an open circuit refuses calls before letting
	// probes through; [DefaultOpenFor] when 0.
	OpenFor time.Duration
	// Probes is how many calls a half-open circuit lets through, and how
	// many successes in a row close it; [DefaultProbes] when 0.
	Probes int
}

// For returns r guarding only method, and of it only the requests whose
// params.name is name ("" for each name apart).
func (r Rule) For(method, name string) Rule {
	r.Method, r.Name = method, name
	return r
}

// withDefaults returns r with its zero fields set, or why it cannot be
// used.
func (r Rule) withDefaults() (Rule, error) {
	switch {
	case r.Failures < 0 || r.Window < 0 || r.OpenFor < 0 || r.Probes < 0:
		return r, fmt.Errorf("breaker: rule for %s: a negative setting", r.describe())
	case r.Name != "" && r.Method == "":
		return r, fmt.Errorf("breaker: rule for %s: a name needs a method", r.describe())
	}
	if r.Failures == 0 {
		r.Failures = DefaultFailures
	}
	if r.OpenFor == 0 {
		r.OpenFor = DefaultOpenFor
	}
	if r.Probes == 0 {
		r.Probes = DefaultProbes
	}
	return r, nil
}

// describe names what r guards.
func (r Rule) describe() string {
	what := r.Method
	if what == "" {
		what = "every method"
	}
	if r.Name != "" {
		what += " " + strconv.Quote(r.Name)
	}
	return what
}
