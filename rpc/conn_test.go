package rpc_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/schemarpc/schemarpc/internal/syncbuf"

	"github.com/schemarpc/schemarpc/rpc"
)

// connPair returns a client Conn connected to a server Conn serving h.
func connPair(t *testing.T, h rpc.Handler, serverOpts []rpc.Option, clientOpts ...rpc.Option) (client, server *rpc.Conn) {
	t.Helper()
	a, b := rpc.NewPipe()
	server = rpc.NewConn(b, append(serverOpts, rpc.WithHandler(h))...)
	client = rpc.NewConn(a, clientOpts...)
	t.Cleanup(func() {
		client.Close()
		server.Close()
		<-client.Done()
		<-server.Done()
	})
	return client, server
}

func TestCallDecodesTypedResult(t *testing.T) {
	client, _ := connPair(t, testService(t), nil)
	var sum float64
	require.NoError(t, client.Call(context.Background(), "add", map[string]float64{"a": 1.5, "b": 2}, &sum))
	assert.Equal(t, 3.5, sum)
	require.NoError(t, client.Call(context.Background(), "add", []int{4, 5}, &sum))
	assert.Equal(t, 9.0, sum)
	require.NoError(t, client.Call(context.Background(), "add", []int{1, 1}, nil), "a nil result discards it")
}

func TestCallReturnsPeerErrors(t *testing.T) {
	client, _ := connPair(t, testService(t), nil)
	err := client.Call(context.Background(), "fail", nil, nil)
	var e *rpc.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 42, e.Code)
	assert.Equal(t, "deliberate failure", e.Message)
	assert.JSONEq(t, `{"attempt":1}`, string(e.Data))
	assert.ErrorIs(t, client.Call(context.Background(), "nope", nil, nil), rpc.MethodNotFound(""))
	assert.ErrorIs(t, client.Call(context.Background(), "add", map[string]any{"a": "x"}, nil), rpc.InvalidParams(""))
}

func TestCallRejectsParamsThatAreNotObjectOrArray(t *testing.T) {
	client, _ := connPair(t, testService(t), nil)
	err := client.Call(context.Background(), "echo", 42, nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "object or array")
}

func TestCallResultDecodingIsCaseSensitive(t *testing.T) {
	r := rpc.NewRouter()
	r.Register("user", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return map[string]string{"Name": "smuggled"}, nil
	}})
	client, _ := connPair(t, r, nil)
	var got struct {
		Name string `json:"name"`
	}
	require.NoError(t, client.Call(context.Background(), "user", nil, &got))
	assert.Empty(t, got.Name, "Name must not fill the field tagged name")
}

func TestNotifyIsNotAnswered(t *testing.T) {
	got := make(chan string, 1)
	r := rpc.NewRouter()
	r.Register("hello", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		got <- string(req.Params)
		return "ignored", nil
	}})
	client, _ := connPair(t, r, nil)
	require.NoError(t, client.Notify(context.Background(), "hello", []string{"world"}))
	assert.Equal(t, `["world"]`, <-got)
}

func TestBatchCall(t *testing.T) {
	client, _ := connPair(t, testService(t), nil)
	var s1, s2 float64
	calls := []*rpc.BatchCall{
		{Method: "add", Params: []int{1, 2}, Result: &s1},
		{Method: "tick", Notify: true},
		{Method: "fail"},
		{Method: "add", Params: map[string]int{"a": 5, "b": 5}, Result: &s2},
	}
	require.NoError(t, client.Batch(context.Background(), calls))
	assert.NoError(t, calls[0].Err)
	assert.Equal(t, 3.0, s1)
	assert.NoError(t, calls[1].Err)
	var e *rpc.Error
	require.ErrorAs(t, calls[2].Err, &e)
	assert.Equal(t, 42, e.Code)
	assert.Equal(t, 10.0, s2)
	assert.Error(t, client.Batch(context.Background(), nil), "an empty batch is refused locally")
}

// blocking returns a router whose "block" method waits until release is
// closed or its context ends, reporting each start on started.
func blocking(started chan<- struct{}, release <-chan struct{}, cancelled chan<- struct{}) *rpc.Router {
	r := rpc.NewRouter()
	r.Register("block", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		started <- struct{}{}
		select {
		case <-release:
			return "released", nil
		case <-ctx.Done():
			if cancelled != nil {
				cancelled <- struct{}{}
			}
			return nil, ctx.Err()
		}
	}})
	r.Register("quick", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return "quick", nil
	}})
	return r
}

