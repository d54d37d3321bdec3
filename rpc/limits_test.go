package rpc_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// Every limit of the rpc runtime on every transport: a message exactly at
// the limit is served, one past it gets the documented refusal, and the
// next valid message is served as if nothing happened.

const nextValid = `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":"next"}`

// assertServesNext checks that the peer still answers a valid call.
func assertServesNext(t *testing.T, p peer) {
	t.Helper()
	r := decodeReply(t, p.call(t, nextValid))
	assert.Equal(t, `"next"`, string(r.ID))
	assert.Equal(t, "3", string(r.Result))
}

// sized is an echo call of exactly n bytes.
func sized(n int) string {
	head, tail := `{"jsonrpc":"2.0","method":"echo","params":["`, `"],"id":1}`
	return head + strings.Repeat("x", n-len(head)-len(tail)) + tail
}

func TestMessageSizeAtAndPastTheLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  []rpc.Option
		limit int
	}{
		{"configured", []rpc.Option{rpc.WithMaxMessageSize(1000)}, 1000},
		{"default", nil, rpc.DefaultMaxMessageSize},
	} {
		t.Run(tc.name+"/stream", func(t *testing.T) {
			p := newStreamPeer(t, testService(t), tc.opts...)
			assert.Nil(t, decodeReply(t, p.call(t, sized(tc.limit))).Error)
			r := decodeReply(t, p.call(t, sized(tc.limit+1)))
			assert.Equal(t, "null", string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
			assert.Contains(t, r.Error.Message, fmt.Sprintf("exceeds the limit of %d bytes", tc.limit))
			assertServesNext(t, p)
		})
		t.Run(tc.name+"/http", func(t *testing.T) {
			p := newHTTPPeer(t, testService(t), tc.opts...).(*httpPeer)
			assert.Nil(t, decodeReply(t, p.call(t, sized(tc.limit))).Error)
			status, body := p.post(t, sized(tc.limit+1))
			assert.Equal(t, http.StatusRequestEntityTooLarge, status)
			assert.Contains(t, body, fmt.Sprintf("exceeds %d bytes", tc.limit))
			assertServesNext(t, p)
		})
	}
}

func TestBatchSizeAtAndPastTheLimit(t *testing.T) {
	batch := func(n int) string {
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprintf(`{"jsonrpc":"2.0","method":"add","params":[%d,1],"id":%d}`, i, i)
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	for _, tc := range []struct {
		name  string
		opts  []rpc.Option
		limit int
	}{
		{"configured", []rpc.Option{rpc.WithMaxBatch(5)}, 5},
		{"below one counts as one", []rpc.Option{rpc.WithMaxBatch(0)}, 1},
		{"default", nil, rpc.DefaultMaxBatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachTransport(t, testService(t), func(t *testing.T, p peer) {
				rs := decodeBatchReply(t, p.call(t, batch(tc.limit)))
				require.Len(t, rs, tc.limit)
				for i, r := range rs {
					assert.Equal(t, fmt.Sprint(i), string(r.ID))
					assert.Equal(t, fmt.Sprint(i+1), string(r.Result))
				}
				r := decodeReply(t, p.call(t, batch(tc.limit+1)))
				assert.Equal(t, "null", string(r.ID))
				require.NotNil(t, r.Error)
				assert.Equal(t, rpc.CodeInvalidRequest, r.Error.Code)
				assert.Contains(t, r.Error.Message, fmt.Sprintf("batch of %d elements exceeds the limit of %d", tc.limit+1, tc.limit))
				assertServesNext(t, p)
			}, tc.opts...)
		})
	}
}

func TestNestingDepthAtAndPastTheLimit(t *testing.T) {
	// The message object is level 1 and the params array level 2; deep(n)
	// adds n levels inside it.
	call := func(depth int) string {
		return `{"jsonrpc":"2.0","method":"echo","params":[` + deep(depth-2) + `],"id":1}`
	}
	for _, tc := range []struct {
		name  string
		opts  []rpc.Option
		limit int
	}{
		{"configured", []rpc.Option{rpc.WithMaxDepth(20)}, 20},
		{"default", nil, rpc.DefaultMaxDepth},
	} {
		t.Run(tc.name, func(t *testing.T) {
			forEachTransport(t, testService(t), func(t *testing.T, p peer) {
				assert.Nil(t, decodeReply(t, p.call(t, call(tc.limit))).Error)
				r := decodeReply(t, p.call(t, call(tc.limit+1)))
				assert.Equal(t, "null", string(r.ID))
				require.NotNil(t, r.Error)
				assert.Equal(t, rpc.CodeParseError, r.Error.Code)
				assert.Contains(t, r.Error.Message, fmt.Sprintf("nesting deeper than %d levels", tc.limit))
				assertServesNext(t, p)
			}, tc.opts...)
		})
	}
}

// linePeer drives a Conn over a stream with the lines written in order by
// one goroutine, so that a test can send many calls without reading.
type linePeer struct {
	lines chan string
	out   chan string
}

func newLinePeer(t *testing.T, h rpc.Handler, opts ...rpc.Option) *linePeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	conn := rpc.NewConn(rpc.NewStreamTransport(inR, outW), append(opts, rpc.WithHandler(h))...)
	p := &linePeer{lines: make(chan string, 2048), out: make(chan string, 2048)}
	go func() {
		for l := range p.lines {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
	}()
	go func() {
		br := bufio.NewReader(outR)
		for {
			l, err := br.ReadString('\n')
			if err != nil {
				close(p.out)
				return
			}
			p.out <- strings.TrimSuffix(l, "\n")
		}
	}()
	t.Cleanup(func() {
		close(p.lines)
		conn.Close()
		<-conn.Done()
		outW.Close()
	})
	return p
}

