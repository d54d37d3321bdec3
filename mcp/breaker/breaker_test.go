package breaker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/breaker"
	"github.com/schemarpc/schemarpc/rpc"
)

// backend is a handler whose tools fail while told to.
type backend struct {
	mu      sync.Mutex
	failing map[string]bool
	runs    map[string]int
}

func newBackend() *backend { return &backend{failing: map[string]bool{}, runs: map[string]int{}} }

func (b *backend) fail(tool string, on bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failing[tool] = on
}

func (b *backend) ran(tool string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.runs[tool]
}

func (b *backend) Handle(_ context.Context, req *rpc.Request) (any, error) {
	var p struct{ Name string }
	_ = json.Unmarshal(req.Params, &p)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.runs[p.Name]++
	if b.failing[p.Name] {
		return nil, errors.New("the back end is down")
	}
	return "ok", nil
}

// harness is Breakers around a backend, with their log and metrics.
type harness struct {
	b      *breaker.Breakers
	h      rpc.Handler
	be     *backend
	logs   *syncbuf.Buffer
	reader *sdkmetric.ManualReader
}

func newHarness(t *testing.T, opts breaker.Options, rules ...breaker.Rule) *harness {
	t.Helper()
	hs := &harness{be: newBackend(), logs: &syncbuf.Buffer{}, reader: sdkmetric.NewManualReader()}
	opts.Logger = slog.New(slog.NewTextHandler(hs.logs, nil))
	opts.MeterProvider = sdkmetric.NewMeterProvider(sdkmetric.WithReader(hs.reader))
	b, err := breaker.New(opts, rules...)
	require.NoError(t, err)
	hs.b = b
	hs.h = b.Middleware()(hs.be)
	return hs
}

// call calls a tool through the breakers.
func (hs *harness) call(tool string) (any, error) {
	return hs.h.Handle(context.Background(), &rpc.Request{ID: rpc.StringID("1"), Method: "tools/call", Params: json.RawMessage(`{"name":"` + tool + `"}`)})
}

// metric sums the data points of a counter whose attributes include match.
func (hs *harness) metric(t *testing.T, name string, match map[string]string) int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, hs.reader.Collect(context.Background(), &rm))
	var n int64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			sum, ok := m.Data.(metricdata.Sum[int64])
			if m.Name != name || !ok {
				continue
			}
		points:
			for _, dp := range sum.DataPoints {
				for k, v := range match {
					if got, ok := dp.Attributes.Value(attribute.Key(k)); !ok || got.Emit() != v {
						continue points
					}
				}
				n += dp.Value
			}
		}
	}
	return n
}

// waitHalfOpen waits for the open circuit of tool to let probes through.
func (hs *harness) waitHalfOpen(t *testing.T, tool string) {
	t.Helper()
	require.Eventually(t, func() bool { return hs.b.State("tools/call", tool) == breaker.HalfOpen },
		10*time.Second, 5*time.Millisecond, "the circuit of %s turns half-open", tool)
}

// open runs the failures that open the circuit of tool.
func (hs *harness) open(t *testing.T, tool string, failures int) {
	t.Helper()
	hs.be.fail(tool, true)
	for range failures {
		_, err := hs.call(tool)
		require.EqualError(t, err, "the back end is down", "the call ran and failed")
	}
	require.Equal(t, breaker.Open, hs.b.State("tools/call", tool))
}

func TestACircuitOpensAfterTheConfiguredRunOfFailures(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 3, OpenFor: time.Hour})
	hs.be.fail("search", true)
	for i := range 2 {
		_, err := hs.call("search")
		require.Error(t, err)
		assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "search"), "after failure %d", i+1)
	}
	hs.be.fail("search", false)
	_, err := hs.call("search")
	require.NoError(t, err, "a success ends the run")
	hs.open(t, "search", 3)
	assert.Equal(t, 6, hs.be.ran("search"))
}

