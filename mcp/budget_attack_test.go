package mcp_test

import (
	"context"
	"flag"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// budgetFull runs TestMemoryAttacksStayWithinTheBudget at the size of the
// attacks it reproduces (4 MB calls, the default budget) instead of its
// scaled-down form; docs/security.md reports what it measured.
var budgetFull = flag.Bool("budget.full", false, "run the memory attacks at full size")

// liveHeap is the heap in use by live objects once the collector has run.
func liveHeap() int64 {
	live, _ := heapAfterGC()
	return live
}

// heapAfterGC returns, once the collector has run, the bytes of live
// objects and of the heap's spans in use (HeapInuse, which counts the
// room around them too).
func heapAfterGC() (live, inuse int64) {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc), int64(m.HeapInuse)
}

// A call that waits long keeps what its handler holds, its decoded
// params, and not the bytes of the request it came in: a held call with
// 512 KiB of _meta costs about 512 KiB, in a session awaiting the client's
// answer as in a stateless request whose handler runs on.
func TestAHeldCallKeepsItsParamsNotItsRequest(t *testing.T) {
	const calls, pad = 4, 512 << 10
	t.Run("session call awaiting the client", func(t *testing.T) {
		hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: -1}, nil)
		f := hs.f
		session := f.initialize(mcp.Version20251125)
		before := liveHeap()
		for id := range calls {
			want := hs.held.Load() + 1
			resp, hangUp := postOpen(t, f, session, holdCall(id+10, pad))
			require.Equal(t, http.StatusOK, resp.StatusCode)
			waitFor(t, "the call is held", func() bool { return hs.held.Load() == want })
			hangUp()
		}
		perCall := (liveHeap() - before) / calls
		t.Logf("a held session call with %d bytes of _meta holds %d bytes", pad, perCall)
		assert.Less(t, perCall, int64(pad*3/2), "one copy of the params, not two")
	})
	t.Run("stateless call", func(t *testing.T) {
		f := newStatelessFixture(t, &mcp.ServerOptions{MemoryBudget: -1}, nil)
		// A first call compiles the stateless schemas, which stay.
		resp, hangUp := postOpen(t, f, "", statelessBody(t, 0, "tools/call", map[string]any{"name": "echo"}, nil), mirrored("tools/call", "echo")...)
		io.Copy(io.Discard, resp.Body)
		hangUp()
		release := make(chan struct{})
		var running sync.WaitGroup
		running.Add(calls)
		require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: "wait"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			running.Done()
			select {
			case <-release:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{}, nil
		}))
		before := liveHeap()
		var answered sync.WaitGroup
		for id := range calls {
			body := &droppingReader{b: []byte(statelessBody(t, id+1, "tools/call", map[string]any{"name": "wait"}, map[string]any{"pad": strings.Repeat("x", pad)}))}
			answered.Add(1)
			go func() {
				defer answered.Done()
				resp, hangUp := postReader(t, f, body, mirrored("tools/call", "wait")...)
				io.Copy(io.Discard, resp.Body)
				hangUp()
			}()
		}
		running.Wait()
		perCall := (liveHeap() - before) / calls
		close(release)
		answered.Wait()
		t.Logf("a running stateless call with %d bytes of _meta holds %d bytes", pad, perCall)
		assert.Less(t, perCall, int64(pad*3/2), "one copy of the params, not two")
	})
}

// droppingReader is a request body that lets its bytes go once read, so
// that a request in flight does not count in the heap the test measures.
type droppingReader struct{ b []byte }

func (r *droppingReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		r.b = nil
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	if len(r.b) == 0 {
		r.b = nil
	}
	return n, nil
}