func (p *linePeer) next(t *testing.T) reply {
	t.Helper()
	select {
	case l, ok := <-p.out:
		require.True(t, ok, "the output ended")
		return decodeReply(t, l)
	case <-time.After(10 * time.Second):
		t.Fatal("no reply within 10s")
		return reply{}
	}
}

// waitN waits for n signals on ch.
func waitN(t *testing.T, ch <-chan struct{}, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d handlers started", i, n)
		}
	}
}

func TestCallsPastTheQueueAreBusyOnAStream(t *testing.T) {
	for _, tc := range []struct {
		name              string
		opts              []rpc.Option
		running, waitable int
	}{
		{"one running, none waiting", []rpc.Option{rpc.WithMaxInFlight(1), rpc.WithMaxQueued(0)}, 1, 0},
		{"two running, three waiting", []rpc.Option{rpc.WithMaxInFlight(2), rpc.WithMaxQueued(3)}, 2, 3},
		{"defaults", nil, rpc.DefaultMaxInFlight, rpc.DefaultMaxQueued},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started := make(chan struct{}, 2048)
			release := make(chan struct{})
			var once sync.Once
			free := func() { once.Do(func() { close(release) }) }
			t.Cleanup(free)
			p := newLinePeer(t, blocking(started, release, nil), tc.opts...)
			n := tc.running + tc.waitable
			for i := range n {
				p.lines <- fmt.Sprintf(`{"jsonrpc":"2.0","method":"block","id":%d}`, i)
			}
			waitN(t, started, tc.running)

			p.lines <- `{"jsonrpc":"2.0","method":"block","id":"over"}`
			r := p.next(t)
			assert.Equal(t, `"over"`, string(r.ID))
			require.NotNil(t, r.Error)
			assert.Equal(t, rpc.CodeServerBusy, r.Error.Code)
			assert.Equal(t, "server busy: too many calls in flight", r.Error.Message)
			select {
			case <-started:
				t.Fatal("a handler started past the in-flight bound")
			default:
			}

			free()
			ids := map[string]bool{}
			for range n {
				r := p.next(t)
				assert.Equal(t, `"released"`, string(r.Result))
				ids[string(r.ID)] = true
			}
			assert.Len(t, ids, n, "every call at the bound is answered once")
			p.lines <- `{"jsonrpc":"2.0","method":"quick","id":"next"}`
			assert.Equal(t, `"quick"`, string(p.next(t).Result))
		})
	}
}

func TestCallsPastTheQueueAreBusyOverHTTP(t *testing.T) {
	// The bound is shared by every request to the handler.
	started := make(chan struct{}, 8)
	release := make(chan struct{})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	srv := httptest.NewServer(rpc.NewHTTPHandler(blocking(started, release, nil), rpc.WithMaxInFlight(1), rpc.WithMaxQueued(1)))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	post := func(id string) (string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","method":"block","id":"`+id+`"}`))
		if err != nil {
			return "", err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return "", fmt.Errorf("status %d", resp.StatusCode)
		}
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	}
	type answer struct {
		body string
		err  error
	}
	first := make(chan answer, 1)
	go func() {
		b, err := post("a")
		first <- answer{b, err}
	}()
	waitN(t, started, 1)

	// Two more: one waits for the slot, the other is one past the queue.
	// Which is which depends on arrival; exactly one is busy.
	rest := make(chan answer, 2)
	for _, id := range []string{"b", "c"} {
		go func() {
			b, err := post(id)
			rest <- answer{b, err}
		}()
	}
	busy := <-rest
	require.NoError(t, busy.err)
	r := decodeReply(t, busy.body)
	require.NotNil(t, r.Error, busy.body)
	assert.Equal(t, rpc.CodeServerBusy, r.Error.Code)

	free()
	for _, ch := range []chan answer{first, rest} {
		a := <-ch
		require.NoError(t, a.err)
		assert.Equal(t, `"released"`, string(decodeReply(t, a.body).Result))
	}
	b, err := post("next")
	require.NoError(t, err)
	assert.Equal(t, `"released"`, string(decodeReply(t, b).Result))
}

func TestANotificationReachesAServerWhosePlacesAreAllTaken(t *testing.T) {
	// A cancellation is a notification: it must not wait behind the calls
	// it would cancel, nor be dropped because they fill the bound.
	for _, tc := range []struct {
		name string
		opts []rpc.Option
	}{
		{"no queue", []rpc.Option{rpc.WithMaxInFlight(1), rpc.WithMaxQueued(0)}},
		{"queue of one", []rpc.Option{rpc.WithMaxInFlight(1), rpc.WithMaxQueued(1)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			started := make(chan struct{}, 1)
			stop := make(chan struct{})
			r := rpc.NewRouter()
			r.Register("block", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
				started <- struct{}{}
				select {
				case <-stop:
					return "stopped", nil
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}})
			r.Register("stop", rpc.Method{Notification: true, Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
				close(stop)
				return nil, nil
			}})
			p := newLinePeer(t, r, tc.opts...)
			p.lines <- `{"jsonrpc":"2.0","method":"block","id":1}`
			waitN(t, started, 1)
			p.lines <- `{"jsonrpc":"2.0","method":"stop"}`
			rep := p.next(t)
			assert.Equal(t, "1", string(rep.ID))
			assert.Equal(t, `"stopped"`, string(rep.Result))
		})
	}
}
