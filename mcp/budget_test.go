package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// holdServer is a server under a memory budget with two tools: "hold"
// asks the client to sample and waits for the answer (a call awaiting the
// client, the kind that held memory without bound), and "echo" answers at
// once. held counts the hold calls running.
type holdServer struct {
	f    *fixture
	held atomic.Int64
	// cancelled receives a token when a hold call ends without an answer.
	cancelled chan struct{}
}

func newHoldServer(t *testing.T, opts *mcp.ServerOptions, hopts *mcp.HTTPOptions) *holdServer {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "budget", Version: "1"}, opts)
	hs := &holdServer{cancelled: make(chan struct{}, 1024)}
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "hold"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		hs.held.Add(1)
		defer hs.held.Add(-1)
		_, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 5})
		if err != nil {
			hs.cancelled <- struct{}{}
		}
		return nil, err
	}))
	echoTool(t, s)
	h := mcp.NewStreamableHTTPHandler(s, hopts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	hs.f = &fixture{t: t, srv: s, h: h, ts: ts}
	return hs
}

// holdCall is a tools/call of hold whose _meta carries pad bytes.
func holdCall(id, pad int) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"hold","_meta":{"pad":"` + strings.Repeat("x", pad) + `"}}}`
}

// postOpen POSTs body to a session (none when session is "") with the
// mirrored headers given as pairs, and returns the response with its
// stream open, and a hang-up that closes it (at the test's end if not
// before). Nothing keeps the request once it is sent: the memory tests
// measure the server's heap, not the client's.
func postOpen(t *testing.T, f *fixture, session, body string, headers ...string) (*http.Response, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", acceptBoth)
	if session != "" {
		req.Header.Set(mcp.HeaderSessionID, session)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Request = nil
	return resp, cancel
}

// waitFor polls cond until it holds, failing after a generous bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 20s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// busyRefusal checks a 503 refusal for want of memory and returns the
// limit it names.
func busyRefusal(t *testing.T, resp *http.Response) string {
	t.Helper()
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	rerr := errorBody(t, resp)
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeServerBusy, rerr.Code)
	wait, ok := rpc.RetryAfter(rerr)
	assert.True(t, ok, "the error carries a retry hint")
	assert.Equal(t, time.Second, wait)
	var data rpc.RetryData
	require.NoError(t, json.Unmarshal(rerr.Data, &data))
	return data.Limit
}

// One session holding calls that await its answer fills its share of the
// budget: its next POST gets 503 with Retry-After, and another session is
// served all the while.
func TestASessionPastItsShareIsRefusedWhileOthersAreServed(t *testing.T) {
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 4 << 20, MemoryShare: 256 << 10}, nil)
	f := hs.f
	greedy := f.initialize(mcp.Version20251125)
	var refused *http.Response
	for id := 10; refused == nil && id < 20; id++ {
		resp, _ := postOpen(t, f, greedy, holdCall(id, 100<<10))
		if resp.StatusCode != http.StatusOK {
			refused = resp
			break
		}
		want := int64(id - 9)
		waitFor(t, "the hold call starts", func() bool { return hs.held.Load() == want })
	}
	require.NotNil(t, refused, "the session is refused before ten calls of 100 KiB")
	assert.Equal(t, int64(2), hs.held.Load(), "two calls of 100 KiB fit in 256 KiB, the third does not")
	assert.Equal(t, "memory budget per client", busyRefusal(t, refused))

	other := f.initialize(mcp.Version20251125)
	msgs := messages(t, f.post(other, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`))
	require.Len(t, msgs, 1)
	assert.NotNil(t, msgs[0].Result, "another session is served")
}

