package mcp_test

import (
	"bufio"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// rawGET opens a session's GET stream on a connection of its own, without
// an HTTP client (whose read and write loops would hold goroutines of the
// test's own), and returns the response once its head is read.
func rawGET(t *testing.T, addr, session string) (*http.Response, net.Conn) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 10*time.Second)
	require.NoError(t, err)
	t.Cleanup(func() { conn.Close() })
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+"/", nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(mcp.HeaderSessionID, session)
	require.NoError(t, conn.SetDeadline(time.Now().Add(30*time.Second)))
	require.NoError(t, req.Write(conn))
	resp, err := http.ReadResponse(bufio.NewReader(conn), req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	return resp, conn
}

// waitGoroutines waits (generously) until at most bound goroutines run.
func waitGoroutines(t *testing.T, bound int) {
	t.Helper()
	last := runtime.NumGoroutine()
	ok := assert.Eventually(t, func() bool { last = runtime.NumGoroutine(); return last <= bound }, 30*time.Second, 20*time.Millisecond)
	require.True(t, ok, "goroutines: %d at the last look, want at most %d", last, bound)
}

// An idle GET stream over HTTP/1.1 holds no goroutine: its connection is
// taken from net/http once the head is written, and written to only when
// there is something to send. The streams still carry what their sessions
// send, in Go's own chunked framing.
func TestAnIdleGETStreamHoldsNoGoroutine(t *testing.T) {
	f := newFixture(t, nil)
	addr := f.ts.Listener.Addr().String()
	const n = 40
	sessions := make([]string, n+1)
	for i := range sessions {
		sessions[i] = f.initialize(mcp.Version20251125)
	}
	f.ts.CloseClientConnections() // the POSTs' kept-alive connections
	rawGET(t, addr, sessions[n])  // the keep-alive ticker, shared by every stream, starts with the first
	base := runtime.NumGoroutine()
	// Goroutines of earlier tests may still come and go (a shared worker
	// ends after a second idle, a timer fires): a few are allowed, far fewer
	// than the n a goroutine per stream would add.
	slack := n / 4

	streams := make([]*sse, n)
	for i := range n {
		resp, _ := rawGET(t, addr, sessions[i])
		streams[i] = newSSE(t, resp)
	}
	waitGoroutines(t, base+slack)

	for i := range n {
		require.NoError(t, mcp.NotifyForTest(f.session(sessions[i]), "notifications/tools/list_changed", nil))
	}
	for i, r := range streams {
		ev, err := r.next()
		require.NoError(t, err, "stream %d", i)
		assert.Equal(t, "notifications/tools/list_changed", decode(t, ev.Data).Method)
	}
	waitGoroutines(t, base+slack) // the writers ended with their queues
}

// A client that goes away is noticed when a write to it fails, a
// keep-alive comment at the latest: its stream ends, and the session,
// no longer kept busy by it, times out.
func TestAGETStreamWhoseClientWentAwayEndsOnAKeepAlive(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{SessionTimeout: 100 * time.Millisecond, KeepAlive: 10 * time.Millisecond})
	session := f.initialize(mcp.Version20251125)
	resp, conn := rawGET(t, f.ts.Listener.Addr().String(), session)
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	require.NoError(t, err)
	require.Equal(t, ": keep-alive\n", line, "the stream is alive")
	require.Equal(t, 1, mcp.SessionCountForTest(f.h), "an open stream keeps its session")

	require.NoError(t, conn.Close())
	require.Eventually(t, func() bool { return mcp.SessionCountForTest(f.h) == 0 }, 30*time.Second, 10*time.Millisecond,
		"the stream ends on a failed write, and the session times out")
}

// hiddenHijacker is a ResponseWriter that cannot be hijacked, as a
// middleware's wrapper without Unwrap is.
type hiddenHijacker struct{ http.ResponseWriter }

func (w hiddenHijacker) Flush() { http.NewResponseController(w.ResponseWriter).Flush() }

// refusingHijacker is a ResponseWriter whose Hijack fails.
type refusingHijacker struct{ hiddenHijacker }

func (refusingHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, errors.New("no hijacking here")
}

