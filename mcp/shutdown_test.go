package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// idleWorkerFrame is the function on the stack of an rpc worker waiting
// for a job (see rpc's workers.go).
const idleWorkerFrame = "github.com/schemarpc/schemarpc/rpc.(*workers).awaitJob"

// noLeaks checks, after every cleanup of the test has run, that the test
// left no goroutine behind.
func noLeaks(t *testing.T) {
	t.Helper()
	current := goleak.IgnoreCurrent()
	t.Cleanup(func() {
		http.DefaultClient.CloseIdleConnections()
		// The process's idle workers exit on their own after a second.
		goleak.VerifyNone(t, current, goleak.IgnoreAnyFunction(idleWorkerFrame))
	})
}

// gate is a tool "slow" that waits for release (or its context) and a
// tool "stuck" that waits for its context.
type gate struct {
	started   chan string
	release   chan struct{}
	cancelled chan error
}

func addGatedTools(t *testing.T, s *mcp.Server) *gate {
	t.Helper()
	g := &gate{started: make(chan string, 16), release: make(chan struct{}), cancelled: make(chan error, 16)}
	schema := json.RawMessage(`{"type":"object"}`)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow", InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			g.started <- "slow"
			select {
			case <-g.release:
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("finished")}}, nil
			case <-ctx.Done():
				g.cancelled <- ctx.Err()
				return nil, ctx.Err()
			}
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "stuck", InputSchema: schema},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			g.started <- "stuck"
			<-ctx.Done()
			g.cancelled <- ctx.Err()
			return nil, ctx.Err()
		}))
	return g
}

func (g *gate) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-g.started:
	case <-time.After(5 * time.Second):
		t.Fatal("the tool did not start")
	}
}

func (g *gate) waitCancelled(t *testing.T) {
	t.Helper()
	select {
	case err := <-g.cancelled:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("the tool was not cancelled")
	}
}

// rawPost posts body with the usual Streamable HTTP headers plus hdr and
// returns the status, headers and the whole body; it runs on any goroutine.
func rawPost(url, body string, hdr map[string]string) (int, http.Header, string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var pairs []string
	for k, v := range hdr {
		pairs = append(pairs, k, v)
	}
	resp, err := postStream(ctx, url, body, pairs)
	if err != nil {
		return 0, nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b), err
}

// untilRefused posts body until the handler answers 503, and checks the
// refusal: Retry-After, and a -32000 "server shutting down" error carrying
// the given id.
func untilRefused(t *testing.T, url, body string, hdr map[string]string, id string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, h, got, err := rawPost(url, body, hdr)
		require.NoError(t, err)
		if status == http.StatusServiceUnavailable {
			assert.Equal(t, "1", h.Get("Retry-After"))
			assert.JSONEq(t, `{"jsonrpc":"2.0","id":`+id+`,"error":{"code":-32000,"message":"server shutting down"}}`, got)
			return
		}
		require.True(t, time.Now().Before(deadline), "the handler never refused %s", body)
		time.Sleep(2 * time.Millisecond)
	}
}

func shutdownAsync(s mcp.Shutdowner, grace time.Duration) <-chan error {
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), grace)
		defer cancel()
		done <- s.Shutdown(ctx)
	}()
	return done
}

func TestHTTPShutdownAnswersASessionsCallInFlightAndRefusesNewRequests(t *testing.T) {
	noLeaks(t)
	f := newFixture(t, nil)
	g := addGatedTools(t, f.srv)
	session := f.initialize(mcp.Version20251125)

	type reply struct {
		status int
		body   string
		err    error
	}
	inflight := make(chan reply, 1)
	go func() {
		status, _, body, err := rawPost(f.ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
			map[string]string{mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: mcp.Version20251125})
		inflight <- reply{status, body, err}
	}()
	g.waitStarted(t)

	shut := shutdownAsync(f.h, 5*time.Second)
	sessionHdr := map[string]string{mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: mcp.Version20251125}
	untilRefused(t, f.ts.URL, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, sessionHdr, "3")
	untilRefused(t, f.ts.URL, fmt.Sprintf(initMessage, mcp.Version20251125), nil, "1")
	// No new GET stream either.
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: mcp.Version20251125})
	assert.Equal(t, http.StatusServiceUnavailable, get.StatusCode)
	assert.Equal(t, "1", get.Header.Get("Retry-After"))
	// Notifications still reach the session.
	status, _, _, err := rawPost(f.ts.URL, `{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`, sessionHdr)
	require.NoError(t, err)
	assert.Equal(t, http.StatusAccepted, status)
	select {
	case err := <-shut:
		t.Fatalf("Shutdown returned %v with a call in flight", err)
	default:
	}

	close(g.release)
	got := <-inflight
	require.NoError(t, got.err)
	assert.Equal(t, http.StatusOK, got.status)
	assert.Contains(t, got.body, `"finished"`, "the call in flight lost its answer")
	require.NoError(t, <-shut)
	assert.Equal(t, 0, mcp.SessionCountForTest(f.h))
}