func TestCallHonoursItsDeadlineAndIgnoresTheLateResponse(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	client, _ := connPair(t, blocking(started, release, nil), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := client.Call(ctx, "block", nil, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	<-started
	close(release) // the late response arrives and is dropped
	require.NoError(t, client.Call(context.Background(), "quick", nil, nil))
}

func TestRepliesGoOutAsCallsComplete(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	client, _ := connPair(t, blocking(started, release, nil), nil)
	blocked := make(chan error, 1)
	go func() { blocked <- client.Call(context.Background(), "block", nil, nil) }()
	<-started
	// A later call completes while the first is still running.
	require.NoError(t, client.Call(context.Background(), "quick", nil, nil))
	close(release)
	require.NoError(t, <-blocked)
}

func TestInFlightCallsAreBoundedAndTheOverflowIsBusy(t *testing.T) {
	// One handler may run and one call may wait: the third is refused.
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(blocking(started, release, nil)), rpc.WithMaxInFlight(1), rpc.WithMaxQueued(1))
	t.Cleanup(func() { a.Close(); server.Close(); <-server.Done() })
	ctx := context.Background()
	send := func(s string) { require.NoError(t, a.Write(ctx, []byte(s))) }
	read := func() string {
		b, err := a.Read(ctx)
		require.NoError(t, err)
		return string(b)
	}
	send(`{"jsonrpc":"2.0","method":"block","id":1}`)
	<-started
	// The server reads in order: 2 is queued behind 1, 3 finds no room.
	send(`{"jsonrpc":"2.0","method":"block","id":2}`)
	send(`{"jsonrpc":"2.0","method":"quick","id":3}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":3,"error":{"code":-32000,"message":"server busy: too many calls in flight"}}`, read())
	// A notification finds no room either: it is dropped, never answered
	// (the replies read below are exactly those of 1, 2 and 4).
	send(`{"jsonrpc":"2.0","method":"quick"}`)
	select {
	case <-started:
		t.Fatal("a second handler started past the in-flight limit")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	got := []string{read(), read()}
	assert.ElementsMatch(t, []string{
		`{"jsonrpc":"2.0","id":1,"result":"released"}`,
		`{"jsonrpc":"2.0","id":2,"result":"released"}`,
	}, got, "no accepted call is lost")
	send(`{"jsonrpc":"2.0","method":"quick","id":4}`)
	assert.Equal(t, `{"jsonrpc":"2.0","id":4,"result":"quick"}`, read(), "the server serves again")
}

func TestClosingTheConnCancelsHandlers(t *testing.T) {
	started := make(chan struct{}, 1)
	cancelled := make(chan struct{}, 1)
	client, server := connPair(t, blocking(started, make(chan struct{}), cancelled), nil)
	errc := make(chan error, 1)
	go func() { errc <- client.Call(context.Background(), "block", nil, nil) }()
	<-started
	require.NoError(t, server.Close())
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	assert.ErrorIs(t, <-errc, rpc.ErrClosed)
	<-server.Done()
	assert.ErrorIs(t, client.Call(context.Background(), "quick", nil, nil), rpc.ErrClosed)
}

func TestEndOfInputLetsCallsInFlightFinish(t *testing.T) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(blocking(started, release, nil)))
	require.NoError(t, a.Write(context.Background(), []byte(`{"jsonrpc":"2.0","method":"block","id":1}`)))
	<-started
	// The client end stops sending, but its reader stays: the pipe is closed
	// only after the reply is read.
	replyc := make(chan []byte, 1)
	go func() {
		b, _ := a.Read(context.Background())
		replyc <- b
	}()
	close(release)
	assert.JSONEq(t, `{"jsonrpc":"2.0","id":1,"result":"released"}`, string(<-replyc))
	a.Close()
	require.NoError(t, server.Wait())
}