// postReader POSTs a stateless request whose body is read from body,
// with the mirrored headers given as pairs; it returns the response and a
// hang-up.
func postReader(t *testing.T, f *fixture, body *droppingReader, headers ...string) (*http.Response, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL, body)
	require.NoError(t, err)
	req.ContentLength = int64(len(body.b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", acceptBoth)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Request = nil
	return resp, cancel
}

// attackSize sizes the attacks of TestMemoryAttacksStayWithinTheBudget.
type attackSize struct {
	budget, share int64 // ServerOptions.MemoryBudget and MemoryShare
	pad           int   // bytes of _meta of each held call
	// Attack 1: sessions that each send calls held awaiting their answer,
	// hanging up after each.
	heldSessions, heldCalls int
	// Attack 2: idle sessions that each read unknown resources whose URIs
	// are uri bytes long, an error answer each, kept for resumption.
	idleSessions, reads, uri int
}

// Attacks 1 and 2 of issue 27, scaled down: sessions send calls with
// megabytes of _meta that wait for answers never given, and hang up; idle
// sessions fill their event store with error answers to huge unknown URIs.
// The heap stays within the budget plus half of it (Go's own, the
// sessions', the test's), the refused work is answered 503, and another
// client is served throughout.
func TestMemoryAttacksStayWithinTheBudget(t *testing.T) {
	size := attackSize{budget: 8 << 20, share: 3 << 20, pad: 1 << 20, heldSessions: 5, heldCalls: 4, idleSessions: 4, reads: 20, uri: 64 << 10}
	if *budgetFull {
		size = attackSize{pad: 4<<20 - 200, heldSessions: 5, heldCalls: 200, idleSessions: 20, reads: 50, uri: 1 << 20}
	}
	hs := newHoldServer(t, &mcp.ServerOptions{MemoryBudget: size.budget, MemoryShare: size.share}, nil)
	f := hs.f
	budget := size.budget
	if budget == 0 {
		budget = mcp.DefaultMemoryBudget
	}
	require.NoError(t, f.srv.AddResource(&mcp.Resource{URI: "known://a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	}))
	served := func(what string) {
		t.Helper()
		other := f.initialize(mcp.Version20251125)
		msgs := messages(t, f.post(other, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`))
		require.Len(t, msgs, 1)
		assert.NotNil(t, msgs[0].Result, "another client is served %s", what)
	}
	before, beforeInuse := heapAfterGC()
	peak, peakInuse := int64(0), int64(0)
	measure := func() {
		live, inuse := heapAfterGC()
		peak, peakInuse = max(peak, live-before), max(peakInuse, inuse-beforeInuse)
	}

	accepted, refused := 0, 0
	for range size.heldSessions {
		session := f.initialize(mcp.Version20251125)
		for id := range size.heldCalls {
			resp, hangUp := postOpen(t, f, session, holdCall(id+10, size.pad))
			switch resp.StatusCode {
			case http.StatusOK:
				accepted++
			case http.StatusServiceUnavailable:
				refused++
			default:
				t.Fatalf("a held call got %d", resp.StatusCode)
			}
			hangUp()
		}
		measure()
	}
	served("after attack 1")
	measure()
	t.Logf("attack 1: %d calls of %d bytes accepted, %d refused with 503; %d held at the end", accepted, size.pad, refused, hs.held.Load())
	assert.Positive(t, refused, "the budget refuses some of the attack")

	uri := "unknown://" + strings.Repeat("u", size.uri)
	var stored int64
	for range size.idleSessions {
		session := f.initialize(mcp.Version20251125)
		for id := range size.reads {
			resp, hangUp := postOpen(t, f, session, `{"jsonrpc":"2.0","id":`+strconv.Itoa(id+10)+`,"method":"resources/read","params":{"uri":"`+uri+`"}}`)
			io.Copy(io.Discard, resp.Body)
			hangUp()
		}
		stored = max(stored, mcp.EventBytesForTest(f.srv, session))
		measure()
	}
	served("after attack 2")
	measure()
	t.Logf("attack 2: %d idle sessions × %d error answers to %d-byte URIs; at most %d bytes stored per session",
		size.idleSessions, size.reads, size.uri, stored)
	assert.Less(t, stored, int64(size.reads*4<<10), "an error answer stores a few KiB, not the URI")

	t.Logf("budget %d bytes; after GC, live heap at most %d bytes above the start (%.2f of the budget), heap in use at most %d above (%.2f); %d bytes counted at the end",
		budget, peak, float64(peak)/float64(budget), peakInuse, float64(peakInuse)/float64(budget), mcp.MemoryInUseForTest(f.srv))
	assert.Less(t, peak, budget*3/2, "the heap stays within the budget and half of it")
}
