package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// Every bound of the server and its HTTP handler, driven at the bound (it
// works) and one past it (the documented refusal), then with one more
// valid message to show that the session or handler still serves.

// blocker is a tool that holds each call until released.
type blocker struct {
	started   chan struct{}
	release   chan struct{}
	cancelled chan struct{}
	once      sync.Once
}

// addBlocker registers the tool "block" on s.
func addBlocker(t *testing.T, s *mcp.Server) *blocker {
	t.Helper()
	b := &blocker{started: make(chan struct{}, 2000), release: make(chan struct{}), cancelled: make(chan struct{}, 2000)}
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			b.started <- struct{}{}
			select {
			case <-b.release:
			case <-ctx.Done():
				b.cancelled <- struct{}{}
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("released")}}, nil
		}))
	t.Cleanup(b.free)
	return b
}

// free lets every held call, and every later one, finish.
func (b *blocker) free() { b.once.Do(func() { close(b.release) }) }

// waitStarted waits until n calls have started.
func (b *blocker) waitStarted(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-b.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("only %d of %d calls started", i, n)
		}
	}
}

// noMoreStarted checks that no further call started.
func (b *blocker) noMoreStarted(t *testing.T) {
	t.Helper()
	select {
	case <-b.started:
		t.Fatal("a call started past the bound")
	case <-time.After(50 * time.Millisecond):
	}
}

// stdioPeer drives a stdio-style session: ordered lines in, lines out.
type stdioPeer struct {
	t     *testing.T
	lines chan string // to the writer goroutine, in order
	out   chan string
}

func newStdioPeer(t *testing.T, s *mcp.Server) *stdioPeer {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &stdioPeer{t: t, lines: make(chan string, 4096), out: make(chan string, 4096)}
	done := make(chan error, 1)
	go func() {
		done <- mcp.ServeStreamForTest(context.Background(), s, inR, outW)
		outW.Close()
	}()
	go func() {
		for l := range p.lines {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
		inW.Close()
	}()
	go func() {
		br := bufio.NewReaderSize(outR, 1<<20)
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
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("the stdio session did not end")
		}
	})
	return p
}

func (p *stdioPeer) send(line string) { p.lines <- line }

// next returns the next line the server wrote, decoded.
func (p *stdioPeer) next() message {
	p.t.Helper()
	select {
	case l, ok := <-p.out:
		require.True(p.t, ok, "the server's output ended")
		return decode(p.t, l)
	case <-time.After(10 * time.Second):
		p.t.Fatal("no reply within 10s")
		return message{}
	}
}

// initialize finishes the handshake at 2025-11-25.
func (p *stdioPeer) initialize() {
	p.t.Helper()
	p.initializeOnly()
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// initializeOnly sends initialize and reads its answer, but no
// notifications/initialized: a notification whose handler is still
// running counts against the in-flight bound like any call.
func (p *stdioPeer) initializeOnly() {
	p.t.Helper()
	p.send(fmt.Sprintf(initMessage, mcp.Version20251125))
	require.Nil(p.t, p.next().Error)
}

// ping sends a ping with id and checks its answer.
func (p *stdioPeer) ping(id int) {
	p.t.Helper()
	p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
	m := p.next()
	assert.Equal(p.t, fmt.Sprint(id), string(m.ID))
	assert.Nil(p.t, m.Error)
}

// padded returns a ping of exactly n bytes, padded with JSON whitespace.
func padded(id, n int) string {
	head, tail := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"`, id), "}"
	return head + strings.Repeat(" ", n-len(head)-len(tail)) + tail
}

// nested is a ping whose params nest arrays to depth levels in all (the
// message object is level 1, params level 2).
func nested(id, depth int) string {
	d := depth - 2
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping","params":{"x":%s%s}}`, id, strings.Repeat("[", d), strings.Repeat("]", d))
}

func TestStdioMessageSizeIsBoundedExactly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   int
		limit int
	}{
		{"configured", 512, 512},
		{"default", 0, rpc.DefaultMaxMessageSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newStdioPeer(t, newServer(t, &mcp.ServerOptions{MaxMessageBytes: tc.opt}))
			p.initialize()
			p.send(padded(2, tc.limit))
			m := p.next()
			assert.Equal(t, "2", string(m.ID))
			assert.Nil(t, m.Error, "a line of exactly the limit is served")

			p.send(padded(3, tc.limit+1))
			m = p.next()
			assert.Equal(t, "null", string(m.ID))
			require.NotNil(t, m.Error)
			assert.Equal(t, rpc.CodeInvalidRequest, m.Error.Code)
			assert.Contains(t, m.Error.Message, fmt.Sprintf("exceeds the limit of %d bytes", tc.limit))

			p.ping(4)
		})
	}
}

