package mcpredis_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis/internal/roundrobin"
)

// The everything server (examples/everything) as three everything-redis processes on one
// redis-server, behind the round-robin proxy of mcpcluster, in the test.

// replicaHeader names the proxy's response header that says which replica answered.
const replicaHeader = "X-Replica"

// everythingRedis is the everything-redis binary, built once per test binary.
var everythingRedis struct {
	once sync.Once
	path string
	err  error
}

func everythingRedisBinary(t *testing.T) string {
	t.Helper()
	everythingRedis.once.Do(func() {
		dir, err := os.MkdirTemp("", "mcpredis-everything-")
		if err != nil {
			everythingRedis.err = err
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		path := filepath.Join(dir, "everything-redis")
		out, err := exec.CommandContext(ctx, "go", "build", "-o", path, "./cmd/everything-redis").CombinedOutput()
		if err != nil {
			everythingRedis.err = fmt.Errorf("go build ./cmd/everything-redis: %v\n%s", err, out)
			return
		}
		everythingRedis.path = path
	})
	require.NoError(t, everythingRedis.err)
	return everythingRedis.path
}

// replicaProcess is one everything-redis process.
type replicaProcess struct {
	addr string
	cmd  *exec.Cmd
	done chan struct{}
	log  *lockedBuffer
}

// cluster is n replicas on one Redis behind a round-robin proxy.
type cluster struct {
	t        *testing.T
	url      string // the proxy's MCP endpoint
	replicas []*replicaProcess
}

// startCluster starts a redis-server, n everything-redis processes (with the quiet
// flags, then extra(i) for replica i) and the proxy; everything stops when the test ends,
// and the replicas' logs are printed when it failed.
func startCluster(t *testing.T, n int, extra func(i int) []string) *cluster {
	t.Helper()
	srv := startRedis(t)
	bin := everythingRedisBinary(t)
	prefix := newPrefix()
	key := strings.Repeat("5a", 32)
	c := &cluster{t: t}
	backends := make([]*url.URL, n)
	for i := range n {
		args := []string{"-http", freeAddr(t), "-redis", "redis://" + srv.addr, "-prefix", prefix,
			"-state-key", key, "-watch-interval", "0", "-dynamic-after", "0", "-log-level", "debug"}
		if extra != nil {
			args = append(args, extra(i)...)
		}
		r := &replicaProcess{addr: args[1], done: make(chan struct{}), log: &lockedBuffer{}}
		r.cmd = exec.Command(bin, args...)
		r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
		require.NoError(t, r.cmd.Start())
		go func() {
			_ = r.cmd.Wait()
			close(r.done)
		}()
		t.Cleanup(func() {
			_ = r.cmd.Process.Signal(syscall.SIGTERM)
			select {
			case <-r.done:
			case <-time.After(5 * time.Second):
				_ = r.cmd.Process.Kill()
				<-r.done
			}
			if t.Failed() {
				t.Logf("replica %d (%s) log:\n%s", i, r.addr, r.log.String())
			}
		})
		c.replicas = append(c.replicas, r)
		backends[i], _ = url.Parse("http://" + r.addr)
	}
	for i, r := range c.replicas {
		waitAnswers(t, "http://"+r.addr+"/mcp", r.done, fmt.Sprint("replica ", i))
	}
	b, err := roundrobin.New(backends, &roundrobin.Options{BackendHeader: replicaHeader})
	require.NoError(t, err)
	proxy := httptest.NewServer(b)
	t.Cleanup(proxy.Close)
	c.url = proxy.URL + "/mcp"
	return c
}

// waitAnswers polls url (at most 15 s) until something answers there; done closed means
// the process behind it exited.
func waitAnswers(t *testing.T, url string, done <-chan struct{}, what string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			_ = resp.Body.Close()
			return
		}
		select {
		case <-done:
			t.Fatalf("%s exited before it answered", what)
		default:
		}
		require.True(t, time.Now().Before(deadline), "%s never answered at %s: %v", what, url, err)
		time.Sleep(20 * time.Millisecond)
	}
}

// kill ends replica i at once (SIGKILL) and waits until it is gone.
func (c *cluster) kill(i int) {
	c.t.Helper()
	r := c.replicas[i]
	require.NoError(c.t, r.cmd.Process.Kill())
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
		c.t.Fatalf("replica %d did not die", i)
	}
}