// When the whole budget is taken, the calls of sessions whose client hung
// up (no HTTP request of theirs in progress) are cancelled, so that the
// work of a client still there is served when it retries.
func TestPastTheBudgetTheCallsOfSessionsWithoutAClientAreCancelled(t *testing.T) {
	// A retry interval of an hour keeps the cancellation of calls
	// waiting for a gone client (orphan.go) out of this test.
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 1 << 20, MemoryShare: 600 << 10}, &mcp.HTTPOptions{RetryInterval: time.Hour})
	f := hs.f
	for range 2 {
		gone := f.initialize(mcp.Version20251125)
		for id := 10; id < 14; id++ {
			want := hs.held.Load() + 1
			resp, hangUp := postOpen(t, f, gone, holdCall(id, 100<<10))
			require.Equal(t, http.StatusOK, resp.StatusCode)
			waitFor(t, "the hold call starts", func() bool { return hs.held.Load() == want })
			hangUp()
		}
	}
	require.Equal(t, int64(8), hs.held.Load())

	present := f.initialize(mcp.Version20251125)
	body := holdCall(99, 300<<10)
	resp, _ := postOpen(t, f, present, body)
	assert.Equal(t, "memory budget", busyRefusal(t, resp), "the total is reached first")
	// Each refusal cancels the calls of the sessions the server has seen
	// their client leave; the client retries until its call fits.
	waitFor(t, "a retry is served", func() bool {
		resp, _ := postOpen(t, f, present, body)
		return resp.StatusCode == http.StatusOK
	})
	// One gone session's calls make room; those of the other go too if
	// its client was seen gone by then.
	waitFor(t, "the calls cancelled return", func() bool { return hs.held.Load() == 9-int64(len(hs.cancelled)) })
	assert.GreaterOrEqual(t, len(hs.cancelled), 4, "the calls of a gone session are cancelled")
}

// On a transport without HTTP (stdio, a pipe), a request past the budget
// is answered with -32000 and a retry hint; the session goes on.
func TestARequestPastTheBudgetOnAPipeGetsARetryHint(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "budget", Version: "1"}, &mcp.ServerOptions{MemoryBudget: 1 << 20, MemoryShare: 64 << 10})
	echoTool(t, s)
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": strings.Repeat("x", 100<<10)}})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeServerBusy, rerr.Code)
	assert.Equal(t, "server busy: memory budget per client exhausted", rerr.Message)
	wait, ok := rpc.RetryAfter(rerr)
	assert.True(t, ok)
	assert.Equal(t, time.Second, wait)

	res, rerr := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "small"}})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), "small")
	assert.Zero(t, mcp.MemoryInUseForTest(s), "what the calls held is given back")
}

// A session's stored events are counted against the budget within its
// share and given back when the session ends; when the budget is short they
// are thinned, so that a request of another client fits.
func TestStoredEventsAreCountedAndThinnedUnderTheBudget(t *testing.T) {
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 512 << 10, MemoryShare: 300 << 10}, nil)
	f := hs.f
	idle := f.initialize(mcp.Version20251125)
	call := fmt.Sprintf(`{"jsonrpc":"2.0","id":%%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, strings.Repeat("y", 20<<10))
	for id := 10; id < 40; id++ {
		resp := f.post(idle, fmt.Sprintf(call, id))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		io.Copy(io.Discard, resp.Body)
	}
	stored := mcp.EventBytesForTest(f.srv, idle)
	assert.Greater(t, stored, int64(280<<10), "the answers are stored, counted")
	assert.LessOrEqual(t, stored, int64(300<<10)+21<<10, "within the share and one event")

	other := f.initialize(mcp.Version20251125)
	resp, _ := postOpen(t, f, other, holdCall(1, 250<<10))
	assert.Equal(t, "memory budget", busyRefusal(t, resp))
	assert.LessOrEqual(t, mcp.EventBytesForTest(f.srv, idle), stored/2+1, "the stored events are thinned")
	resp, _ = postOpen(t, f, other, holdCall(2, 250<<10))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "the retry fits")

	resp = f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: idle})
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	waitFor(t, "the ended session's events are given back", func() bool { return mcp.EventBytesForTest(f.srv, idle) == 0 })
}

// A call that waited for a place while its client hung up starts after
// its POST ended: it is counted on its own then, once, and everything is
// given back when the session ends.
func TestACallStartingAfterItsPOSTEndedIsCountedOnce(t *testing.T) {
	hs := newHoldServer(t, &mcp.ServerOptions{MaxInFlight: 1}, &mcp.HTTPOptions{RetryInterval: time.Hour})
	f := hs.f
	session := f.initialize(mcp.Version20251125)
	first, _ := postOpen(t, f, session, holdCall(10, 10))
	require.Equal(t, http.StatusOK, first.StatusCode)
	r := newSSE(t, first)
	var ask message
	for ask.Method != "sampling/createMessage" {
		ev, err := r.next()
		require.NoError(t, err)
		if ev.Data != "" {
			ask = decode(t, ev.Data)
		}
	}
	calls := func() int64 { return mcp.MemoryInUseForTest(f.srv) - mcp.EventBytesForTest(f.srv, session) }
	queued, hangUp := postOpen(t, f, session, holdCall(11, 200<<10))
	require.Equal(t, http.StatusOK, queued.StatusCode)
	hangUp()
	waitFor(t, "the queued call's POST ends", func() bool { return calls() < 100<<10 })

	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m"}}`, ask.ID)
	require.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)
	waitFor(t, "the queued call starts and waits", func() bool { return len(hs.cancelled) == 0 && hs.held.Load() == 1 && calls() > 200<<10 })

	resp := f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	waitFor(t, "the call ends with the session", func() bool { return hs.held.Load() == 0 })
	waitFor(t, "everything is given back", func() bool { return mcp.MemoryInUseForTest(f.srv) == 0 })
}

