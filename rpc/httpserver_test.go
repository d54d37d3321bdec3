package rpc_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestListenAndServeDefaultsToLoopback(t *testing.T) {
	for in, want := range map[string]string{
		":8080":          "127.0.0.1:8080",
		"0.0.0.0:8080":   "0.0.0.0:8080",
		"localhost:9":    "localhost:9",
		"[::1]:7":        "[::1]:7",
		"not an address": "not an address",
	} {
		assert.Equal(t, want, rpc.LoopbackDefault(in), in)
	}
}

// serving runs ListenAndServe on ":0" with o (its Logger set here) and
// returns the address it logs, the function that stops it and a channel
// closed when it has returned, with its result in *result.
func serving(t *testing.T, h http.Handler, o rpc.HTTPServerOptions) (addr string, stop context.CancelFunc, done <-chan struct{}, result *error) {
	t.Helper()
	var logs syncbuf.Buffer
	o.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan struct{})
	result = new(error)
	go func() {
		*result = rpc.ListenAndServe(ctx, ":0", h, &o)
		close(served)
	}()
	t.Cleanup(func() {
		cancel()
		<-served
	})
	re := regexp.MustCompile(`msg="jsonrpc: listening" addr=(\S+)`)
	require.Eventually(t, func() bool { return re.MatchString(logs.String()) }, 10*time.Second, 5*time.Millisecond, "no listening line: %s", logs.String())
	return re.FindStringSubmatch(logs.String())[1], cancel, served, result
}

func TestListenAndServeLogsItsLoopbackAddress(t *testing.T) {
	addr, _, _, _ := serving(t, rpc.NewHTTPHandler(testService(t)), rpc.HTTPServerOptions{})
	assert.True(t, strings.HasPrefix(addr, "127.0.0.1:"), addr)
	resp, err := http.Post("http://"+addr, "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, string(b))
}

func TestNewHTTPServerHasSafeBounds(t *testing.T) {
	srv := rpc.NewHTTPServer(http.NotFoundHandler(), nil)
	assert.Equal(t, rpc.DefaultReadHeaderTimeout, srv.ReadHeaderTimeout)
	assert.Equal(t, rpc.DefaultReadTimeout, srv.ReadTimeout)
	assert.Equal(t, rpc.DefaultWriteTimeout, srv.WriteTimeout)
	assert.Equal(t, rpc.DefaultIdleTimeout, srv.IdleTimeout)
	assert.Equal(t, rpc.DefaultMaxHeaderBytes, srv.MaxHeaderBytes)

	srv = rpc.NewHTTPServer(http.NotFoundHandler(), &rpc.HTTPServerOptions{ReadTimeout: time.Second, WriteTimeout: -1, MaxHeaderBytes: 100})
	assert.Equal(t, time.Second, srv.ReadTimeout)
	assert.Zero(t, srv.WriteTimeout, "negative: no bound")
	assert.Equal(t, 100, srv.MaxHeaderBytes)
}

// dribbleTo writes parts to addr, one every 40 ms, and reports whether the
// server hung up before its own read deadline of 10 s (an EOF or a reset
// both mean it let go), and what it answered.
func dribbleTo(addr string, parts []string) (string, bool) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return err.Error(), false
	}
	defer c.Close()
	go func() {
		for _, p := range parts {
			if _, err := io.WriteString(c, p); err != nil {
				return
			}
			time.Sleep(40 * time.Millisecond)
		}
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(c)
	return string(b), !errors.Is(err, os.ErrDeadlineExceeded)
}

