package breaker

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/otelcore"
	"github.com/schemarpc/schemarpc/rpc"
)

// DefaultMaxBreakers is how many circuits a [Breakers] makes at most when
// [Options].MaxBreakers is 0.
const DefaultMaxBreakers = 1000

// ScopeName is the instrumentation scope of the meter.
const ScopeName = otelcore.ScopeName + "/mcp/breaker"

// The metrics a [Breakers] records, each with the attributes
// mcp.method.name and, for a tool or prompt, gen_ai.tool.name or
// gen_ai.prompt.name.
const (
	// MetricStateChanges counts the changes of state of circuits, with
	// mcp.circuit_breaker.state (the new one) and
	// mcp.circuit_breaker.previous_state.
	MetricStateChanges = "mcp.server.circuit_breaker.state_changes"
	// MetricRefused counts the calls an open circuit answered at once.
	MetricRefused = "mcp.server.circuit_breaker.refused_requests"
)

// Attribute keys of [MetricStateChanges].
const (
	KeyState         = attribute.Key("mcp.circuit_breaker.state")
	KeyPreviousState = attribute.Key("mcp.circuit_breaker.previous_state")
)

// A State is where a circuit is.
type State string

// The states of a circuit.
const (
	// Closed: calls run, and their failures are counted.
	Closed State = "closed"
	// Open: calls are refused at once until the circuit's OpenFor passed.
	Open State = "open"
	// HalfOpen: a few calls run as probes; they close or reopen it.
	HalfOpen State = "half-open"
)

func stateOf(s gobreaker.State) State {
	switch s {
	case gobreaker.StateOpen:
		return Open
	case gobreaker.StateHalfOpen:
		return HalfOpen
	}
	return Closed
}

// Options tune a [Breakers]; the zero value is the default.
type Options struct {
	// Classify tells what a call's answer means for its circuit; nil means
	// [Classify].
	Classify func(req *rpc.Request, res any, err error) Outcome
	// Logger receives every change of state (opening at Warn, the others
	// at Info); nil means slog.Default().
	Logger *slog.Logger
	// MeterProvider is where the metrics go; nil means the global one
	// (otel.GetMeterProvider).
	MeterProvider metric.MeterProvider
	// MaxBreakers bounds the circuits: 0 means [DefaultMaxBreakers], a
	// negative value no bound. Past it the methods and tools that have no
	// circuit yet are not guarded.
	MaxBreakers int
}

// Breakers are the circuit breakers of a server or router. They are safe
// for concurrent use.
type Breakers struct {
	rules    []Rule
	classify func(req *rpc.Request, res any, err error) Outcome
	log      *slog.Logger
	changes  metric.Int64Counter
	refused  metric.Int64Counter
	max      int

	mu       sync.Mutex
	circuits map[circuitKey]*circuit
	full     bool // the bound was hit (and logged)
}

// circuitKey names a circuit: its rule, and the method and tool or prompt
// it guards.
type circuitKey struct {
	rule         int
	method, name string
}

// circuit is one breaker.
type circuit struct {
	cb        *gobreaker.TwoStepCircuitBreaker[struct{}]
	rule      Rule
	desc      string               // what it guards, in refusals and logs
	attrs     []attribute.KeyValue // what it guards, in metrics
	openUntil atomic.Int64         // when an open circuit lets probes through (unix ns)
}

// New returns Breakers guarding the requests of rules; each request is
// guarded by the first rule that matches it. It fails on a rule with a
// negative setting or a name without a method.
func New(opts Options, rules ...Rule) (*Breakers, error) {
	b := &Breakers{classify: opts.Classify, log: opts.Logger, circuits: map[circuitKey]*circuit{}}
	if b.classify == nil {
		b.classify = Classify
	}
	if b.log == nil {
		b.log = slog.Default()
	}
	switch {
	case opts.MaxBreakers == 0:
		b.max = DefaultMaxBreakers
	case opts.MaxBreakers > 0:
		b.max = opts.MaxBreakers
	}
	for _, r := range rules {
		r, err := r.withDefaults()
		if err != nil {
			return nil, err
		}
		b.rules = append(b.rules, r)
	}
	mp := opts.MeterProvider
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	m := mp.Meter(ScopeName)
	var err error
	if b.changes, err = m.Int64Counter(MetricStateChanges, metric.WithUnit("{change}"),
		metric.WithDescription("Changes of state of circuit breakers.")); err != nil {
		return nil, err
	}
	if b.refused, err = m.Int64Counter(MetricRefused, metric.WithUnit("{request}"),
		metric.WithDescription("Requests an open circuit breaker refused without running them.")); err != nil {
		return nil, err
	}
	return b, nil
}

// Middleware returns the middleware that runs a request through its
// circuit: at once refused while the circuit is open, else run and its
// outcome counted. Breakers without rules give middleware that adds
// nothing to a request.
func (b *Breakers) Middleware() rpc.Middleware {
	if b == nil || len(b.rules) == 0 {
		return func(next rpc.Handler) rpc.Handler { return next }
	}
	return func(next rpc.Handler) rpc.Handler {
		return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
			return b.handle(ctx, req, next)
		})
	}
}

// State returns the state of the circuit that guards the calls of method
// (and of name, a tool or prompt, for tools/call and prompts/get):
// Closed when there is none.
func (b *Breakers) State(method, name string) State {
	k, ok := b.keyOf(method, name)
	if !ok {
		return Closed
	}
	b.mu.Lock()
	c := b.circuits[k]
	b.mu.Unlock()
	if c == nil {
		return Closed
	}
	return stateOf(c.cb.State())
}

