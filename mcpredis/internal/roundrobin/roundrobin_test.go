package roundrobin_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcpredis/internal/roundrobin"
)

// backend is a test server that answers with its name, the method, path, query, a header
// and the body it got, and counts its requests.
type backend struct {
	*httptest.Server
	hits atomic.Int64
}

func newBackend(t *testing.T, name string) *backend {
	b := &backend{}
	b.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Name", name)
		fmt.Fprintf(w, "%s %s %s?%s %s %s", name, r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Mcp-Session-Id"), body)
	}))
	t.Cleanup(b.Close)
	return b
}

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	require.NoError(t, err)
	return u
}

// refusingURL is an http URL where nothing listens.
func refusingURL(t *testing.T) *url.URL {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return mustURL(t, "http://"+addr)
}

// balance serves a balancer over urls and returns its address.
func balance(t *testing.T, opts *roundrobin.Options, urls ...*url.URL) string {
	t.Helper()
	b, err := roundrobin.New(urls, opts)
	require.NoError(t, err)
	srv := httptest.NewServer(b)
	t.Cleanup(srv.Close)
	return srv.URL
}

func get(t *testing.T, method, url, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Mcp-Session-Id", "s1")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

func TestEachRequestGoesToTheNextBackendInTurn(t *testing.T) {
	a, b, c := newBackend(t, "a"), newBackend(t, "b"), newBackend(t, "c")
	lb := balance(t, &roundrobin.Options{BackendHeader: "X-Backend"},
		mustURL(t, a.URL), mustURL(t, b.URL), mustURL(t, c.URL))
	var names, indexes []string
	for range 6 {
		resp, _ := get(t, http.MethodGet, lb+"/mcp", "")
		names = append(names, resp.Header.Get("X-Name"))
		indexes = append(indexes, resp.Header.Get("X-Backend"))
	}
	assert.Equal(t, []string{"a", "b", "c", "a", "b", "c"}, names)
	assert.Equal(t, []string{"0", "1", "2", "0", "1", "2"}, indexes)
}

func TestMethodPathQueryHeadersAndBodyAreForwarded(t *testing.T) {
	a := newBackend(t, "a")
	lb := balance(t, nil, mustURL(t, a.URL))
	resp, body := get(t, http.MethodPost, lb+"/mcp?x=1", `{"jsonrpc":"2.0"}`)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, `a POST /mcp?x=1 s1 {"jsonrpc":"2.0"}`, body)
	assert.Empty(t, resp.Header.Get("X-Backend"), "no backend header unless asked for")
}

func TestABackendThatRefusesTheConnectionIsSkipped(t *testing.T) {
	a, c := newBackend(t, "a"), newBackend(t, "c")
	lb := balance(t, nil, mustURL(t, a.URL), refusingURL(t), mustURL(t, c.URL))
	var bodies []string
	for i := range 6 {
		_, body := get(t, http.MethodPost, lb+"/mcp", fmt.Sprint("body", i))
		bodies = append(bodies, body)
	}
	assert.Equal(t, []string{
		"a POST /mcp? s1 body0", "c POST /mcp? s1 body1", "c POST /mcp? s1 body2",
		"a POST /mcp? s1 body3", "c POST /mcp? s1 body4", "c POST /mcp? s1 body5",
	}, bodies, "the refused request went to the next backend with its whole body")
}

func TestNoBackendAnsweringIsBadGateway(t *testing.T) {
	lb := balance(t, nil, refusingURL(t), refusingURL(t))
	resp, _ := get(t, http.MethodPost, lb+"/mcp", "{}")
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
}

func TestABackendThatFailsAfterTakingTheRequestIsNotRetried(t *testing.T) {
	var hits atomic.Int64
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			_ = conn.Close() // no response at all
		}
	}))
	defer broken.Close()
	good := newBackend(t, "good")
	lb := balance(t, nil, mustURL(t, broken.URL), mustURL(t, good.URL))
	resp, _ := get(t, http.MethodPost, lb+"/mcp", "{}")
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Equal(t, int64(1), hits.Load())
	assert.Equal(t, int64(0), good.hits.Load(), "a request a backend may have acted on is not sent again")
}