func TestAnOpenCircuitFailsFastWithARetryHint(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 2, OpenFor: time.Hour})
	hs.open(t, "search", 2)
	_, err := hs.call("search")
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, rpc.CodeServerBusy, e.Code)
	assert.Equal(t, "circuit open", e.Message)
	var data rpc.RetryData
	require.NoError(t, json.Unmarshal(e.Data, &data))
	assert.Equal(t, `circuit breaker of tools/call "search"`, data.Limit)
	wait, ok := rpc.RetryAfter(err)
	require.True(t, ok, "rpc.RetryAfter reads the hint")
	assert.Greater(t, wait, 59*time.Minute, "the wait is what is left of OpenFor")
	assert.LessOrEqual(t, wait, time.Hour)
	assert.Equal(t, 2, hs.be.ran("search"), "the refused call did not run")
	assert.Equal(t, int64(1), hs.metric(t, breaker.MetricRefused, map[string]string{"mcp.method.name": "tools/call", "gen_ai.tool.name": "search"}))
}

func TestAHalfOpenProbeThatSucceedsClosesTheCircuit(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 2, OpenFor: 50 * time.Millisecond})
	hs.open(t, "search", 2)
	hs.be.fail("search", false)
	hs.waitHalfOpen(t, "search")
	_, err := hs.call("search")
	require.NoError(t, err, "the probe ran")
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "search"))
	_, err = hs.call("search")
	assert.NoError(t, err)
	assert.Equal(t, 4, hs.be.ran("search"))
}

func TestAHalfOpenProbeThatFailsReopensTheCircuit(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 2, OpenFor: 50 * time.Millisecond})
	hs.open(t, "search", 2)
	hs.waitHalfOpen(t, "search")
	_, err := hs.call("search")
	require.EqualError(t, err, "the back end is down", "the probe ran")
	assert.Equal(t, breaker.Open, hs.b.State("tools/call", "search"))
	_, err = hs.call("search")
	_, hinted := rpc.RetryAfter(err)
	assert.True(t, hinted, "refused again: %v", err)
	assert.Equal(t, 3, hs.be.ran("search"))
}

func TestAHalfOpenCircuitLetsOnlyItsProbesThrough(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 1, OpenFor: 50 * time.Millisecond})
	hs.open(t, "slow", 1)
	hs.be.fail("slow", false)
	hs.waitHalfOpen(t, "slow")
	release, entered := make(chan struct{}), make(chan struct{})
	slow := rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		close(entered)
		<-release
		return hs.be.Handle(ctx, req)
	})
	h := hs.b.Middleware()(slow)
	probe := make(chan error, 1)
	go func() {
		_, err := h.Handle(context.Background(), &rpc.Request{ID: rpc.StringID("p"), Method: "tools/call", Params: json.RawMessage(`{"name":"slow"}`)})
		probe <- err
	}()
	<-entered
	_, err := hs.call("slow")
	wait, hinted := rpc.RetryAfter(err)
	require.True(t, hinted, "a second call while the probe runs is refused: %v", err)
	assert.LessOrEqual(t, wait, 50*time.Millisecond, "told to come back soon (at most OpenFor)")
	close(release)
	require.NoError(t, <-probe)
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "slow"))
}

func TestEachToolHasACircuitOfItsOwn(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 2, OpenFor: time.Hour})
	hs.open(t, "flaky", 2)
	res, err := hs.call("steady")
	require.NoError(t, err, "another tool is served")
	assert.Equal(t, "ok", res)
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "steady"))
	_, err = hs.call("flaky")
	_, hinted := rpc.RetryAfter(err)
	assert.True(t, hinted)
}