func TestStdioNestingDepthIsBoundedExactly(t *testing.T) {
	p := newStdioPeer(t, newServer(t, nil))
	p.initialize()
	p.send(nested(2, rpc.DefaultMaxDepth))
	m := p.next()
	assert.Equal(t, "2", string(m.ID))
	assert.Nil(t, m.Error)

	p.send(nested(3, rpc.DefaultMaxDepth+1))
	m = p.next()
	assert.Equal(t, "null", string(m.ID))
	require.NotNil(t, m.Error)
	assert.Equal(t, rpc.CodeParseError, m.Error.Code)
	assert.Contains(t, m.Error.Message, "deeper than 1000")

	p.ping(4)
}

func TestStdioRequestsPastTheQueueAreBusy(t *testing.T) {
	for _, tc := range []struct {
		name              string
		inFlight, queued  int // options
		running, waitable int // what they mean
	}{
		{"one running, one waiting", 1, 1, 1, 1},
		{"no queue", 2, -1, 2, 0},
		{"defaults", 0, 0, rpc.DefaultMaxInFlight, rpc.DefaultMaxQueued},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, &mcp.ServerOptions{MaxInFlight: tc.inFlight, MaxQueued: tc.queued})
			b := addBlocker(t, s)
			p := newStdioPeer(t, s)
			p.initializeOnly()
			n := tc.running + tc.waitable
			for i := range n {
				p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"block"}}`, 100+i))
			}
			b.waitStarted(t, tc.running)
			b.noMoreStarted(t)

			// One past the bound: answered at once, without running.
			p.send(`{"jsonrpc":"2.0","id":"over","method":"tools/call","params":{"name":"block"}}`)
			m := p.next()
			assert.Equal(t, `"over"`, string(m.ID), "%+v", m.Error)
			require.NotNil(t, m.Error)
			assert.Equal(t, rpc.CodeServerBusy, m.Error.Code)
			assert.Contains(t, m.Error.Message, "server busy")

			// Nothing is lost: every call at the bound is answered.
			b.free()
			seen := map[string]bool{}
			for range n {
				m := p.next()
				assert.Nil(t, m.Error)
				seen[string(m.ID)] = true
			}
			assert.Len(t, seen, n)
			p.ping(1)
		})
	}
}

// postStream sends a POST from any goroutine; the caller closes the body.
func postStream(ctx context.Context, url, body string, hdr []string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", acceptBoth)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return http.DefaultClient.Do(req)
}

// assertBusy checks a 503 answer with Retry-After and a -32000 error under
// id, naming the bound.
func assertBusy(t *testing.T, resp *http.Response, id string, limit int) {
	t.Helper()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Equal(t, "1", resp.Header.Get("Retry-After"))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	m := decode(t, string(b))
	assert.Equal(t, id, string(m.ID))
	require.NotNil(t, m.Error, string(b))
	assert.Equal(t, rpc.CodeServerBusy, m.Error.Code)
	assert.Contains(t, m.Error.Message, fmt.Sprintf("(limit %d)", limit))
}

// pingSession pings a session and checks the answer.
func pingSession(t *testing.T, f *fixture, session string, id int) {
	t.Helper()
	msgs := messages(t, f.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id),
		mcp.HeaderProtocolVersion, mcp.Version20251125))
	require.Len(t, msgs, 1)
	assert.Equal(t, fmt.Sprint(id), string(msgs[0].ID))
	assert.Nil(t, msgs[0].Error)
}

func TestHTTPBodySizeIsBoundedExactly(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opt   int64
		limit int
	}{
		{"configured", 2048, 2048},
		{"default", 0, rpc.DefaultMaxMessageSize},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newStatelessFixture(t, nil, &mcp.HTTPOptions{MaxBodyBytes: tc.opt, JSONResponse: true})
			session := f.initialize(mcp.Version20251125)
			// Bodies of megabytes: a longer bound than f.post's, for a
			// loaded machine.
			post := func(session, body string, hdr ...string) *http.Response {
				t.Helper()
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				t.Cleanup(cancel)
				if session != "" {
					hdr = append(hdr, mcp.HeaderSessionID, session, mcp.HeaderProtocolVersion, mcp.Version20251125)
				}
				resp, err := postStream(ctx, f.ts.URL, body, hdr)
				require.NoError(t, err)
				t.Cleanup(func() { resp.Body.Close() })
				return resp
			}

			// A session's POST.
			resp := post(session, padded(2, tc.limit))
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Nil(t, messages(t, resp)[0].Error)
			resp = post(session, padded(3, tc.limit+1))
			assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
			assert.Contains(t, errorBody(t, resp).Message, fmt.Sprintf("exceeds the limit of %d bytes", tc.limit))
			pingSession(t, f, session, 4)

			// A 2026-07-28 request.
			body := func(n int) string {
				b := statelessBody(t, 5, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}, nil)
				return b[:len(b)-1] + strings.Repeat(" ", max(n-len(b), 0)) + "}"
			}
			resp = post("", body(tc.limit), mirrored("tools/call", "echo")...)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Nil(t, answer(t, resp).Error)
			resp = post("", body(tc.limit+1), mirrored("tools/call", "echo")...)
			assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
			resp = post("", body(0), mirrored("tools/call", "echo")...)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
		})
	}
}

func TestHTTPNestingDepthIsBoundedExactly(t *testing.T) {
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{JSONResponse: true})
	session := f.initialize(mcp.Version20251125)
	v := []string{mcp.HeaderProtocolVersion, mcp.Version20251125}

	// A session's POST.
	resp := f.post(session, nested(2, rpc.DefaultMaxDepth), v...)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Nil(t, messages(t, resp)[0].Error)
	// Refused before the session sees it, however deep.
	for _, depth := range []int{rpc.DefaultMaxDepth + 1, 20000} {
		resp = f.post(session, nested(3, depth), v...)
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Equal(t, rpc.CodeParseError, errorBody(t, resp).Code)
	}
	pingSession(t, f, session, 4)

	// A 2026-07-28 request: message 1, params 2, arguments 3, then the
	// arrays.
	body := func(id, depth int) string {
		d := depth - 3
		b := statelessBody(t, id, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi", "deep": "X"}}, nil)
		return strings.Replace(b, `"X"`, strings.Repeat("[", d)+strings.Repeat("]", d), 1)
	}
	resp = f.post("", body(5, rpc.DefaultMaxDepth), mirrored("tools/call", "echo")...)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Nil(t, answer(t, resp).Error)
	resp = f.post("", body(6, rpc.DefaultMaxDepth+1), mirrored("tools/call", "echo")...)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, rpc.CodeParseError, answer(t, resp).Error.Code)
	resp = f.post("", body(7, 10), mirrored("tools/call", "echo")...)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestHTTPBatchSizeIsBoundedExactly(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20250326)
	batch := func(first, n int) string {
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, first+i)
		}
		return "[" + strings.Join(elems, ",") + "]"
	}
	read := func(resp *http.Response) []json.RawMessage {
		t.Helper()
		var data string
		for _, ev := range newSSE(t, resp).all(t) {
			if ev.Data != "" {
				data = ev.Data
			}
		}
		var out []json.RawMessage
		if strings.HasPrefix(data, "[") {
			require.NoError(t, json.Unmarshal([]byte(data), &out))
		} else {
			out = append(out, json.RawMessage(data))
		}
		return out
	}
	assert.Len(t, read(f.post(session, batch(1000, rpc.DefaultMaxBatch))), rpc.DefaultMaxBatch)
	over := read(f.post(session, batch(3000, rpc.DefaultMaxBatch+1)))
	require.Len(t, over, 1)
	m := decode(t, string(over[0]))
	assert.Equal(t, "null", string(m.ID))
	require.NotNil(t, m.Error)
	assert.Equal(t, rpc.CodeInvalidRequest, m.Error.Code)
	assert.Contains(t, m.Error.Message, "exceeds the limit of 1000")
	msgs := messages(t, f.post(session, `{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	require.Len(t, msgs, 1)
	assert.Nil(t, msgs[0].Error)
}

