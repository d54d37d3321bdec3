package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// shutdownBound bounds every wait of these tests for an event (a call
// started, a refusal, a shutdown): generous, because none of them is
// meant to run out in a passing test, and a shutdown whose context ran
// out would drop the calls in flight that the tests expect answered.
const shutdownBound = time.Minute

// gatedHandler serves "slow" (waits for release), "stuck" (waits for its
// context to end), "fast" and the notification "note".
type gatedHandler struct {
	started   chan string
	release   chan struct{}
	cancelled chan error
	notes     chan string
}

func newGatedHandler() *gatedHandler {
	return &gatedHandler{
		started:   make(chan string, 16),
		release:   make(chan struct{}),
		cancelled: make(chan error, 16),
		notes:     make(chan string, 16),
	}
}

func (g *gatedHandler) Handle(ctx context.Context, req *rpc.Request) (any, error) {
	switch req.Method {
	case "slow":
		g.started <- req.ID.String()
		select {
		case <-g.release:
			return "done " + req.ID.String(), nil
		case <-time.After(shutdownBound):
			return nil, errors.New("never released")
		}
	case "stuck":
		g.started <- req.ID.String()
		<-ctx.Done()
		g.cancelled <- ctx.Err()
		return nil, ctx.Err()
	case "fast":
		return "ok", nil
	case "note":
		g.notes <- string(req.Params)
		return nil, nil
	}
	return nil, rpc.MethodNotFound(req.Method)
}

func waitStarted(t *testing.T, g *gatedHandler, n int) {
	t.Helper()
	for range n {
		select {
		case <-g.started:
		case <-time.After(shutdownBound):
			t.Fatal("a handler did not start")
		}
	}
}

// untilShuttingDown calls "fast" until the server refuses it as shutting
// down, which shows the shutdown has begun.
func untilShuttingDown(t *testing.T, call func() error) *rpc.Error {
	t.Helper()
	deadline := time.Now().Add(shutdownBound)
	for time.Now().Before(deadline) {
		err := call()
		if err == nil {
			time.Sleep(time.Millisecond)
			continue
		}
		var rerr *rpc.Error
		require.ErrorAs(t, err, &rerr)
		return rerr
	}
	t.Fatal("the server never started refusing calls")
	return nil
}

func TestShutdownAnswersCallsInFlightRefusesNewOnesAndLeaksNothing(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(g))
	client := rpc.NewConn(a)
	defer func() { client.Close(); <-client.Done() }()

	results := make(chan string, 3)
	for range 3 {
		go func() {
			var s string
			if err := client.Call(context.Background(), "slow", nil, &s); err != nil {
				s = "error: " + err.Error()
			}
			results <- s
		}()
	}
	waitStarted(t, g, 3)

	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownBound)
		defer cancel()
		shut <- server.Shutdown(ctx)
	}()
	refused := untilShuttingDown(t, func() error { return client.Call(context.Background(), "fast", nil, nil) })
	assert.Equal(t, rpc.CodeServerBusy, refused.Code)
	assert.Equal(t, "server shutting down", refused.Message)

	// Notifications still run while the calls in flight finish.
	require.NoError(t, client.Notify(context.Background(), "note", map[string]int{"n": 1}))
	select {
	case n := <-g.notes:
		assert.JSONEq(t, `{"n":1}`, n)
	case <-time.After(shutdownBound):
		t.Fatal("a notification sent during the shutdown was not handled")
	}
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v before the calls in flight finished", err)
	default:
	}

	close(g.release)
	var got []string
	for range 3 {
		got = append(got, <-results)
	}
	for _, s := range got {
		assert.True(t, strings.HasPrefix(s, "done "), "a call in flight lost its answer: %q", s)
	}
	require.NoError(t, <-shut)
	<-server.Done()
	<-client.Done()
	assert.ErrorIs(t, client.Call(context.Background(), "fast", nil, nil), rpc.ErrClosed)
}

func TestShutdownPastItsDeadlineCancelsHandlers(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(g))
	client := rpc.NewConn(a)
	defer func() { client.Close(); <-client.Done() }()

	callErr := make(chan error, 1)
	go func() { callErr <- client.Call(context.Background(), "stuck", nil, nil) }()
	waitStarted(t, g, 1)

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, server.Shutdown(ctx), context.DeadlineExceeded)
	assert.ErrorIs(t, <-g.cancelled, context.Canceled, "the handler's context was not cancelled")
	<-server.Done()
	assert.ErrorIs(t, <-callErr, rpc.ErrClosed)
}

// endOfInput serves one stream connection whose input is the given lines
// followed by EOF; it returns the output lines once the connection ended.
func endOfInput(t *testing.T, g *gatedHandler, input string, opts ...rpc.Option) (func() []string, *rpc.Conn) {
	t.Helper()
	pr, pw := io.Pipe()
	out := &syncbuf.Buffer{}
	c := rpc.NewConn(rpc.NewStreamTransport(pr, out), append(opts, rpc.WithHandler(g))...)
	go func() {
		io.WriteString(pw, input)
		pw.Close()
	}()
	return func() []string {
		<-c.Done()
		return strings.Split(strings.TrimSpace(out.String()), "\n")
	}, c
}