func TestStateChangesAreLoggedAndCounted(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 1, OpenFor: 50 * time.Millisecond})
	hs.open(t, "search", 1)
	hs.be.fail("search", false)
	hs.waitHalfOpen(t, "search")
	_, err := hs.call("search")
	require.NoError(t, err)

	logs := hs.logs.String()
	assert.Contains(t, logs, `level=WARN msg="breaker: circuit opened" guards="tools/call \"search\"" from=closed to=open`)
	assert.Contains(t, logs, `level=INFO msg="breaker: circuit half-open" guards="tools/call \"search\"" from=open to=half-open`)
	assert.Contains(t, logs, `level=INFO msg="breaker: circuit closed" guards="tools/call \"search\"" from=half-open to=closed`)
	for _, change := range []struct{ from, to string }{{"closed", "open"}, {"open", "half-open"}, {"half-open", "closed"}} {
		assert.Equal(t, int64(1), hs.metric(t, breaker.MetricStateChanges, map[string]string{
			"mcp.method.name": "tools/call", "gen_ai.tool.name": "search",
			"mcp.circuit_breaker.previous_state": change.from, "mcp.circuit_breaker.state": change.to,
		}), "%s → %s", change.from, change.to)
	}
	assert.Equal(t, int64(3), hs.metric(t, breaker.MetricStateChanges, nil))
}

func TestWhatCountsAsAFailure(t *testing.T) {
	yes := true
	tests := []struct {
		name   string
		method string
		res    any
		err    error
		want   breaker.Outcome
	}{
		{"a result", "tools/call", &mcp.CallToolResult{}, nil, breaker.Success},
		{"a tool error", "tools/call", &mcp.CallToolResult{IsError: &yes}, nil, breaker.Failure},
		{"isError of another method's result", "custom/x", &mcp.CallToolResult{IsError: &yes}, nil, breaker.Success},
		{"a Go error", "tools/call", nil, errors.New("down"), breaker.Failure},
		{"an internal error", "tools/call", nil, rpc.NewError(rpc.CodeInternalError, "x"), breaker.Failure},
		{"a Go error wrapping an internal error", "tools/call", nil, fmt.Errorf("call: %w", rpc.NewError(rpc.CodeInternalError, "x")), breaker.Failure},
		{"a deadline", "tools/call", nil, context.DeadlineExceeded, breaker.Failure},
		{"invalid params", "tools/call", nil, rpc.InvalidParams("x"), breaker.Ignored},
		{"an unknown method", "tools/call", nil, rpc.NewError(rpc.CodeMethodNotFound, "x"), breaker.Ignored},
		{"an MCP answer in the server range", "resources/read", nil, rpc.ServerError(-32002, "resource not found"), breaker.Ignored},
		{"an application code", "custom/x", nil, rpc.NewError(4000, "no such order"), breaker.Ignored},
		{"a rate limit", "tools/call", nil, rpc.RateLimited(time.Second, ""), breaker.Ignored},
		{"a cancellation", "tools/call", nil, context.Canceled, breaker.Ignored},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, breaker.Classify(&rpc.Request{ID: rpc.StringID("1"), Method: tt.method}, tt.res, tt.err), tt.name)
	}
}

func TestIgnoredAnswersNeitherOpenNorEndARun(t *testing.T) {
	invalid := rpc.InvalidParams("bad")
	var answer error
	b, err := breaker.New(breaker.Options{Logger: slog.New(slog.DiscardHandler)}, breaker.Rule{Failures: 2, OpenFor: time.Hour})
	require.NoError(t, err)
	h := b.Middleware()(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return nil, answer }))
	call := func(e error) {
		answer = e
		_, _ = h.Handle(context.Background(), &rpc.Request{ID: rpc.StringID("1"), Method: "lookup"})
	}
	for range 10 {
		call(invalid)
	}
	assert.Equal(t, breaker.Closed, b.State("lookup", ""), "a client's mistakes open nothing")
	call(errors.New("down"))
	call(invalid)
	call(errors.New("down"))
	assert.Equal(t, breaker.Open, b.State("lookup", ""), "nor do they end a run of failures")
}

func TestNotificationsAreNeverRefusedNorCounted(t *testing.T) {
	hs := newHarness(t, breaker.Options{}, breaker.Rule{Failures: 1, OpenFor: time.Hour})
	note := &rpc.Request{Method: "tools/call", Params: json.RawMessage(`{"name":"x"}`)}
	hs.be.fail("x", true)
	for range 3 {
		_, err := hs.h.Handle(context.Background(), note)
		require.Error(t, err, "the notification ran")
	}
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "x"))
	hs.open(t, "x", 1)
	_, err := hs.h.Handle(context.Background(), note)
	assert.EqualError(t, err, "the back end is down", "it still runs")
}