func TestTheServerCutsOffSlowAndOversizedRequests(t *testing.T) {
	addr, _, _, _ := serving(t, rpc.NewHTTPHandler(testService(t)), rpc.HTTPServerOptions{
		ReadHeaderTimeout: 150 * time.Millisecond, ReadTimeout: 300 * time.Millisecond, MaxHeaderBytes: 4096,
	})
	t.Run("headers that never end", func(t *testing.T) {
		parts := []string{"POST / HTTP/1.1\r\nHost: " + addr + "\r\n"}
		for range 200 {
			parts = append(parts, "X-Slow: 1\r\n")
		}
		_, closed := dribbleTo(addr, parts)
		assert.True(t, closed)
	})
	t.Run("a body that never ends", func(t *testing.T) {
		parts := []string{"POST / HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"}
		for range 200 {
			parts = append(parts, " ")
		}
		_, closed := dribbleTo(addr, parts)
		assert.True(t, closed)
	})
	t.Run("headers over the bound", func(t *testing.T) {
		req, err := http.NewRequest(http.MethodPost, "http://"+addr, strings.NewReader(`{}`))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Big", strings.Repeat("x", 8192))
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusRequestHeaderFieldsTooLarge, resp.StatusCode)
	})
}

func TestServeListenerAnswersTheCallsInFlightThenReturns(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	r := rpc.NewRouter()
	r.Register("wait", rpc.Method{Handler: func(ctx context.Context, _ *rpc.Request) (any, error) {
		close(started)
		<-release
		return "done", nil
	}})
	addr, stop, done, result := serving(t, rpc.NewHTTPHandler(r), rpc.HTTPServerOptions{})
	answered := make(chan string, 1)
	go func() {
		resp, err := http.Post("http://"+addr, "application/json", strings.NewReader(`{"jsonrpc":"2.0","method":"wait","id":1}`))
		if err != nil {
			answered <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answered <- string(b)
	}()
	<-started
	stop()
	select {
	case <-done:
		t.Fatalf("ServeListener returned with a call in flight: %v", *result)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":"done"}`, <-answered)
	<-done
	assert.ErrorIs(t, *result, context.Canceled)
}

// The server's ReadTimeout and WriteTimeout bound a request, not the
// WebSocket connection an upgrade request becomes.
func TestAWebSocketConnectionOutlivesTheRequestTimeouts(t *testing.T) {
	const bound = 100 * time.Millisecond
	addr, _, _, _ := serving(t, rpc.NewWebSocketHandler(testService(t), nil), rpc.HTTPServerOptions{ReadTimeout: bound, WriteTimeout: bound})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws://"+addr, nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	call := func() string {
		require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`)))
		_, b, err := ws.Read(ctx)
		require.NoError(t, err)
		return string(b)
	}
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, call())
	time.Sleep(3 * bound) // both bounds are long past
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, call())
}

func TestServeListenerReturnsTheErrorThatStopsServing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	require.NoError(t, ln.Close())
	err = rpc.ServeListener(context.Background(), ln, http.NotFoundHandler(), nil)
	require.Error(t, err)
	assert.ErrorIs(t, err, net.ErrClosed)
}

func TestListenAndServeReportsAnAddressItCannotListenOn(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	err = rpc.ListenAndServe(context.Background(), ln.Addr().String(), http.NotFoundHandler(), nil)
	assert.Error(t, err, "the address is taken")
}

// closerHandler is a handler that is an io.Closer but no Shutdowner.
type closerHandler struct {
	http.Handler
	closed chan struct{}
}

func (h closerHandler) Close() error { close(h.closed); return nil }

func TestServeListenerClosesAHandlerThatIsACloser(t *testing.T) {
	h := closerHandler{Handler: http.NotFoundHandler(), closed: make(chan struct{})}
	_, stop, done, result := serving(t, h, rpc.HTTPServerOptions{})
	stop()
	<-done
	assert.ErrorIs(t, *result, context.Canceled)
	select {
	case <-h.closed:
	default:
		t.Fatal("the handler was not closed at shutdown")
	}
}

func TestServeListenerCancelsTheRequestsStillRunningAfterTheGrace(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-r.Context().Done()
		close(cancelled)
	})
	addr, stop, done, result := serving(t, h, rpc.HTTPServerOptions{ShutdownGrace: 50 * time.Millisecond})
	go func() {
		if resp, err := http.Get("http://" + addr); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	stop()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("a request still running after the grace period was not cancelled")
	}
	<-done
	assert.ErrorIs(t, *result, context.Canceled)
}