func TestHTTPShutdownAnswersStatelessCallsEndsListensAndRefusesNewRequests(t *testing.T) {
	noLeaks(t)
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{JSONResponse: true})
	g := addGatedTools(t, f.srv)

	// An open listen stream.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	listen := statelessBody(t, "L1", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	listenResp, err := postStream(ctx, f.ts.URL, listen, mirrored("subscriptions/listen", ""))
	require.NoError(t, err)
	defer listenResp.Body.Close()
	events := newSSE(t, listenResp)
	ack, err := events.next()
	require.NoError(t, err)
	require.Equal(t, "notifications/subscriptions/acknowledged", decode(t, ack.Data).Method)

	// A call in flight.
	callHdr := hdrs(mirrored("tools/call", "slow"))
	inflight := make(chan string, 1)
	go func() {
		_, _, body, err := rawPost(f.ts.URL, statelessBody(t, 5, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, nil), callHdr)
		if err != nil {
			body = err.Error()
		}
		inflight <- body
	}()
	g.waitStarted(t)

	shut := shutdownAsync(f.h, 5*time.Second)
	untilRefused(t, f.ts.URL, statelessBody(t, 6, "tools/list", nil, nil), hdrs(mirrored("tools/list", "")), "6")

	// The listen ends with its result.
	rest := events.all(t)
	require.Len(t, rest, 1, "the listen stream ends with its result alone")
	result := decode(t, rest[0].Data)
	assert.Equal(t, `"L1"`, string(result.ID))
	assert.Equal(t, "complete", result.Result["resultType"])

	close(g.release)
	assert.Contains(t, <-inflight, `"finished"`, "the call in flight lost its answer")
	require.NoError(t, <-shut)
}

func TestHTTPShutdownPastItsDeadlineCancelsCallsOfBothEras(t *testing.T) {
	noLeaks(t)
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{JSONResponse: true})
	g := addGatedTools(t, f.srv)
	session := f.initialize(mcp.Version20251125)

	done := make(chan struct{}, 2)
	go func() {
		rawPost(f.ts.URL, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stuck","arguments":{}}}`,
			map[string]string{mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: mcp.Version20251125})
		done <- struct{}{}
	}()
	go func() {
		rawPost(f.ts.URL, statelessBody(t, 3, "tools/call", map[string]any{"name": "stuck", "arguments": map[string]any{}}, nil),
			hdrs(mirrored("tools/call", "stuck")))
		done <- struct{}{}
	}()
	g.waitStarted(t)
	g.waitStarted(t)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	assert.ErrorIs(t, f.h.Shutdown(ctx), context.DeadlineExceeded)
	g.waitCancelled(t)
	g.waitCancelled(t)
	for range 2 {
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatal("a request was still open after the shutdown")
		}
	}
	assert.Equal(t, 0, mcp.SessionCountForTest(f.h))
}

func TestServeLetsStdioCallsFinishWhenItsContextEnds(t *testing.T) {
	noLeaks(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	g := addGatedTools(t, s)
	srvEnd, cliEnd := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, srvEnd) }()
	client := rpc.NewConn(cliEnd)
	defer func() { client.Close(); <-client.Done() }()

	require.NoError(t, client.Call(context.Background(), "initialize", json.RawMessage(fmt.Sprintf(
		`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}`, mcp.Version20251125)), nil))
	require.NoError(t, client.Notify(context.Background(), "notifications/initialized", nil))

	result := make(chan string, 1)
	go func() {
		var res json.RawMessage
		if err := client.Call(context.Background(), "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, &res); err != nil {
			res = json.RawMessage(err.Error())
		}
		result <- string(res)
	}()
	g.waitStarted(t)
	cancel()

	deadline := time.Now().Add(5 * time.Second)
	for {
		err := client.Call(context.Background(), "ping", nil, nil)
		var rerr *rpc.Error
		if err != nil {
			require.ErrorAs(t, err, &rerr)
			assert.Equal(t, "server shutting down", rerr.Message)
			assert.Equal(t, -32000, rerr.Code)
			break
		}
		require.True(t, time.Now().Before(deadline), "the server never refused a request")
		time.Sleep(time.Millisecond)
	}
	close(g.release)
	assert.Contains(t, <-result, `"finished"`)
	assert.ErrorIs(t, <-served, context.Canceled)
}