func TestTheFirstRuleThatMatchesGuardsARequest(t *testing.T) {
	hs := newHarness(t, breaker.Options{},
		breaker.Rule{Failures: 1, OpenFor: time.Hour}.For("tools/call", "fragile"),
		breaker.Rule{Failures: 3, OpenFor: time.Hour})
	hs.open(t, "fragile", 1)
	hs.open(t, "sturdy", 3)
	assert.Equal(t, breaker.Closed, hs.b.State("ping", ""))
}

func TestCircuitsAreBounded(t *testing.T) {
	hs := newHarness(t, breaker.Options{MaxBreakers: 1}, breaker.Rule{Failures: 1, OpenFor: time.Hour})
	hs.open(t, "first", 1)
	hs.be.fail("second", true)
	for range 3 {
		_, err := hs.call("second")
		require.EqualError(t, err, "the back end is down", "past the bound a tool is not guarded")
	}
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "second"))
	assert.Contains(t, hs.logs.String(), "too many circuits")
}

func TestABadRuleIsRefused(t *testing.T) {
	for name, r := range map[string]breaker.Rule{
		"a name without a method": {Name: "search"},
		"negative failures":       {Failures: -1},
		"a negative open time":    {OpenFor: -time.Second},
	} {
		_, err := breaker.New(breaker.Options{}, r)
		assert.Error(t, err, name)
	}
}

func TestBreakersWithoutRulesAddNothing(t *testing.T) {
	b, err := breaker.New(breaker.Options{})
	require.NoError(t, err)
	h := rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) { return "ok", nil })
	res, err := b.Middleware()(h).Handle(context.Background(), &rpc.Request{ID: rpc.StringID("1"), Method: "x"})
	require.NoError(t, err)
	assert.Equal(t, "ok", res)
}

func TestAHandlerThatPanicsOpensItsCircuit(t *testing.T) {
	b, err := breaker.New(breaker.Options{}, breaker.Rule{Method: "tools/call", Failures: 2, OpenFor: time.Hour})
	require.NoError(t, err)
	runs := 0
	h := b.Middleware()(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) {
		runs++
		panic("the back end is gone")
	}))
	// The connection recovers a handler's panic outside the middleware
	// (and answers -32603); here the test does.
	call := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panicked: %v", p)
			}
		}()
		_, err = h.Handle(context.Background(), &rpc.Request{ID: rpc.StringID("1"), Method: "tools/call", Params: json.RawMessage(`{"name":"search"}`)})
		return err
	}
	for i := range 2 {
		require.EqualError(t, call(), "panicked: the back end is gone", "call %d ran", i+1)
	}
	assert.Equal(t, breaker.Open, b.State("tools/call", "search"), "each panic, the first included, is a failure")
	_, hinted := rpc.RetryAfter(call())
	assert.True(t, hinted, "the open circuit refuses the next call")
	assert.Equal(t, 2, runs)
}

func TestOnlyARunWithinOneWindowOpensACircuit(t *testing.T) {
	const window = 20 * time.Millisecond
	hs := newHarness(t, breaker.Options{},
		breaker.Rule{Failures: 2, Window: window, OpenFor: time.Hour}.For("tools/call", "slow"),
		breaker.Rule{Failures: 2, Window: time.Hour, OpenFor: time.Hour}.For("tools/call", "fast"))
	hs.be.fail("slow", true)
	_, err := hs.call("slow")
	require.Error(t, err)
	time.Sleep(2 * window) // the window has passed, however busy the machine
	_, err = hs.call("slow")
	require.Error(t, err)
	assert.Equal(t, breaker.Closed, hs.b.State("tools/call", "slow"), "the counts started over with the window")
	hs.open(t, "fast", 2)
}