// errFailed and errIgnored tell gobreaker an outcome.
var (
	errFailed  = errors.New("breaker: failed")
	errIgnored = errors.New("breaker: ignored")
)

func (o Outcome) err() error {
	switch o {
	case Failure:
		return errFailed
	case Ignored:
		return errIgnored
	}
	return nil
}

func (b *Breakers) handle(ctx context.Context, req *rpc.Request, next rpc.Handler) (any, error) {
	if req.IsNotification() {
		return next.Handle(ctx, req)
	}
	k, ok := b.keyOf(req.Method, nameOf(req))
	if !ok {
		return next.Handle(ctx, req)
	}
	b.mu.Lock()
	c := b.circuits[k]
	b.mu.Unlock()
	outcome := Failure // a panic is one
	if c == nil {
		// No circuit until the first failure: names a client makes up
		// cost nothing.
		defer func() {
			if outcome == Failure {
				b.firstFailure(k)
			}
		}()
	} else {
		done, err := c.cb.Allow()
		if err != nil {
			b.refused.Add(ctx, 1, metric.WithAttributes(c.attrs...))
			return nil, rpc.RetryLater("circuit open", c.retryAfter(errors.Is(err, gobreaker.ErrTooManyRequests)), "circuit breaker of "+c.desc)
		}
		defer func() { done(outcome.err()) }()
	}
	res, err := next.Handle(ctx, req)
	outcome = b.classify(req, res, err)
	return res, err
}

// firstFailure counts the failure of a call that had no circuit yet in the
// circuit of k, made for it.
func (b *Breakers) firstFailure(k circuitKey) {
	if c := b.circuitFor(k); c != nil {
		if done, err := c.cb.Allow(); err == nil {
			done(errFailed)
		}
	}
}

// keyOf returns the circuit of the calls of method and name under the
// first rule that guards them; false when none does.
func (b *Breakers) keyOf(method, name string) (circuitKey, bool) {
	for i, r := range b.rules {
		if r.Method != "" && r.Method != method || r.Name != "" && r.Name != name {
			continue
		}
		return circuitKey{rule: i, method: method, name: name}, true
	}
	return circuitKey{}, false
}

// nameOf returns the tool or prompt a tools/call or prompts/get names, ""
// for other requests.
func nameOf(req *rpc.Request) string {
	if req.Method != "tools/call" && req.Method != "prompts/get" {
		return ""
	}
	v, ok := jsonscan.Member(req.Params, "name")
	if !ok {
		return ""
	}
	name, _ := jsonscan.String(v)
	return name
}

// circuitFor returns the circuit of k, made when there is none yet; nil
// past MaxBreakers.
func (b *Breakers) circuitFor(k circuitKey) *circuit {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c := b.circuits[k]; c != nil {
		return c
	}
	if b.max > 0 && len(b.circuits) >= b.max {
		if !b.full {
			b.full = true
			b.log.Warn("breaker: too many circuits; further methods and tools are not guarded", "max", b.max)
		}
		return nil
	}
	c := b.newCircuit(k)
	b.circuits[k] = c
	return c
}

func (b *Breakers) newCircuit(k circuitKey) *circuit {
	r := b.rules[k.rule]
	c := &circuit{rule: r, desc: k.method, attrs: []attribute.KeyValue{otelcore.KeyMCPMethod.String(k.method)}}
	if k.name != "" {
		c.desc += " " + strconv.Quote(k.name)
		key := otelcore.KeyToolName
		if k.method == "prompts/get" {
			key = otelcore.KeyPromptName
		}
		c.attrs = append(c.attrs, key.String(k.name))
	}
	c.cb = gobreaker.NewTwoStepCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        c.desc,
		MaxRequests: uint32(r.Probes),
		Interval:    r.Window,
		Timeout:     r.OpenFor,
		ReadyToTrip: func(n gobreaker.Counts) bool {
			return n.ConsecutiveFailures >= uint32(r.Failures)
		},
		IsExcluded: func(err error) bool { return err == errIgnored },
		OnStateChange: func(_ string, from, to gobreaker.State) {
			b.changed(c, stateOf(from), stateOf(to))
		},
	})
	return c
}

// changed logs and counts a change of state of c.
func (b *Breakers) changed(c *circuit, from, to State) {
	level, msg := slog.LevelInfo, "breaker: circuit closed"
	switch to {
	case Open:
		c.openUntil.Store(time.Now().Add(c.rule.OpenFor).UnixNano())
		level, msg = slog.LevelWarn, "breaker: circuit opened"
	case HalfOpen:
		msg = "breaker: circuit half-open"
	}
	b.log.Log(context.Background(), level, msg, "guards", c.desc, "from", string(from), "to", string(to), "open_for", c.rule.OpenFor)
	attrs := append([]attribute.KeyValue{KeyState.String(string(to)), KeyPreviousState.String(string(from))}, c.attrs...)
	b.changes.Add(context.Background(), 1, metric.WithAttributes(attrs...))
}

// retryAfter is the wait a refusal asks for: until the open circuit lets
// probes through or, when the probes are already running, a second (at
// most OpenFor).
func (c *circuit) retryAfter(probing bool) time.Duration {
	if probing {
		return min(time.Second, c.rule.OpenFor)
	}
	return max(time.Until(time.Unix(0, c.openUntil.Load())), time.Millisecond)
}