func TestACallInFlightStillNotifiesAfterTheInputEnds(t *testing.T) {
	defer verifyNoLeaks(t, goleak.IgnoreCurrent())
	notifyErr := make(chan error, 1)
	h := rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		conn := rpc.ConnFromContext(ctx)
		// The peer never answers: this call fails when its input ends.
		if err := conn.Call(ctx, "never_answered", nil, nil); !errors.Is(err, rpc.ErrClosed) {
			return nil, fmt.Errorf("the call to the peer: got %v, want rpc.ErrClosed", err)
		}
		err := conn.Notify(ctx, "progress", map[string]int{"done": 1})
		notifyErr <- err
		return "finished", err
	})
	pr, pw := io.Pipe()
	out := &syncbuf.Buffer{}
	c := rpc.NewConn(rpc.NewStreamTransport(pr, out), rpc.WithHandler(h))
	go func() {
		io.WriteString(pw, `{"jsonrpc":"2.0","method":"work","id":1}`+"\n")
		pw.Close()
	}()
	require.NoError(t, c.Wait())
	require.NoError(t, <-notifyErr)
	var lines []string
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if !strings.Contains(line, "never_answered") { // written only when sent before the end of input
			lines = append(lines, line)
		}
	}
	assert.Equal(t, []string{
		`{"jsonrpc":"2.0","method":"progress","params":{"done":1}}`,
		`{"jsonrpc":"2.0","id":1,"result":"finished"}`,
	}, lines)
}

func TestNotifyFailsOnAClosedConn(t *testing.T) {
	a, _ := rpc.NewPipe()
	c := rpc.NewConn(a)
	require.NoError(t, c.Close())
	assert.ErrorIs(t, c.Notify(context.Background(), "late", nil), rpc.ErrClosed)
}

func TestNotifyReportsAFailedWrite(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	c := rpc.NewConn(rpc.NewStreamTransport(inR, failingWriter{}))
	defer c.Close()
	err := c.Notify(context.Background(), "progress", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disk on fire")
	assert.NotErrorIs(t, err, rpc.ErrClosed)
}

func TestBothSidesCallEachOther(t *testing.T) {
	// The client serves "whoami"; the server's handler calls it back.
	clientSide := rpc.NewRouter()
	clientSide.Register("whoami", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return "the client", nil
	}})
	serverSide := rpc.NewRouter()
	serverSide.Register("greet", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		conn := rpc.ConnFromContext(ctx)
		if conn == nil {
			return nil, errors.New("no conn in context")
		}
		var name string
		if err := conn.Call(ctx, "whoami", nil, &name); err != nil {
			return nil, err
		}
		return "hello, " + name, nil
	}})
	client, _ := connPair(t, serverSide, nil, rpc.WithHandler(clientSide))
	var greeting string
	require.NoError(t, client.Call(context.Background(), "greet", nil, &greeting))
	assert.Equal(t, "hello, the client", greeting)
}

func TestConnWithoutHandlerAnswersMethodNotFound(t *testing.T) {
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b)
	client := rpc.NewConn(a)
	defer server.Close()
	defer client.Close()
	assert.ErrorIs(t, client.Call(context.Background(), "anything", nil, nil), rpc.MethodNotFound(""))
}

func TestServeReturnsAtEndOfInput(t *testing.T) {
	a, b := rpc.NewPipe()
	done := make(chan error, 1)
	go func() { done <- rpc.Serve(context.Background(), b, testService(t)) }()
	client := rpc.NewConn(a)
	var sum float64
	require.NoError(t, client.Call(context.Background(), "add", []int{2, 2}, &sum))
	assert.Equal(t, 4.0, sum)
	client.Close()
	require.NoError(t, <-done)
}

func TestServeStopsWhenItsContextEnds(t *testing.T) {
	_, b := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rpc.Serve(ctx, b, testService(t)) }()
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)
}

func TestAWholeMessageRefusalReachesTheOutstandingCall(t *testing.T) {
	t.Run("batch over the peer's limit", func(t *testing.T) {
		client, _ := connPair(t, testService(t), []rpc.Option{rpc.WithMaxBatch(1)})
		calls := []*rpc.BatchCall{{Method: "add", Params: []int{1, 1}}, {Method: "add", Params: []int{2, 2}}}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		require.NoError(t, client.Batch(ctx, calls))
		for _, c := range calls {
			var e *rpc.Error
			require.ErrorAs(t, c.Err, &e)
			assert.Equal(t, rpc.CodeInvalidRequest, e.Code)
			assert.Contains(t, e.Message, "exceeds the limit of 1")
		}
	})
	t.Run("call over the peer's size limit", func(t *testing.T) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		server := rpc.NewConn(rpc.NewStreamTransport(inR, outW, rpc.WithMaxMessageSize(64)), rpc.WithHandler(testService(t)))
		client := rpc.NewConn(rpc.NewStreamTransport(outR, inW))
		defer server.Close()
		defer client.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err := client.Call(ctx, "echo", []string{strings.Repeat("x", 100)}, nil)
		assert.ErrorIs(t, err, rpc.InvalidRequest(""))
		require.NoError(t, client.Call(ctx, "add", []int{1, 1}, nil), "the connection goes on")
	})
}

