package ratelimit_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/time/rate"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
	"github.com/schemarpc/schemarpc/mcp/ratelimit"
	"github.com/schemarpc/schemarpc/rpc"
)

// fakeClock is a clock that moves only when told.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// newLimiter builds a Limiter on clock, failing the test on an error.
func newLimiter(t *testing.T, clock *fakeClock, rules ...ratelimit.Rule) *ratelimit.Limiter {
	t.Helper()
	l, err := ratelimit.New(ratelimit.Options{Now: clock.Now}, rules...)
	require.NoError(t, err)
	return l
}

// request is a request with an id for method with params.
func request(method, params string) *rpc.Request {
	r := &rpc.Request{Method: method, ID: rpc.Int64ID(1)}
	if params != "" {
		r.Params = json.RawMessage(params)
	}
	return r
}

// toolCall is a tools/call request for tool.
func toolCall(tool string) *rpc.Request {
	return request("tools/call", `{"name":`+quote(tool)+`,"arguments":{}}`)
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// refusal returns the retry data of a refusal, failing the test when err
// is not one.
func refusal(t *testing.T, err error) rpc.RetryData {
	t.Helper()
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, -32000, e.Code)
	assert.Equal(t, "rate limit exceeded", e.Message)
	var d rpc.RetryData
	require.NoError(t, json.Unmarshal(e.Data, &d))
	return d
}

func TestExactlyTheBurstPassesThenTheNextIsRefusedUntilTheWaitIsOver(t *testing.T) {
	clock := newFakeClock()
	// 5 per second, burst 3: a token every 200 ms.
	l := newLimiter(t, clock, ratelimit.Rule{Method: "ping", Rate: 5, Burst: 3, Key: ratelimit.Everyone})
	ctx := context.Background()
	for i := range 3 {
		require.NoError(t, l.Allow(ctx, request("ping", "")), "request %d of the burst", i+1)
	}
	err := l.Allow(ctx, request("ping", ""))
	d := refusal(t, err)
	assert.Equal(t, int64(200), d.RetryAfterMs)
	assert.Equal(t, "ping: 5/s, burst 3", d.Limit)
	wait, ok := rpc.RetryAfter(err)
	require.True(t, ok)

	// Refusals take nothing: asking again, just before the wait is over,
	// is refused with what is left of it.
	clock.Advance(wait - time.Millisecond)
	assert.Equal(t, int64(1), refusal(t, l.Allow(ctx, request("ping", ""))).RetryAfterMs)
	clock.Advance(time.Millisecond)
	require.NoError(t, l.Allow(ctx, request("ping", "")), "after the wait")
	assert.Equal(t, int64(200), refusal(t, l.Allow(ctx, request("ping", ""))).RetryAfterMs, "one token came back, one was used")
}

func TestAQuotaAdmitsNPerPeriod(t *testing.T) {
	clock := newFakeClock()
	l := newLimiter(t, clock, ratelimit.Quota(10, time.Minute).For("tools/call", "search").By(ratelimit.Everyone))
	ctx := context.Background()
	for range 10 {
		require.NoError(t, l.Allow(ctx, toolCall("search")))
	}
	d := refusal(t, l.Allow(ctx, toolCall("search")))
	assert.Equal(t, int64(6000), d.RetryAfterMs, "one call comes back every period/n")
	assert.Equal(t, `tools/call "search": 10 per 1m0s`, d.Limit)
	clock.Advance(time.Minute)
	for range 10 {
		require.NoError(t, l.Allow(ctx, toolCall("search")))
	}
	require.Error(t, l.Allow(ctx, toolCall("search")))
}