func TestEndOfStreamAnswersEveryCallInFlightBeforeClosing(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	output, _ := endOfInput(t, g, `{"jsonrpc":"2.0","method":"slow","id":1}`+"\n"+`{"jsonrpc":"2.0","method":"slow","id":2}`+"\n")
	waitStarted(t, g, 2)
	time.Sleep(20 * time.Millisecond) // EOF has been read by now
	close(g.release)
	lines := output()
	assert.ElementsMatch(t, []string{
		`{"jsonrpc":"2.0","id":1,"result":"done 1"}`,
		`{"jsonrpc":"2.0","id":2,"result":"done 2"}`,
	}, lines)
}

func TestEndOfInputCancelsCallsPastTheGracePeriod(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	output, _ := endOfInput(t, g, `{"jsonrpc":"2.0","method":"stuck","id":1}`+"\n", rpc.WithShutdownGrace(30*time.Millisecond))
	waitStarted(t, g, 1)
	select {
	case err := <-g.cancelled:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(shutdownBound):
		t.Fatal("the handler was not cancelled after the grace period")
	}
	output()
}

func TestServeShutsDownGracefullyWhenItsContextEnds(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	a, b := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- rpc.Serve(ctx, b, g) }()
	client := rpc.NewConn(a)
	defer func() { client.Close(); <-client.Done() }()

	result := make(chan string, 1)
	go func() {
		var s string
		if err := client.Call(context.Background(), "slow", nil, &s); err != nil {
			s = err.Error()
		}
		result <- s
	}()
	waitStarted(t, g, 1)
	cancel()
	refused := untilShuttingDown(t, func() error { return client.Call(context.Background(), "fast", nil, nil) })
	assert.Equal(t, "server shutting down", refused.Message)
	close(g.release)
	assert.Equal(t, "done 1", <-result)
	assert.ErrorIs(t, <-served, context.Canceled)
}

// post sends one JSON-RPC body and returns the status, the Retry-After
// header and the body.
func post(t *testing.T, c *http.Client, url, body string) (int, string, string) {
	t.Helper()
	resp, err := c.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
}

func TestHTTPHandlerShutdownFinishesRequestsAndRefusesNewOnes(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	h := rpc.NewHTTPHandler(g)
	srv := httptest.NewServer(h)
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	defer func() { srv.Close(); tr.CloseIdleConnections() }()

	type answer struct {
		status int
		body   string
	}
	inflight := make(chan answer, 1)
	go func() {
		resp, err := c.Post(srv.URL, "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"slow","id":7}`))
		if err != nil {
			inflight <- answer{body: err.Error()}
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		inflight <- answer{resp.StatusCode, string(b)}
	}()
	waitStarted(t, g, 1)

	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownBound)
		defer cancel()
		shut <- h.Shutdown(ctx)
	}()
	deadline := time.Now().Add(shutdownBound)
	for {
		status, retry, body := post(t, c, srv.URL, `{"jsonrpc":"2.0","method":"fast","id":1}`)
		if status == http.StatusServiceUnavailable {
			assert.Equal(t, "1", retry)
			assert.JSONEq(t, `{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"server shutting down"}}`, body)
			break
		}
		require.Equal(t, http.StatusOK, status)
		require.True(t, time.Now().Before(deadline), "the handler never started refusing requests")
		time.Sleep(time.Millisecond)
	}
	close(g.release)
	got := <-inflight
	assert.Equal(t, http.StatusOK, got.status)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":7,"result":"done 7"}`, got.body)
	require.NoError(t, <-shut)
}

func TestHTTPHandlerShutdownPastItsDeadlineCancelsRequests(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	h := rpc.NewHTTPHandler(g)
	srv := httptest.NewServer(h)
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	defer func() { srv.Close(); tr.CloseIdleConnections() }()

	done := make(chan string, 1)
	go func() {
		_, _, body := post(t, c, srv.URL, `{"jsonrpc":"2.0","method":"stuck","id":1}`)
		done <- body
	}()
	waitStarted(t, g, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, h.Shutdown(ctx), context.DeadlineExceeded)
	assert.ErrorIs(t, <-g.cancelled, context.Canceled)
	var resp struct {
		Error *rpc.Error `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(<-done), &resp))
	require.NotNil(t, resp.Error)
	assert.Equal(t, rpc.CodeInternalError, resp.Error.Code)
}

func TestWebSocketHandlerShutdownFinishesCallsAndRefusesUpgrades(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	g := newGatedHandler()
	h := rpc.NewWebSocketHandler(g, nil)
	srv := httptest.NewServer(h)
	defer srv.Close()
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	client, err := rpc.DialWebSocket(context.Background(), url, nil)
	require.NoError(t, err)
	defer func() { client.Close(); <-client.Done() }()

	result := make(chan string, 1)
	go func() {
		var s string
		if err := client.Call(context.Background(), "slow", nil, &s); err != nil {
			s = err.Error()
		}
		result <- s
	}()
	waitStarted(t, g, 1)
	shut := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownBound)
		defer cancel()
		shut <- h.Shutdown(ctx)
	}()
	refused := untilShuttingDown(t, func() error { return client.Call(context.Background(), "fast", nil, nil) })
	assert.Equal(t, "server shutting down", refused.Message)

	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "an upgrade during the shutdown")
	http.DefaultTransport.(*http.Transport).CloseIdleConnections()

	close(g.release)
	assert.Equal(t, "done 1", <-result)
	require.NoError(t, <-shut)
}