// A GET stream whose connection cannot be taken over (HTTP/2, a
// ResponseWriter without Hijack, a Hijack that fails) is served by its
// handler's goroutine, as before: it carries the session's messages, and
// ends when the session does.
func TestAGETStreamThatCannotBeTakenOverIsServedByItsHandler(t *testing.T) {
	for _, tc := range []struct {
		name  string
		wrap  func(http.Handler) http.Handler
		http2 bool
	}{
		{"HTTP/2", func(h http.Handler) http.Handler { return h }, true},
		{"no Hijack", func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(hiddenHijacker{w}, r) })
		}, false},
		{"Hijack fails", func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(refusingHijacker{hiddenHijacker{w}}, r) })
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
			h := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{KeepAlive: 10 * time.Millisecond})
			ts := httptest.NewUnstartedServer(tc.wrap(h))
			if tc.http2 {
				ts.EnableHTTP2 = true
				ts.StartTLS()
			} else {
				ts.Start()
			}
			t.Cleanup(func() {
				h.Close()
				ts.Close()
			})
			f := &fixture{t: t, srv: s, h: h, ts: ts, client: ts.Client()}
			session := f.initialize(mcp.Version20251125)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL, nil)
			require.NoError(t, err)
			req.Header.Set("Accept", "text/event-stream")
			req.Header.Set(mcp.HeaderSessionID, session)
			resp, err := ts.Client().Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			if tc.http2 {
				require.Equal(t, 2, resp.ProtoMajor)
			} else {
				require.Empty(t, resp.Header.Get("Connection"), "net/http's own framing, not ours")
			}
			r := newSSE(t, resp)
			require.NoError(t, mcp.NotifyForTest(f.session(session), "notifications/prompts/list_changed", nil))
			ev, err := r.next()
			require.NoError(t, err)
			assert.Equal(t, "notifications/prompts/list_changed", decode(t, ev.Data).Method)

			require.NoError(t, h.Close())
			assert.Empty(t, r.all(t), "the stream ends with its session")
		})
	}
}

// A GET stream taken over says so in its head: chunked framing of our
// own, and the connection closes when the stream ends. The head carries
// what a middleware set.
func TestATakenOverGETStreamIsChunkedAndClosesItsConnection(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, nil)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Middleware", "here")
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	f := &fixture{t: t, srv: s, h: h, ts: ts}
	session := f.initialize(mcp.Version20251125)
	resp, _ := rawGET(t, ts.Listener.Addr().String(), session)
	assert.Equal(t, []string{"chunked"}, resp.TransferEncoding)
	assert.True(t, resp.Close, "Connection: close")
	assert.Equal(t, "here", resp.Header.Get("X-Middleware"))
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	assert.NotEmpty(t, resp.Header.Get("Date"))

	r := newSSE(t, resp)
	require.NoError(t, mcp.NotifyForTest(f.session(session), "notifications/resources/list_changed", nil))
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/resources/list_changed", decode(t, ev.Data).Method)
	require.Equal(t, http.StatusNoContent, f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: session}).StatusCode)
	assert.Empty(t, r.all(t), "the stream ends cleanly with its session")
}

// A server shutting down ends the GET streams it took over, though
// http.Server does not track their connections: the stream ends cleanly
// and nothing is left running.
func TestServeListenerEndsATakenOverGETStream(t *testing.T) {
	noLeaks(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, nil)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- mcp.ServeListener(ctx, ln, h, nil) }()

	ts := &httptest.Server{URL: "http://" + ln.Addr().String(), Listener: ln}
	f := &fixture{t: t, srv: s, h: h, ts: ts}
	session := f.initialize(mcp.Version20251125)
	resp, _ := rawGET(t, ln.Addr().String(), session)
	r := newSSE(t, resp)
	require.NoError(t, mcp.NotifyForTest(f.session(session), "notifications/tools/list_changed", nil))
	ev, err := r.next()
	require.NoError(t, err)
	require.Equal(t, "notifications/tools/list_changed", decode(t, ev.Data).Method)

	cancel()
	assert.Empty(t, r.all(t), "the stream ends with the server")
	select {
	case err := <-served:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(30 * time.Second):
		require.FailNow(t, "ServeListener did not return")
	}
}