func TestARuleCountsOnlyItsMethodAndName(t *testing.T) {
	clock := newFakeClock()
	l := newLimiter(t, clock, ratelimit.Quota(1, time.Hour).For("tools/call", "a").By(ratelimit.Everyone))
	ctx := context.Background()
	require.NoError(t, l.Allow(ctx, toolCall("a")))
	require.Error(t, l.Allow(ctx, toolCall("a")))
	cases := []struct {
		name string
		req  *rpc.Request
	}{
		{"another tool", toolCall("b")},
		{"a tool whose name starts the same", toolCall("ab")},
		{"another method with the same name", request("prompts/get", `{"name":"a"}`)},
		{"a call without a name", request("tools/call", `{}`)},
		{"a name that is not a string", request("tools/call", `{"name":1}`)},
		{"params that are not an object", request("tools/call", `["a"]`)},
		{"no params", request("tools/call", "")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for range 3 {
				assert.NoError(t, l.Allow(ctx, c.req))
			}
		})
	}
	t.Run("the tool's name written with escapes", func(t *testing.T) {
		assert.Error(t, l.Allow(ctx, request("tools/call", `{"name":"\u0061"}`)))
	})
}

func TestARuleWithoutAMethodCountsEveryRequest(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Quota(2, time.Hour).By(ratelimit.Everyone))
	ctx := context.Background()
	require.NoError(t, l.Allow(ctx, request("ping", "")))
	require.NoError(t, l.Allow(ctx, toolCall("a")))
	d := refusal(t, l.Allow(ctx, request("resources/list", "")))
	assert.Equal(t, "every request: 2 per 1h0m0s", d.Limit)
}

func TestNotificationsAreNeverRefused(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Quota(1, time.Hour).By(ratelimit.Everyone))
	ctx := context.Background()
	require.NoError(t, l.Allow(ctx, request("ping", "")))
	require.Error(t, l.Allow(ctx, request("ping", "")))
	for _, method := range []string{"notifications/cancelled", "notifications/progress", "ping"} {
		assert.NoError(t, l.Allow(ctx, &rpc.Request{Method: method, Params: json.RawMessage(`{}`)}), method)
	}
}

func TestEveryMatchingRuleMustAdmitAndARefusalCostsNoRuleAToken(t *testing.T) {
	clock := newFakeClock()
	perTool := ratelimit.Quota(2, time.Hour).For("tools/call", "a").By(ratelimit.Everyone)
	perSecond := ratelimit.Rule{Method: "tools/call", Rate: 1, Burst: 1, Key: ratelimit.Everyone, Description: "calls per second"}
	l := newLimiter(t, clock, perTool, perSecond)
	ctx := context.Background()
	require.NoError(t, l.Allow(ctx, toolCall("a")))
	// The per-second rule refuses; the per-tool rule must keep its token.
	for range 5 {
		d := refusal(t, l.Allow(ctx, toolCall("a")))
		assert.Equal(t, "calls per second", d.Limit)
		assert.Equal(t, int64(1000), d.RetryAfterMs)
	}
	clock.Advance(time.Second)
	require.NoError(t, l.Allow(ctx, toolCall("a")), "the per-tool rule still had its second token")
	clock.Advance(time.Second)
	// Both refuse now: the wait is the longer one, and names its rule.
	d := refusal(t, l.Allow(ctx, toolCall("a")))
	assert.Equal(t, `tools/call "a": 2 per 1h0m0s`, d.Limit)
	assert.Equal(t, int64(time.Hour/2/time.Millisecond-2000), d.RetryAfterMs)
	// The per-second rule kept the token the per-tool rule refused.
	require.NoError(t, l.Allow(ctx, toolCall("b")))
}

// withToken is ctx as auth.Require leaves it for a token of subject.
func withToken(ctx context.Context, subject string) context.Context {
	return auth.WithTokenInfo(ctx, &auth.TokenInfo{Subject: subject})
}

// withRemote is ctx carrying an HTTP request from addr.
func withRemote(ctx context.Context, addr string) context.Context {
	r, _ := http.NewRequest(http.MethodPost, "http://localhost/mcp", nil)
	r.RemoteAddr = addr
	return rpc.WithHTTPRequest(ctx, r)
}