func TestStdioEndOfInputCancelsCallsAfterTheGracePeriod(t *testing.T) {
	for _, c := range []struct {
		name  string
		calls []string
	}{
		{"handshake", []string{
			fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, mcp.Version20251125),
			`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stuck","arguments":{}}}`,
		}},
		{"stateless", []string{
			`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stuck","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			noLeaks(t)
			s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{ShutdownGrace: 30 * time.Millisecond})
			g := addGatedTools(t, s)
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			served := make(chan error, 1)
			go func() { served <- s.Serve(context.Background(), rpc.NewStreamTransport(inR, outW)) }()
			go io.Copy(io.Discard, outR)
			for _, call := range c.calls {
				fmt.Fprintln(inW, call)
			}
			g.waitStarted(t)
			inW.Close()
			g.waitCancelled(t)
			select {
			case err := <-served:
				assert.NoError(t, err)
			case <-time.After(5 * time.Second):
				t.Fatal("Serve did not return after the grace period")
			}
			outR.Close()
		})
	}
}

// dribble opens a connection to addr and writes parts one by one with a
// pause between them, then reports when the server closed the connection
// and what it answered.
func dribble(addr string, parts []string, pause time.Duration) (answer string, closed bool) {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return err.Error(), false
	}
	defer c.Close()
	go func() {
		for _, p := range parts {
			if _, err := io.WriteString(c, p); err != nil {
				return
			}
			time.Sleep(pause)
		}
	}()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, err := io.ReadAll(c)
	// EOF or a reset (the server hung up with our bytes unread) both mean
	// the server let go; only our own read deadline means it did not.
	return string(b), !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestSlowClientsAreCutOffAndLeaveNothingBehind(t *testing.T) {
	noLeaks(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{BodyTimeout: 150 * time.Millisecond})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- mcp.ServeListener(ctx, ln, h, &mcp.HTTPServerOptions{ReadHeaderTimeout: 150 * time.Millisecond, ShutdownGrace: time.Second})
	}()
	// The baseline: the server up, one request served, no client left.
	discover := func() {
		t.Helper()
		status, _, got, err := rawPost("http://"+addr, statelessBody(t, 1, "server/discover", nil, nil), hdrs(mirrored("server/discover", "")))
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, status)
		assert.Contains(t, got, `"supportedVersions"`)
		http.DefaultClient.CloseIdleConnections()
	}
	discover()
	time.Sleep(50 * time.Millisecond)
	before := runtime.NumGoroutine()

	const slow = 16
	type outcome struct {
		kind, answer string
		closed       bool
	}
	results := make(chan outcome, 2*slow)
	// Headers that never end: one header line every 40 ms, forever.
	headers := []string{"POST / HTTP/1.1\r\nHost: " + addr + "\r\n"}
	for i := range 100 {
		headers = append(headers, fmt.Sprintf("X-Slow-%d: 1\r\n", i))
	}
	// A body that never ends: 10 of the 1000 bytes announced.
	body := []string{"POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nAccept: " + acceptBoth +
		"\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"", strings.Repeat(" ", 1)}
	for range slow {
		go func() {
			a, c := dribble(addr, headers, 40*time.Millisecond)
			results <- outcome{"headers", a, c}
		}()
		go func() {
			a, c := dribble(addr, body, 40*time.Millisecond)
			results <- outcome{"body", a, c}
		}()
	}
	// A well-behaved client is served meanwhile.
	discover()

	for range 2 * slow {
		o := <-results
		assert.True(t, o.closed, "a %s dribbler was not cut off (got %q)", o.kind, o.answer)
		if o.kind == "body" {
			assert.Contains(t, o.answer, "408", "an unfinished body gets 408")
		}
	}
	// Nothing stays behind for them.
	require.Eventually(t, func() bool { return runtime.NumGoroutine() <= before+2 },
		5*time.Second, 10*time.Millisecond, "goroutines after the slow clients left: %d, before: %d", runtime.NumGoroutine(), before)

	cancel()
	assert.ErrorIs(t, <-served, context.Canceled)
}

func TestServeListenerShutsDownGracefully(t *testing.T) {
	noLeaks(t)
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	g := addGatedTools(t, s)
	h := mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{JSONResponse: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcp.ServeListener(ctx, ln, h, nil) }()

	inflight := make(chan string, 1)
	go func() {
		_, _, body, err := rawPost(url, statelessBody(t, 9, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}}, nil),
			hdrs(mirrored("tools/call", "slow")))
		if err != nil {
			body = err.Error()
		}
		inflight <- body
	}()
	g.waitStarted(t)
	cancel()
	time.Sleep(20 * time.Millisecond)
	close(g.release)
	assert.Contains(t, <-inflight, `"finished"`)
	assert.ErrorIs(t, <-served, context.Canceled)
	_, err = net.DialTimeout("tcp", ln.Addr().String(), time.Second)
	assert.Error(t, err, "the listener is closed")
}

func TestServeListenerReturnsTheErrorThatStopsIt(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ln.Close()
	err = mcp.ServeListener(context.Background(), ln, http.NotFoundHandler(), nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, net.ErrClosed)
}

// closeOnly is a handler that can be closed but not shut down.
type closeOnly struct {
	http.Handler
	closed chan struct{}
}

func (c closeOnly) Close() error { close(c.closed); return nil }

func TestServeListenerClosesAHandlerThatCannotShutDown(t *testing.T) {
	noLeaks(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	h := closeOnly{Handler: http.NotFoundHandler(), closed: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcp.ServeListener(ctx, ln, h, nil) }()
	cancel()
	assert.ErrorIs(t, <-served, context.Canceled)
	select {
	case <-h.closed:
	default:
		t.Fatal("the handler was not closed")
	}
}