func TestHTTPSessionRequestsPastTheQueueAreBusy(t *testing.T) {
	s := newServer(t, &mcp.ServerOptions{MaxInFlight: 1, MaxQueued: 1})
	b := addBlocker(t, s)
	f := newServerFixture(t, s, nil)
	// No notifications/initialized: see initializeOnly.
	resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get(mcp.HeaderSessionID)
	messages(t, resp)
	v := []string{mcp.HeaderProtocolVersion, mcp.Version20251125}
	call := func(id int) *http.Response {
		return f.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"block"}}`, id), v...)
	}
	// Each POST's stream has begun once its request reached the session.
	running := call(2)
	b.waitStarted(t, 1)
	waiting := call(3)
	b.noMoreStarted(t)

	msgs := messages(t, call(4))
	require.Len(t, msgs, 1)
	assert.Equal(t, "4", string(msgs[0].ID))
	require.NotNil(t, msgs[0].Error)
	assert.Equal(t, rpc.CodeServerBusy, msgs[0].Error.Code)

	b.free()
	for id, resp := range map[string]*http.Response{"2": running, "3": waiting} {
		msgs := messages(t, resp)
		require.Len(t, msgs, 1)
		assert.Equal(t, id, string(msgs[0].ID))
		assert.Nil(t, msgs[0].Error)
	}
	pingSession(t, f, session, 5)
}

func TestStatelessRequestsPastTheBoundAreBusy(t *testing.T) {
	const limit = 2
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	echoTool(t, s)
	b := addBlocker(t, s)
	f := newServerFixture(t, s, &mcp.HTTPOptions{MaxStatelessInFlight: limit})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	type result struct {
		status int
		err    error
	}
	results := make(chan result, limit)
	for i := range limit {
		go func() {
			resp, err := postStream(ctx, f.ts.URL, statelessBody(t, 100+i, "tools/call", map[string]any{"name": "block"}, nil), mirrored("tools/call", "block"))
			if err != nil {
				results <- result{err: err}
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			results <- result{status: resp.StatusCode}
		}()
	}
	b.waitStarted(t, limit) // at the bound: all run at once

	resp := f.post("", statelessBody(t, "over", "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}, nil), mirrored("tools/call", "echo")...)
	assertBusy(t, resp, `"over"`, limit)
	// A notification past the bound is refused the same way.
	note := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`
	resp = f.post("", note, mcp.HeaderProtocolVersion, mcp.Version20260728)
	assertBusy(t, resp, "null", limit)

	b.free()
	for range limit {
		r := <-results
		require.NoError(t, r.err)
		assert.Equal(t, http.StatusOK, r.status)
	}
	m := answer(t, f.post("", statelessBody(t, 7, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}, nil), mirrored("tools/call", "echo")...))
	assert.Nil(t, m.Error)
}