func TestKeyFunctionsKeepClientsApart(t *testing.T) {
	bg := context.Background()
	cases := []struct {
		name       string
		key        ratelimit.KeyFunc
		same, diff [2]context.Context
	}{
		{"BySubject", ratelimit.BySubject,
			[2]context.Context{withToken(bg, "ada"), withRemote(withToken(bg, "ada"), "10.0.0.1:1")},
			[2]context.Context{withToken(bg, "ada"), withToken(bg, "bob")}},
		{"BySubject without a token", ratelimit.BySubject,
			[2]context.Context{bg, withToken(bg, "")},
			[2]context.Context{bg, withToken(bg, "bob")}},
		{"BySubject of an authentication of one's own", ratelimit.BySubject,
			[2]context.Context{mcp.WithPrincipal(bg, "ada"), mcp.WithPrincipal(bg, "ada")},
			[2]context.Context{mcp.WithPrincipal(bg, "ada"), mcp.WithPrincipal(bg, "bob")}},
		{"BySubject prefers the token's subject to the principal", ratelimit.BySubject,
			[2]context.Context{mcp.WithPrincipal(withToken(bg, "ada"), "x"), mcp.WithPrincipal(withToken(bg, "ada"), "y")},
			[2]context.Context{withToken(bg, "ada"), mcp.WithPrincipal(bg, "ada")}},
		{"ByRemoteAddr ignores the port", ratelimit.ByRemoteAddr,
			[2]context.Context{withRemote(bg, "10.0.0.1:1234"), withRemote(bg, "10.0.0.1:5678")},
			[2]context.Context{withRemote(bg, "10.0.0.1:1234"), withRemote(bg, "10.0.0.2:1234")}},
		{"ByRemoteAddr over IPv6", ratelimit.ByRemoteAddr,
			[2]context.Context{withRemote(bg, "[::1]:1"), withRemote(bg, "[::1]:2")},
			[2]context.Context{withRemote(bg, "[::1]:1"), withRemote(bg, "[::2]:1")}},
		{"ByRemoteAddr of an address without a port", ratelimit.ByRemoteAddr,
			[2]context.Context{withRemote(bg, "pipe"), withRemote(bg, "pipe")},
			[2]context.Context{withRemote(bg, "pipe"), withRemote(bg, "10.0.0.1:1")}},
		{"ByRemoteAddr off HTTP", ratelimit.ByRemoteAddr,
			[2]context.Context{bg, bg},
			[2]context.Context{bg, withRemote(bg, "10.0.0.1:1")}},
		{"ByClient prefers the subject", ratelimit.ByClient,
			[2]context.Context{withRemote(withToken(bg, "ada"), "10.0.0.1:1"), withRemote(withToken(bg, "ada"), "10.0.0.2:1")},
			[2]context.Context{withRemote(withToken(bg, "ada"), "10.0.0.1:1"), withRemote(withToken(bg, "bob"), "10.0.0.1:1")}},
		{"ByClient falls back to the address", ratelimit.ByClient,
			[2]context.Context{withRemote(bg, "10.0.0.1:1"), withRemote(bg, "10.0.0.1:2")},
			[2]context.Context{withRemote(bg, "10.0.0.1:1"), withRemote(bg, "10.0.0.2:1")}},
		{"a subject and an address of the same name differ", ratelimit.ByClient,
			[2]context.Context{withToken(bg, "10.0.0.1"), withToken(bg, "10.0.0.1")},
			[2]context.Context{withToken(bg, "10.0.0.1"), withRemote(bg, "10.0.0.1:1")}},
		{"BySession off a session falls back to the address", ratelimit.BySession,
			[2]context.Context{withRemote(bg, "10.0.0.1:1"), withRemote(bg, "10.0.0.1:2")},
			[2]context.Context{withRemote(bg, "10.0.0.1:1"), withRemote(bg, "10.0.0.2:1")}},
		{"Everyone", ratelimit.Everyone,
			[2]context.Context{withToken(bg, "ada"), withRemote(bg, "10.0.0.2:1")},
			[2]context.Context{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check := func(ctxs [2]context.Context, shared bool) {
				l := newLimiter(t, newFakeClock(), ratelimit.Quota(1, time.Hour).By(c.key))
				require.NoError(t, l.Allow(ctxs[0], request("ping", "")))
				err := l.Allow(ctxs[1], request("ping", ""))
				if shared {
					assert.Error(t, err, "the two share a bucket")
				} else {
					assert.NoError(t, err, "the two have buckets of their own")
				}
			}
			check(c.same, true)
			if c.diff[0] != nil {
				check(c.diff, false)
			}
		})
	}
}