// MemoryShare defaults to a quarter of MemoryBudget; a negative value of
// either turns that bound off.
func TestMemoryBudgetOptions(t *testing.T) {
	cases := []struct {
		name          string
		budget, share int64
		size          int
		refusedBy     string // "" when served
	}{
		{"the default share is a quarter", 1 << 20, 0, 300 << 10, "memory budget per client"},
		{"within the default share", 1 << 20, 0, 200 << 10, ""},
		{"no share: up to the budget", 1 << 20, -1, 900 << 10, ""},
		{"no share, past the budget", 1 << 20, -1, 1100 << 10, "memory budget"},
		{"no budget", -1, 0, 1100 << 10, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "budget", Version: "1"}, &mcp.ServerOptions{MemoryBudget: tc.budget, MemoryShare: tc.share})
			echoTool(t, s)
			c := dial(t, s, clientOptions{})
			_, rerr := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": strings.Repeat("x", tc.size)}})
			if tc.refusedBy == "" {
				assert.Nil(t, rerr)
				return
			}
			require.NotNil(t, rerr)
			assert.Equal(t, "server busy: "+tc.refusedBy+" exhausted", rerr.Message)
		})
	}
}

// The sessions of one principal (mcp.WithPrincipal, as auth.Require sets
// it) share one share of the budget; another principal has its own.
func TestTheSessionsOfAPrincipalShareOneShare(t *testing.T) {
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 4 << 20, MemoryShare: 256 << 10}, nil)
	who := "alice"
	var mu sync.Mutex
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		p := who
		mu.Unlock()
		hs.f.h.ServeHTTP(w, r.WithContext(mcp.WithPrincipal(r.Context(), p)))
	}))
	t.Cleanup(ts.Close)
	f := &fixture{t: t, srv: hs.f.srv, h: hs.f.h, ts: ts}
	for i, want := range []int{http.StatusOK, http.StatusOK, http.StatusServiceUnavailable} {
		session := f.initialize(mcp.Version20251125)
		resp, _ := postOpen(t, f, session, holdCall(10, 100<<10))
		require.Equal(t, want, resp.StatusCode, "alice's session %d", i+1)
		if want == http.StatusOK {
			waitFor(t, "the call is held", func() bool { return hs.held.Load() == int64(i+1) })
		} else {
			assert.Equal(t, "memory budget per client", busyRefusal(t, resp))
		}
	}
	mu.Lock()
	who = "bob"
	mu.Unlock()
	session := f.initialize(mcp.Version20251125)
	resp, _ := postOpen(t, f, session, holdCall(10, 100<<10))
	assert.Equal(t, http.StatusOK, resp.StatusCode, "bob has a share of his own")
}

// An answer that does not fit in the budget, in a session with no older
// events left to discard, is stored and counted all the same: the client
// is hearing it now. It is given back when the session ends.
func TestAnEventPastTheBudgetIsKeptAndCounted(t *testing.T) {
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 300 << 10, MemoryShare: -1}, &mcp.HTTPOptions{RetryInterval: time.Hour})
	f := hs.f
	holder := f.initialize(mcp.Version20251125)
	resp, _ := postOpen(t, f, holder, holdCall(10, 200<<10))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	waitFor(t, "the hold call starts", func() bool { return hs.held.Load() == 1 })

	session := f.initialize(mcp.Version20251125)
	text := strings.Repeat("z", 60<<10)
	msgs := messages(t, f.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, text)))
	require.Len(t, msgs, 1)
	require.NotNil(t, msgs[0].Result, "the call is served")
	assert.Contains(t, fmt.Sprint(msgs[0].Result), text)
	assert.Greater(t, mcp.EventBytesForTest(f.srv, session), int64(60<<10), "the answer is stored and counted")

	resp = f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	waitFor(t, "the ended session's events are given back", func() bool { return mcp.EventBytesForTest(f.srv, session) == 0 })
}