func TestSessionsPastTheBoundAreRefusedAndNothingIsMade(t *testing.T) {
	const limit = 2
	f := newFixture(t, &mcp.HTTPOptions{MaxSessions: limit})
	var sessions []string
	for range limit {
		sessions = append(sessions, f.initialize(mcp.Version20251125))
	}
	resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
	assertBusy(t, resp, "1", limit) // the initialize's own id
	assert.Empty(t, resp.Header.Get(mcp.HeaderSessionID))
	assert.Equal(t, limit, mcp.SessionCountForTest(f.h))
	assert.Len(t, f.srv.Sessions(), limit)

	// The sessions held go on; ending one makes room for another.
	pingSession(t, f, sessions[0], 2)
	resp = f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: sessions[0]})
	require.Equal(t, http.StatusNoContent, resp.StatusCode)
	pingSession(t, f, f.initialize(mcp.Version20251125), 3)
	pingSession(t, f, sessions[1], 4)
}

func TestSessionsAreBoundedByDefault(t *testing.T) {
	f := newFixture(t, nil)
	for range mcp.DefaultMaxSessions {
		resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
		require.Equal(t, http.StatusOK, resp.StatusCode)
		resp.Body.Close()
	}
	assertBusy(t, f.post("", fmt.Sprintf(initMessage, mcp.Version20251125)), "1", mcp.DefaultMaxSessions)
}