func TestARuleWithoutAKeyIsPerClient(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Quota(1, time.Hour))
	ctx := context.Background()
	require.NoError(t, l.Allow(withToken(ctx, "ada"), request("ping", "")))
	require.Error(t, l.Allow(withToken(ctx, "ada"), request("ping", "")))
	require.NoError(t, l.Allow(withToken(ctx, "bob"), request("ping", "")))
}

func TestNewRefusesRulesThatCannotWork(t *testing.T) {
	cases := []struct {
		name string
		rule ratelimit.Rule
		want string
	}{
		{"no rate", ratelimit.Rule{Method: "ping", Burst: 1}, "rate must be positive"},
		{"a negative rate", ratelimit.Rule{Method: "ping", Rate: -1, Burst: 1}, "rate must be positive"},
		{"no burst", ratelimit.Rule{Method: "ping", Rate: 1}, "burst must be at least 1"},
		{"an empty quota", ratelimit.Quota(0, time.Hour), "rate must be positive"},
		{"a name without a method", ratelimit.Rule{Name: "a", Rate: 1, Burst: 1}, "a name needs a method"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := ratelimit.New(ratelimit.Options{}, ratelimit.Quota(1, time.Second), c.rule)
			assert.Nil(t, l)
			assert.ErrorContains(t, err, c.want)
		})
	}
}

func TestAnInfiniteRateAdmitsEverything(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Rule{Rate: rate.Inf, Burst: 1})
	for range 100 {
		require.NoError(t, l.Allow(context.Background(), request("ping", "")))
	}
}

func TestALimiterWithoutRulesAdmitsEverything(t *testing.T) {
	for name, l := range map[string]*ratelimit.Limiter{"no rules": newLimiter(t, newFakeClock()), "nil": nil} {
		t.Run(name, func(t *testing.T) { admitsEverything(t, l) })
	}
}

func admitsEverything(t *testing.T, l *ratelimit.Limiter) {
	require.NoError(t, l.Allow(context.Background(), request("ping", "")))
	called := 0
	h := l.Middleware()(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) {
		called++
		return "ok", nil
	}))
	for range 100 {
		res, err := h.Handle(context.Background(), request("ping", ""))
		require.NoError(t, err)
		assert.Equal(t, "ok", res)
	}
	assert.Equal(t, 100, called)
}

func TestTheMiddlewareAnswersARefusalWithoutRunningTheHandler(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Quota(1, time.Hour).By(ratelimit.Everyone))
	called := 0
	h := l.Middleware()(rpc.HandlerFunc(func(context.Context, *rpc.Request) (any, error) {
		called++
		return "ok", nil
	}))
	_, err := h.Handle(context.Background(), request("ping", ""))
	require.NoError(t, err)
	res, err := h.Handle(context.Background(), request("ping", ""))
	assert.Nil(t, res)
	refusal(t, err)
	assert.Equal(t, 1, called)
}

func TestConcurrentRequestsGetExactlyTheBurst(t *testing.T) {
	l := newLimiter(t, newFakeClock(), ratelimit.Rule{Rate: 1, Burst: 50, Key: ratelimit.Everyone})
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for range 8 {
		wg.Go(func() {
			for range 25 {
				if l.Allow(context.Background(), request("ping", "")) == nil {
					mu.Lock()
					admitted++
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, 50, admitted)
}