// A closed handler takes its reclaimers off the server's budget, so that
// a server that makes handlers over its life does not keep every one of
// them (and its event store) alive; a store shared by two handlers is
// thinned until the handler that put it under the budget is closed.
func TestAClosedHandlerLeavesNoReclaimerBehind(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "r", Version: "1"}, nil)
	require.Zero(t, mcp.ReclaimersForTest(s))
	for range 3 {
		h := mcp.NewStreamableHTTPHandler(s, nil)
		assert.Equal(t, 2, mcp.ReclaimersForTest(s), "its own store's thinning and its orphans' cancelling")
		require.NoError(t, h.Close())
		assert.Zero(t, mcp.ReclaimersForTest(s))
	}
	h := mcp.NewStreamableHTTPHandler(s, nil)
	require.NoError(t, h.Close())
	require.NoError(t, h.Close(), "closing twice")
	assert.Zero(t, mcp.ReclaimersForTest(s))

	shared := mcp.NewMemoryEventStore(nil)
	first := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{EventStore: shared})
	second := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{EventStore: shared})
	assert.Equal(t, 3, mcp.ReclaimersForTest(s), "the shared store once, and each handler's orphans")
	require.NoError(t, second.Close())
	assert.Equal(t, 2, mcp.ReclaimersForTest(s), "the store stays with the handler that put it there")
	require.NoError(t, first.Close())
	assert.Zero(t, mcp.ReclaimersForTest(s))
}

// An account that holds nothing is kept for a while, so that admitting a
// call finds it without inserting it again, but clients that came and went
// do not pile up: a thousand POSTs, each from a session of its own (none of
// them known), leave a bounded number of empty accounts and nothing
// counted.
func TestTheAccountsOfClientsGoneDoNotPileUp(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "a", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, nil)
	t.Cleanup(func() { _ = h.Close() })
	const body = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for i := range 1000 {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/", strings.NewReader(body))
		req.Host = "127.0.0.1"
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", acceptBoth)
		req.Header.Set(mcp.HeaderSessionID, "gone-"+strconv.Itoa(i))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		require.Equal(t, http.StatusNotFound, rec.Code, "an unknown session: %s", rec.Body)
	}
	assert.Zero(t, mcp.MemoryInUseForTest(s))
	assert.LessOrEqual(t, mcp.BudgetAccountsForTest(s), 64)
	assert.Positive(t, mcp.BudgetAccountsForTest(s), "the last ones are kept until the next sweep")
}

// On a pipe the budget holds as over HTTP: past the total a call is
// refused as past the budget, not the client's share, and a session that
// filled its share is refused while another session is served.
func TestAPipeSessionHasAShareOfItsOwnUnderTheTotal(t *testing.T) {
	big := map[string]any{"name": "echo", "arguments": map[string]any{"text": strings.Repeat("x", 100<<10)}}
	t.Run("the total", func(t *testing.T) {
		s := mcp.NewServer(&mcp.Implementation{Name: "budget", Version: "1"}, &mcp.ServerOptions{MemoryBudget: 64 << 10, MemoryShare: -1})
		echoTool(t, s)
		_, rerr := dial(t, s, clientOptions{}).call(t, "tools/call", big)
		require.NotNil(t, rerr)
		assert.Equal(t, "server busy: memory budget exhausted", rerr.Message)
		assert.Zero(t, mcp.MemoryInUseForTest(s))
	})
	t.Run("a share per session", func(t *testing.T) {
		hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: 4 << 20, MemoryShare: 256 << 10}, nil)
		opts := clientOptions{caps: json.RawMessage(`{"sampling":{}}`), callbacks: holdingCallbacks{}}
		hold := map[string]any{"name": "hold", "_meta": map[string]any{"pad": strings.Repeat("x", 100<<10)}}
		// The held calls end with an error when the test closes the pipes.
		holdOn := func(c *client) { go func() { _ = c.conn.Call(context.Background(), "tools/call", hold, nil) }() }
		first := dial(t, hs.f.srv, opts)
		for i := range 2 {
			holdOn(first)
			waitFor(t, "the call is held", func() bool { return hs.held.Load() == int64(i+1) })
		}
		_, rerr := first.call(t, "tools/call", hold)
		require.NotNil(t, rerr, "the session's share is full")
		assert.Equal(t, "server busy: memory budget per client exhausted", rerr.Message)
		holdOn(dial(t, hs.f.srv, opts))
		waitFor(t, "another session is served", func() bool { return hs.held.Load() == 3 })
	})
}

// holdingCallbacks is a client that never answers a sampling request: it
// waits until the call is given up.
type holdingCallbacks struct {
	v20251125.UnimplementedMCPCallbacks
}

func (holdingCallbacks) SamplingCreateMessage(ctx context.Context, _ *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}