// openListen starts a subscriptions/listen and waits for its
// acknowledgement; cancel ends it.
func openListen(t *testing.T, f *fixture, id string) func() {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	body := statelessBody(t, id, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	resp, err := postStream(ctx, f.ts.URL, body, mirrored("subscriptions/listen", ""))
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	ev, err := newSSE(t, resp).next()
	require.NoError(t, err)
	require.Equal(t, "notifications/subscriptions/acknowledged", decode(t, ev.Data).Method)
	return func() {
		cancel()
		resp.Body.Close()
	}
}

func TestListenStreamsPastTheBoundAreRefused(t *testing.T) {
	const limit = 2
	f := newStatelessFixture(t, nil, &mcp.HTTPOptions{MaxListenStreams: limit})
	var cancels []func()
	for i := range limit {
		cancels = append(cancels, openListen(t, f, fmt.Sprintf("L%d", i)))
	}
	defer func() {
		for _, c := range cancels {
			c()
		}
	}()
	body := statelessBody(t, "L-over", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	assertBusy(t, f.post("", body, mirrored("subscriptions/listen", "")...), `"L-over"`, limit)

	// Listens do not hold up other requests.
	m := answer(t, f.post("", statelessBody(t, 1, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}}, nil), mirrored("tools/call", "echo")...))
	assert.Nil(t, m.Error)

	// Closing a listen makes room once its handler has returned.
	cancels[0]()
	for i := range 200 {
		resp := f.post("", body, mirrored("subscriptions/listen", "")...)
		if resp.StatusCode == http.StatusOK {
			break
		}
		require.Less(t, i, 199, "no room after a listen closed")
		resp.Body.Close()
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEventStoreBoundsResumption(t *testing.T) {
	const maxEvents = 5
	// initialize stores two events (priming, result) on stream 1; the
	// first notification is 0-3, the one the client saw last.
	for _, tc := range []struct {
		name   string
		missed int
		status int
	}{
		{"every missed event kept", maxEvents, http.StatusOK},
		{"one event too many", maxEvents + 1, http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &mcp.HTTPOptions{EventStore: mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxEvents: maxEvents})})
			session := f.initialize(mcp.Version20251125)
			ss := f.session(session)
			require.NoError(t, mcp.NotifyForTest(ss, "notifications/message", map[string]any{"level": "info", "data": 0}))
			get := map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: mcp.Version20251125}
			resp := f.request(http.MethodGet, "", get)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			ev, err := newSSE(t, resp).next()
			require.NoError(t, err)
			require.Equal(t, "0-3", ev.ID)
			resp.Body.Close()

			for i := range tc.missed {
				require.NoError(t, mcp.NotifyForTest(ss, "notifications/message", map[string]any{"level": "info", "data": i + 1}))
			}
			get["Last-Event-ID"] = ev.ID
			resp = f.request(http.MethodGet, "", get)
			require.Equal(t, tc.status, resp.StatusCode)
			if tc.status == http.StatusOK {
				r := newSSE(t, resp)
				for i := range tc.missed {
					ev, err := r.next()
					require.NoError(t, err)
					assert.Equal(t, float64(i+1), decode(t, ev.Data).Params["data"])
				}
			} else {
				assert.Equal(t, rpc.CodeInvalidRequest, errorBody(t, resp).Code)
			}
			delete(get, "Last-Event-ID")
			pingSession(t, f, session, 9)
		})
	}
}

func TestMemoryEventStoreBytesAreBoundedExactly(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		maxBytes int
		ok       bool
	}{
		{"at the bound", 6, true},
		{"one byte short", 5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mcp.NewMemoryEventStore(&mcp.MemoryEventStoreOptions{MaxBytes: tc.maxBytes})
			first, err := s.Append(ctx, "s", "1", []byte("aa"))
			require.NoError(t, err)
			for _, d := range []string{"bbb", "ccc"} {
				_, err := s.Append(ctx, "s", "1", []byte(d))
				require.NoError(t, err)
			}
			var got []string
			_, err = s.Replay(ctx, "s", first, func(_ string, data []byte) error {
				got = append(got, string(data))
				return nil
			})
			if tc.ok {
				require.NoError(t, err)
				assert.Equal(t, []string{"bbb", "ccc"}, got)
			} else {
				assert.ErrorIs(t, err, mcp.ErrEventNotFound)
			}
		})
	}
}

func TestACancellationReachesAFullSession(t *testing.T) {
	s := newServer(t, &mcp.ServerOptions{MaxInFlight: 1, MaxQueued: -1})
	b := addBlocker(t, s)
	p := newStdioPeer(t, s)
	p.initializeOnly()
	p.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"block"}}`)
	b.waitStarted(t, 1)
	p.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	select {
	case <-b.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancellation did not reach the call holding the only place")
	}
	// The cancelled call gets no answer; the place is free again once its
	// handler has returned, which is just after it saw the cancellation.
	id := 3
	require.Eventually(t, func() bool {
		id++
		p.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, id))
		m := p.next()
		require.Equal(t, fmt.Sprint(id), string(m.ID), "the cancelled call is never answered")
		return m.Error == nil
	}, 5*time.Second, time.Millisecond)
}