// lockedBuffer is a bytes.Buffer safe for concurrent writers.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// sseEvent is one event of an SSE stream.
type sseEvent struct {
	id   string
	data string
}

// rawSession is a 2025-11-25 session driven with plain HTTP requests through the proxy.
type rawSession struct {
	t   *testing.T
	url string
	id  string
}

// stream is an open SSE response.
type stream struct {
	resp    *http.Response
	replica int
	events  chan sseEvent
	ended   chan error
}

// open sends a request through the proxy and, for an SSE response, reads its events in
// the background.
func (s *rawSession) open(method, body string, header map[string]string) *stream {
	s.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url, rd)
	require.NoError(s.t, err)
	req.Header.Set("Accept", "application/json, text/event-stream")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if s.id != "" {
		req.Header.Set("Mcp-Session-Id", s.id)
		req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	replica, err := strconv.Atoi(resp.Header.Get(replicaHeader))
	require.NoError(s.t, err, "the proxy names the replica that answered")
	st := &stream{resp: resp, replica: replica, events: make(chan sseEvent, 64), ended: make(chan error, 1)}
	go st.read()
	s.t.Cleanup(func() { _ = resp.Body.Close() })
	return st
}

func (st *stream) read() {
	defer close(st.events)
	sc := bufio.NewScanner(st.resp.Body)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	var ev sseEvent
	var data []string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if ev.id != "" || len(data) > 0 {
				ev.data = strings.Join(data, "\n")
				st.events <- ev
			}
			ev, data = sseEvent{}, nil
		case strings.HasPrefix(line, "id:"):
			ev.id = strings.TrimSpace(strings.TrimPrefix(line, "id:"))
		case strings.HasPrefix(line, "data:"):
			data = append(data, strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
	st.ended <- sc.Err()
}

// next returns the stream's next event, or false when the stream ended; it fails the
// test when nothing comes within 10 s.
func (st *stream) next(t *testing.T) (sseEvent, bool) {
	t.Helper()
	select {
	case ev, ok := <-st.events:
		return ev, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no SSE event within 10s")
		return sseEvent{}, false
	}
}

// rest reads the stream to its end and returns its events.
func (st *stream) rest(t *testing.T) []sseEvent {
	t.Helper()
	var evs []sseEvent
	for {
		ev, ok := st.next(t)
		if !ok {
			return evs
		}
		evs = append(evs, ev)
	}
}

// message is what the tests look at in a JSON-RPC message.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		Level    string  `json:"level"`
		Progress float64 `json:"progress"`
		URI      string  `json:"uri"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

func decode(t *testing.T, ev sseEvent) message {
	t.Helper()
	var m message
	if ev.data != "" {
		require.NoError(t, json.Unmarshal([]byte(ev.data), &m), "event %s: %s", ev.id, ev.data)
	}
	return m
}

// newRawSession initializes a 2025-11-25 session through the proxy.
func newRawSession(t *testing.T, c *cluster) *rawSession {
	t.Helper()
	s := &rawSession{t: t, url: c.url}
	st := s.open(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, nil)
	require.Equal(t, http.StatusOK, st.resp.StatusCode)
	s.id = st.resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, s.id)
	st.rest(t)
	st = s.open(http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil)
	require.Equal(t, http.StatusAccepted, st.resp.StatusCode)
	return s
}

// call sends one request and returns its stream's events up to the end, and the
// replica that answered.
func (s *rawSession) call(id int, method, params string) ([]sseEvent, int) {
	s.t.Helper()
	st := s.open(http.MethodPost, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params), nil)
	require.Equal(s.t, http.StatusOK, st.resp.StatusCode)
	evs := st.rest(s.t)
	require.NotEmpty(s.t, evs)
	last := decode(s.t, evs[len(evs)-1])
	require.Equal(s.t, strconv.Itoa(id), string(last.ID), "the stream ends with the response")
	require.Empty(s.t, last.Error, "%s failed: %s", method, evs[len(evs)-1].data)
	return evs, st.replica
}

// replicaRecorder is an http.RoundTripper that counts the requests each replica answered.
type replicaRecorder struct {
	mu   sync.Mutex
	seen map[int]int
}

func (r *replicaRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err == nil {
		if n, err := strconv.Atoi(resp.Header.Get(replicaHeader)); err == nil {
			r.mu.Lock()
			r.seen[n]++
			r.mu.Unlock()
		}
	}
	return resp, err
}

func (r *replicaRecorder) replicas() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.seen)
}

// told collects what a client was told, for bounded waits.
type told struct {
	logs    chan string
	updated chan string
	tools   chan struct{}
}

func newTold() *told {
	return &told{logs: make(chan string, 64), updated: make(chan string, 64), tools: make(chan struct{}, 64)}
}

// connectClient connects the project's client through the proxy at version (one of
// mcp.Version20251125, mcp.Version20260728), answering sampling and elicitation.
func connectClient(t *testing.T, c *cluster, version string, rec *replicaRecorder, got *told) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s, err := mcp.NewClient(&mcp.Implementation{Name: "cluster-test", Version: "1"}, &mcp.ClientOptions{
		ProtocolVersions: []string{version},
		CreateMessage: func(context.Context, *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: "assistant", Model: "m", StopReason: "endTurn",
				Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "Paris"}}}, nil
		},
		Elicit: func(context.Context, *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
				"username": {Value: mcp.ElicitResultContentValueString("ada")},
				"email":    {Value: mcp.ElicitResultContentValueString("ada@example.com")},
			}}, nil
		},
		OnLog: func(_ context.Context, p *mcp.LoggingMessageNotificationParams) { got.logs <- string(p.Data) },
		OnResourceUpdated: func(_ context.Context, p *mcp.ResourceUpdatedNotificationParams) {
			got.updated <- p.URI
		},
		OnToolsListChanged: func(context.Context) { got.tools <- struct{}{} },
	}).Connect(ctx, &mcp.StreamableHTTPTransport{URL: c.url, HTTPClient: &http.Client{Transport: rec}})
	require.NoError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	return s
}

// within waits at most 10 s for a value on ch.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("no %s within 10s", what)
		var zero T
		return zero
	}
}

func callText(t *testing.T, s *mcp.ClientSession, name string, args map[string]any) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	require.NoError(t, err)
	res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: name, Arguments: raw})
	require.NoError(t, err, name)
	require.True(t, res.IsError == nil || !*res.IsError, "%s: %+v", name, res)
	return toolText(t, res)
}

// A handshake session whose requests land on every replica in turn works end to end:
// lists and calls, a tool that samples and one that elicits from the client (the answer
// POSTed to another replica than the one waiting), ping and resources/subscribe.
func TestEverythingHandshakeSessionWorksAcrossReplicas(t *testing.T) {
	c := startCluster(t, 3, func(i int) []string {
		if i == 0 {
			return []string{"-watch-interval", "200ms"} // one replica changes the watched resource
		}
		return nil
	})
	rec := &replicaRecorder{seen: map[int]int{}}
	got := newTold()
	s := connectClient(t, c, mcp.Version20251125, rec, got)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	tools, err := s.ListTools(ctx, nil)
	require.NoError(t, err)
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	assert.Contains(t, names, "test_sampling")
	assert.Equal(t, "This is a simple text response for testing.", callText(t, s, "test_simple_text", nil))
	assert.Equal(t, "LLM response: Paris", callText(t, s, "test_sampling", map[string]any{"prompt": "Capital of France?"}))
	assert.Contains(t, callText(t, s, "test_elicitation", map[string]any{"message": "Who are you?"}), "action=accept")
	for range 3 {
		require.NoError(t, s.Ping(ctx))
	}
	require.NoError(t, s.Subscribe(ctx, "test://watched-resource"))
	assert.Equal(t, "test://watched-resource", within(t, got.updated, "notifications/resources/updated"))
	assert.Equal(t, 3, rec.replicas(), "the session's requests landed on every replica")
}

// logging/setLevel at one replica holds at every replica: the logging tool's messages
// come whichever replica runs it.
func TestEverythingLogLevelSetAtOneReplicaHoldsAtTheOthers(t *testing.T) {
	c := startCluster(t, 3, nil)
	rec := &replicaRecorder{seen: map[int]int{}}
	got := newTold()
	s := connectClient(t, c, mcp.Version20251125, rec, got)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	require.NoError(t, s.SetLoggingLevel(ctx, "debug"))
	for i := range 3 { // three calls: one at each replica
		callText(t, s, "test_tool_with_logging", nil)
		for _, want := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
			assert.Equal(t, strconv.Quote(want), within(t, got.logs, fmt.Sprintf("log message %q of call %d", want, i)))
		}
	}
}

// progressCall is the tools/call of test_tool_with_progress (0, 50, 100 of 100, 50 ms
// apart, then the response).
const progressCall = `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"test_tool_with_progress","arguments":{},"_meta":{"progressToken":"p%d"}}}`

// resume GETs with Last-Event-ID after until the response to id arrives (at most 20
// resumptions), and returns every event received after `after`, and the replicas that
// served the resumptions.
func (s *rawSession) resume(after string, id int) ([]sseEvent, []int) {
	s.t.Helper()
	var evs []sseEvent
	var replicas []int
	last := after
	for range 20 {
		st := s.open(http.MethodGet, "", map[string]string{"Last-Event-ID": last})
		require.Equal(s.t, http.StatusOK, st.resp.StatusCode)
		replicas = append(replicas, st.replica)
		for _, ev := range st.rest(s.t) {
			if ev.id != "" {
				last = ev.id
			}
			if ev.data == "" {
				continue // a priming event
			}
			evs = append(evs, ev)
			if string(decode(s.t, ev).ID) == strconv.Itoa(id) {
				return evs, replicas
			}
		}
	}
	s.t.Fatalf("no response to request %d after 20 resumptions", id)
	return nil, nil
}

// An SSE stream cut at one replica resumes at another with no event lost: every event
// after the cut arrives exactly once, in order, then the response.
func TestEverythingStreamCutAtOneReplicaResumesAtAnother(t *testing.T) {
	c := startCluster(t, 3, nil)
	s := newRawSession(t, c)
	st := s.open(http.MethodPost, fmt.Sprintf(progressCall, 7, 7), nil)
	require.Equal(t, http.StatusOK, st.resp.StatusCode)
	priming, ok := st.next(t)
	require.True(t, ok)
	require.NotEmpty(t, priming.id)
	first, ok := st.next(t)
	require.True(t, ok)
	require.Equal(t, "notifications/progress", decode(t, first).Method)
	require.NoError(t, st.resp.Body.Close()) // the cut

	after, replicas := s.resume(first.id, 7)
	assert.NotEqual(t, st.replica, replicas[0], "the first resumption landed at another replica")
	var progress []float64
	var ids []string
	for _, ev := range after {
		ids = append(ids, ev.id)
		if m := decode(t, ev); m.Method == "notifications/progress" {
			progress = append(progress, m.Params.Progress)
		}
	}
	assert.Equal(t, []float64{50, 100}, progress, "every progress notification after the cut, once")
	assert.JSONEq(t, `{"content":[{"type":"text","text":"Tool with progress executed successfully"}]}`,
		string(decode(t, after[len(after)-1]).Result))

	// The whole stream, replayed from its start at yet another replica, is what the client
	// saw: the event before the cut, then exactly the events it got after.
	replay, _ := s.resume(priming.id, 7)
	require.NotEmpty(t, replay)
	assert.Equal(t, first, replay[0])
	var replayIDs []string
	for _, ev := range replay[1:] {
		replayIDs = append(replayIDs, ev.id)
	}
	assert.Equal(t, replayIDs, ids)
}

// A subscriptions/listen stream (2026-07-28) at one replica hears a change made at
// another, and so does the GET stream of a 2025-11-25 session.
func TestEverythingListenStreamsHearChangesMadeAtAnotherReplica(t *testing.T) {
	c := startCluster(t, 3, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	listenRec := &replicaRecorder{seen: map[int]int{}}
	listener := newTold()
	stateless := connectClient(t, c, mcp.Version20260728, listenRec, listener)
	acked := make(chan struct{})
	listenDone := make(chan error, 1)
	go func() {
		listenDone <- stateless.Listen(ctx, &mcp.ListenFilter{ToolsListChanged: true,
			Acknowledged: func(mcp.ListenFilter) { close(acked) }})
	}()
	within(t, acked, "acknowledgement of the listen")

	handshakeRec := &replicaRecorder{seen: map[int]int{}}
	handshakeTold := newTold()
	old := connectClient(t, c, mcp.Version20251125, handshakeRec, handshakeTold)
	require.NoError(t, old.Ping(ctx)) // the GET stream is open by now

	// The trigger runs at one replica; at most one of the two streams is there, and the
	// proxy's turn puts it at neither when the streams took the two replicas before it.
	triggerRec := &replicaRecorder{seen: map[int]int{}}
	trigger := connectClient(t, c, mcp.Version20260728, triggerRec, newTold())
	callText(t, trigger, "test_trigger_tool_change", nil)
	within(t, listener.tools, "notifications/tools/list_changed on the listen stream")
	within(t, handshakeTold.tools, "notifications/tools/list_changed on the GET stream")
	cancel()
	<-listenDone
}

// A replica killed (SIGKILL) in the middle of a stream loses nothing that was
// acknowledged: the events the client got replay from another replica, answered
// requests stay answered, the session goes on at the others with its log level and its
// subscription.
func TestEverythingReplicaKilledMidStreamLosesNothingAcknowledged(t *testing.T) {
	c := startCluster(t, 3, func(int) []string { return []string{"-watch-interval", "200ms"} })
	s := newRawSession(t, c)
	s.call(2, "logging/setLevel", `{"level":"debug"}`)
	s.call(3, "resources/subscribe", `{"uri":"test://watched-resource"}`)
	answered, _ := s.call(4, "tools/call", `{"name":"test_simple_text","arguments":{}}`)

	st := s.open(http.MethodPost, fmt.Sprintf(progressCall, 5, 5), nil)
	require.Equal(t, http.StatusOK, st.resp.StatusCode)
	var got []sseEvent
	for len(got) < 2 { // the priming event and the first progress notification
		ev, ok := st.next(t)
		require.True(t, ok)
		got = append(got, ev)
	}
	c.kill(st.replica)
	for ev := range st.events { // whatever was on its way before the kill
		got = append(got, ev)
	}

	// What the client got replays, in order, from the start of the stream.
	replay := s.open(http.MethodGet, "", map[string]string{"Last-Event-ID": got[0].id})
	require.Equal(t, http.StatusOK, replay.resp.StatusCode)
	assert.NotEqual(t, st.replica, replay.replica)
	var replayed []sseEvent
	for _, ev := range replay.rest(t) {
		if ev.data != "" {
			replayed = append(replayed, ev)
		}
	}
	require.GreaterOrEqual(t, len(replayed), len(got)-1)
	assert.Equal(t, got[1:], replayed[:len(got)-1], "the events the client got before the kill replay")

	// An answered request stays answered: its stream replays with the response.
	again := s.open(http.MethodGet, "", map[string]string{"Last-Event-ID": answered[0].id})
	require.Equal(t, http.StatusOK, again.resp.StatusCode)
	var response []sseEvent
	for _, ev := range again.rest(t) {
		if ev.data != "" {
			response = append(response, ev)
		}
	}
	require.NotEmpty(t, response)
	assert.Equal(t, answered[len(answered)-1], response[0])

	// The session goes on at the other replicas, with the state set before the kill.
	for i := range 2 {
		s.call(10+i, "ping", `{}`)
	}
	for i := range 2 { // once at each surviving replica
		evs, replica := s.call(20+i, "tools/call", `{"name":"test_tool_with_logging","arguments":{}}`)
		var logs int
		for _, ev := range evs {
			if decode(t, ev).Method == "notifications/message" {
				logs++
			}
		}
		assert.Equal(t, 3, logs, "log messages of the call at replica %d", replica)
	}
	get := s.open(http.MethodGet, "", nil)
	require.Equal(t, http.StatusOK, get.resp.StatusCode)
	for {
		ev, ok := get.next(t)
		require.True(t, ok, "the GET stream ended without a resource update")
		if m := decode(t, ev); m.Method == "notifications/resources/updated" {
			assert.Equal(t, "test://watched-resource", m.Params.URI)
			break
		}
	}
}