func TestErrorDataFromThePeerKeepsItsExactBytes(t *testing.T) {
	r := rpc.NewRouter()
	r.Register("fail", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.NewError(7, "with data").WithRawData([]byte(`{"z":1,"a":123456789012345678901234567890}`))
	}})
	client, _ := connPair(t, r, nil)
	var e *rpc.Error
	require.ErrorAs(t, client.Call(context.Background(), "fail", nil, nil), &e)
	assert.Equal(t, `{"z":1,"a":123456789012345678901234567890}`, string(e.Data))
}

func TestAQueuedCallNeverStartsAfterClose(t *testing.T) {
	started := make(chan string, 4)
	release := make(chan struct{})
	r := rpc.NewRouter()
	r.Register("stubborn", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		started <- req.ID.String()
		<-release // ignores its context on purpose
		return nil, nil
	}})
	a, b := rpc.NewPipe()
	server := rpc.NewConn(b, rpc.WithHandler(r), rpc.WithMaxInFlight(1))
	ctx := context.Background()
	require.NoError(t, a.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"stubborn","id":1}`)))
	assert.Equal(t, "1", <-started)
	require.NoError(t, a.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"stubborn","id":2}`)))
	time.Sleep(20 * time.Millisecond) // let call 2 reach the queue
	require.NoError(t, server.Close())
	close(release)
	<-server.Done()
	select {
	case id := <-started:
		t.Fatalf("call %s started after the connection closed", id)
	default:
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestAFailedWriteEndsTheConnection(t *testing.T) {
	inR, inW := io.Pipe()
	defer inW.Close()
	conn := rpc.NewConn(rpc.NewStreamTransport(inR, failingWriter{}), rpc.WithHandler(testService(t)))
	go io.WriteString(inW, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`+"\n")
	select {
	case <-conn.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the connection did not end after a failed write")
	}
}

// failingReader returns its data, then an error other than io.EOF.
type failingReader struct{ data string }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, errors.New("device unplugged")
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestAReadErrorEndsServeWithIt(t *testing.T) {
	var out strings.Builder
	err := rpc.Serve(context.Background(), rpc.NewStreamTransport(&failingReader{data: `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}` + "\n"}, &out), testService(t))
	assert.ErrorContains(t, err, "device unplugged")
	assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`+"\n", out.String(), "the call read before the error is answered")
}

func TestHandlerFailureDetailsGoToTheLogOnly(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&mu, &logs}, nil))
	client, _ := connPair(t, testService(t), []rpc.Option{rpc.WithLogger(logger)})
	err := client.Call(context.Background(), "secret", nil, nil)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "hunter2")
	err = client.Call(context.Background(), "panic", nil, nil)
	assert.NotContains(t, err.Error(), "secret")
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, logs.String(), "password=hunter2 leaked into an error")
	assert.Contains(t, logs.String(), "the handler panicked with a secret")
	assert.Contains(t, logs.String(), "method=secret")
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestErrNoResponseLeavesARequestUnanswered(t *testing.T) {
	r := rpc.NewRouter()
	r.Register("drop", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, fmt.Errorf("gave up: %w", rpc.ErrNoResponse)
	}})
	r.Register("ok", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) { return 1, nil }})
	client, _ := connPair(t, r, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	err := client.Call(ctx, "drop", nil, nil)
	assert.ErrorIs(t, err, context.DeadlineExceeded, "no response ever comes")
	var n int
	require.NoError(t, client.Call(context.Background(), "ok", nil, &n), "the connection still serves")
	assert.Equal(t, 1, n)
}

// A call whose context has already ended is not sent: it fails with the
// context's error every time, instead of racing a quick response.
func TestACallOnAnEndedContextIsNotSent(t *testing.T) {
	var served atomic.Int64
	r := rpc.NewRouter()
	r.Register("count", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return served.Add(1), nil
	}})
	client, _ := connPair(t, r, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for range 200 {
		assert.ErrorIs(t, client.Call(ctx, "count", nil, nil), context.Canceled)
	}
	var n int64
	require.NoError(t, client.Call(context.Background(), "count", nil, &n))
	assert.Equal(t, int64(1), n, "only the live call reached the server")
}