func TestABodyOverTheLimitIs413(t *testing.T) {
	a := newBackend(t, "a")
	lb := balance(t, &roundrobin.Options{MaxBodyBytes: 8}, mustURL(t, a.URL))
	resp, _ := get(t, http.MethodPost, lb+"/mcp", "123456789")
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	assert.Equal(t, int64(0), a.hits.Load())
	resp, _ = get(t, http.MethodPost, lb+"/mcp", "12345678")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestStreamingResponsesFlowAsTheyAreWritten(t *testing.T) {
	release := make(chan struct{})
	sse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, "id: 1\ndata: first\n\n")
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "id: 2\ndata: second\n\n")
	}))
	defer sse.Close()
	defer close(release)
	lb := balance(t, nil, mustURL(t, sse.URL))

	resp, err := http.Get(lb + "/mcp")
	require.NoError(t, err)
	defer resp.Body.Close()
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// The first event arrives while the backend still holds the second back.
	for _, want := range []string{"id: 1", "data: first"} {
		select {
		case got := <-lines:
			assert.Equal(t, want, got)
		case <-time.After(10 * time.Second):
			t.Fatal("the first event did not come through before the response ended")
		}
	}
}

func TestNewRefusesNoBackendsAndURLsItCannotForwardTo(t *testing.T) {
	_, err := roundrobin.New(nil, nil)
	assert.ErrorContains(t, err, "no backends")
	for _, bad := range []string{"localhost/mcp", "ftp://127.0.0.1:21", "http://"} {
		_, err := roundrobin.New([]*url.URL{mustURL(t, bad)}, nil)
		assert.ErrorContains(t, err, "not an http or https URL", bad)
	}
}

func TestABodyCutShortIsBadRequest(t *testing.T) {
	a := newBackend(t, "a")
	lb := balance(t, nil, mustURL(t, a.URL))
	conn, err := net.Dial("tcp", strings.TrimPrefix(lb, "http://"))
	require.NoError(t, err)
	defer conn.Close()
	require.NoError(t, conn.SetDeadline(time.Now().Add(10*time.Second)))
	_, err = fmt.Fprint(conn, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nonly ten b")
	require.NoError(t, err)
	require.NoError(t, conn.(*net.TCPConn).CloseWrite())
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, int64(0), a.hits.Load())
}

func TestAClientThatGoesAwayIsNoBackendFailure(t *testing.T) {
	entered := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.ReadAll(r.Body) // the server notices a closed connection once the body is read
		close(entered)
		<-r.Context().Done()
	}))
	defer slow.Close()
	var logged strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logged.Write(p)
	}), nil))
	b, err := roundrobin.New([]*url.URL{mustURL(t, slow.URL)}, &roundrobin.Options{Logger: logger})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}")).WithContext(ctx)
	rec := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		b.ServeHTTP(rec, req)
		close(done)
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the request never reached the backend")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the balancer did not give up after the client went away")
	}
	assert.NotEqual(t, http.StatusBadGateway, rec.Code)
	mu.Lock()
	defer mu.Unlock()
	assert.Empty(t, logged.String())
}

func TestAFailureIsLogged(t *testing.T) {
	var logged strings.Builder
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	b, err := roundrobin.New([]*url.URL{refusingURL(t)}, &roundrobin.Options{Logger: logger})
	require.NoError(t, err)
	rec := httptest.NewRecorder()
	b.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}")))
	assert.Equal(t, http.StatusBadGateway, rec.Code)
	assert.Contains(t, logged.String(), "no backend answered")
	assert.Contains(t, logged.String(), "connection refused")
}

// writerFunc is an io.Writer made of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }
