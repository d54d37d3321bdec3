package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// cluster is several replicas of one server, each its own Server and
// handler as in separate processes, sharing a session store, a broker and
// an event store, behind a round-robin balancer on 127.0.0.1.
type cluster struct {
	URL      string
	urls     []string // each replica's own address, without the balancer
	servers  []*mcp.Server
	handlers []*mcp.StreamableHTTPHandler
	served   []atomic.Int64 // requests each replica got
	session  atomic.Value   // the last Mcp-Session-Id a replica issued

	mu   sync.Mutex
	down map[int]bool // replicas the balancer skips
	next int
}

// newCluster starts n replicas of the server newServer makes, with opts
// (nil for the defaults) around the shared stores.
func newCluster(t *testing.T, n int, newServer func(t *testing.T) *mcp.Server, opts *mcp.HTTPOptions) *cluster {
	t.Helper()
	shared := mcp.HTTPOptions{}
	if opts != nil {
		shared = *opts
	}
	if shared.Sessions == nil {
		shared.Sessions = mcp.NewMemorySessionStore()
	}
	if shared.Broker == nil {
		shared.Broker = &mcp.MemoryBroker{}
	}
	if shared.EventStore == nil {
		shared.EventStore = mcp.NewMemoryEventStore(nil)
	}
	c := &cluster{served: make([]atomic.Int64, n), down: map[int]bool{}}
	servers := make([]*mcp.Server, n)
	for i := range n {
		servers[i] = newServer(t)
		o := shared
		c.handlers = append(c.handlers, mcp.NewStreamableHTTPHandler(servers[i], &o))
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := c.pick()
		c.served[i].Add(1)
		c.handlers[i].ServeHTTP(w, r)
		if id := w.Header().Get(mcp.HeaderSessionID); id != "" {
			c.session.Store(id)
		}
	}))
	c.servers = servers
	var direct []*httptest.Server
	for _, h := range c.handlers {
		d := httptest.NewServer(h)
		direct = append(direct, d)
		c.urls = append(c.urls, d.URL)
	}
	t.Cleanup(func() {
		for i, h := range c.handlers {
			servers[i].CloseSubscriptions()
			h.Close()
			direct[i].Close()
		}
		ts.Close()
	})
	c.URL = ts.URL
	return c
}

// pick returns the next replica up, in turn.
func (c *cluster) pick() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range len(c.handlers) {
		i := c.next % len(c.handlers)
		c.next++
		if !c.down[i] {
			return i
		}
	}
	panic("every replica is down")
}

// stop takes replica i out of the balancer and shuts its handler down.
func (c *cluster) stop(i int) {
	c.mu.Lock()
	c.down[i] = true
	c.mu.Unlock()
	c.handlers[i].Close()
}

// post sends one message straight to replica i (not through the balancer).
func (c *cluster) post(t *testing.T, i int, session, body string) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set(mcp.HeaderSessionID, session)
	r.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	w := httptest.NewRecorder()
	c.handlers[i].ServeHTTP(w, r)
	return w
}

func handshakeClient(t *testing.T, url string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	if opts == nil {
		opts = versionOptions(mcp.Version20251125)
	}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: url})
	require.NoError(t, err)
	require.False(t, s.Stateless())
	return s
}

// A handshake session whose requests land on every replica in turn works
// end to end: calls, and a tool that asks the client (elicitation,
// sampling, roots) whose answers are POSTed to other replicas than the
// one running the tool.
func TestAHandshakeSessionWorksAcrossReplicas(t *testing.T) {
	for _, n := range []int{2, 3} {
		t.Run(strings.Repeat("r", n), func(t *testing.T) {
			c := newCluster(t, n, askingServer, nil)
			s := handshakeClient(t, c.URL, handlersOptions(mcp.Version20251125))
			defer s.Close()
			for i := range 2 * n {
				res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"hi"}`)})
				require.NoError(t, err, "call %d", i)
				assert.Equal(t, "hi", toolText(t, res))
			}
			for range n {
				res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "book"})
				require.NoError(t, err)
				text := toolText(t, res)
				assert.Contains(t, text, `accept "Ada"|42|`)
				assert.Contains(t, text, "2 roots")
			}
			for i := range n {
				assert.Positive(t, c.served[i].Load(), "replica %d served nothing", i)
			}
		})
	}
}

// notifications/cancelled POSTed to another replica reaches the call.
func TestACancellationReachesTheReplicaRunningTheCall(t *testing.T) {
	stopped := make(chan struct{}, 4)
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s, stop := blockingServer(t)
		go func() {
			for range stop {
				stopped <- struct{}{}
			}
		}()
		return s
	}, nil)
	s := handshakeClient(t, c.URL, nil)
	defer s.Close()
	ctx, cancel := context.WithTimeout(bg(t), 200*time.Millisecond)
	defer cancel()
	_, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "wait"})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	receive(t, stopped)
}

// Ending a session at one replica ends it at every replica: the others
// let their copies go and answer 404.
func TestEndingASessionEndsItOnEveryReplica(t *testing.T) {
	c := newCluster(t, 3, askingServer, nil)
	s := handshakeClient(t, c.URL, nil)
	for range 3 {
		require.NoError(t, s.Ping(bg(t))) // every replica holds a copy now
	}
	id, _ := c.session.Load().(string)
	require.NotEmpty(t, id)
	require.NoError(t, s.Close()) // DELETE
	for i := range 3 {
		require.Eventually(t, func() bool {
			return c.post(t, i, id, `{"jsonrpc":"2.0","id":9,"method":"ping"}`).Code == http.StatusNotFound
		}, 2*time.Second, 10*time.Millisecond, "replica %d still serves the ended session", i)
	}
}

// A replica that shuts down lets its copies go without ending them: the
// session goes on at the others.
func TestASessionOutlivesAReplicaThatShutsDown(t *testing.T) {
	c := newCluster(t, 2, askingServer, nil)
	s := handshakeClient(t, c.URL, nil)
	defer s.Close()
	require.NoError(t, s.Ping(bg(t)))
	c.stop(0)
	for range 3 {
		res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"text":"on"}`)})
		require.NoError(t, err)
		assert.Equal(t, "on", toolText(t, res))
	}
}

// A session id no replica ever issued is 404 at every replica.
func TestAnUnknownSessionIsNotFoundAtAReplica(t *testing.T) {
	c := newCluster(t, 2, askingServer, nil)
	w := c.post(t, 1, "0123456789abcdef0123456789abcdef", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "session not found")
}

// failingSessions is a session store that cannot be reached.
type failingSessions struct{ mcp.SessionStore }

func (failingSessions) Get(context.Context, string) ([]byte, error) {
	return nil, errors.New("connection refused")
}

// A replica whose session store fails answers 503, not 404: the session
// may well exist.
func TestASessionStoreFailureIsUnavailable(t *testing.T) {
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: failingSessions{mcp.NewMemorySessionStore()}})
	w := c.post(t, 0, "0123456789abcdef0123456789abcdef", `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Contains(t, w.Body.String(), "session store is unavailable")
}

// readFailingSessions fails every Get once fail is set.
type readFailingSessions struct {
	mcp.SessionStore
	fail *atomic.Bool
}

func (r readFailingSessions) Get(ctx context.Context, id string) ([]byte, error) {
	if r.fail.Load() {
		return nil, errors.New("connection refused")
	}
	return r.SessionStore.Get(ctx, id)
}

// A replica that holds a session serves its requests when the store cannot
// be read to bring its copy up to date: the copy it has is the best it
// knows, and the store may be back by the next request.
func TestAHeldSessionIsServedWhenTheStoreCannotBeRead(t *testing.T) {
	var fail atomic.Bool
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: readFailingSessions{mcp.NewMemorySessionStore(), &fail}, SessionTimeout: time.Hour})
	id := c.initialize(t, 0)
	fail.Store(true)
	w := c.post(t, 0, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, http.StatusOK, w.Code)
	assert.Contains(t, w.Body.String(), `"result":{}`)
}

// A stored state this server cannot take up (not its document, or a
// version it does not serve) is a session it cannot serve: 404.
func TestAnUnusableStoredSessionIsNotFound(t *testing.T) {
	store := mcp.NewMemorySessionStore()
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: store})
	for id, doc := range map[string]string{
		"00000000000000000000000000000001": `not json`,
		"00000000000000000000000000000002": `{"protocolVersion":"1999-01-01","logLevel":-1}`,
		"00000000000000000000000000000003": `{"protocolVersion":"2025-11-25","logLevel":99}`,
		"00000000000000000000000000000004": `{"protocolVersion":"2025-11-25","logLevel":-1,"capabilities":[1]}`,
	} {
		require.NoError(t, store.Put(bg(t), id, []byte(doc), time.Minute))
		w := c.post(t, 0, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		assert.Equal(t, http.StatusNotFound, w.Code, doc)
	}
}

// A change made at one replica reaches the listens open at another:
// tools/list_changed and notifications/resources/updated.
func TestAListenHearsOfChangesMadeAtAnotherReplica(t *testing.T) {
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := askingServer(t)
		require.NoError(t, s.AddResource(&mcp.Resource{URI: "mem://a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		}))
		return s
	}, nil)
	changed := make(chan string, 4)
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{
		OnToolsListChanged: func(context.Context) { changed <- "tools" },
		OnResourceUpdated:  func(_ context.Context, p *mcp.ResourceUpdatedNotificationParams) { changed <- p.URI },
	}).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: c.urls[0]})
	require.NoError(t, err)
	defer s.Close()
	require.True(t, s.Stateless())
	acked := make(chan mcp.ListenFilter, 1)
	done := make(chan error, 1)
	go func() {
		done <- s.Listen(bg(t), &mcp.ListenFilter{ToolsListChanged: true, ResourceSubscriptions: []string{"mem://a"}, Acknowledged: func(h mcp.ListenFilter) { acked <- h }})
	}()
	receive(t, acked)
	require.NoError(t, c.servers[1].AddTool(&mcp.Tool{Name: "new", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	assert.Equal(t, "tools", receive(t, changed))
	c.servers[1].ResourceUpdated(bg(t), "mem://a")
	assert.Equal(t, "mem://a", receive(t, changed))
	c.servers[0].CloseSubscriptions()
	assert.NoError(t, receive(t, done))
}

// A handshake session hears of a list change made at any replica once,
// from the replica its GET stream is connected to.
func TestAHandshakeSessionHearsOfAChangeOnce(t *testing.T) {
	c := newCluster(t, 3, askingServer, nil)
	changed := make(chan string, 8)
	opts := versionOptions(mcp.Version20251125)
	opts.OnToolsListChanged = func(context.Context) { changed <- "tools" }
	s := handshakeClient(t, c.URL, opts)
	defer s.Close()
	for range 3 {
		require.NoError(t, s.Ping(bg(t))) // copies everywhere
	}
	for i := range 3 {
		require.NoError(t, c.servers[i].AddTool(&mcp.Tool{Name: "new" + strings.Repeat("x", i), InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
		assert.Equal(t, "tools", receive(t, changed), "change at replica %d", i)
	}
	select {
	case <-changed:
		t.Fatal("a change was heard twice")
	case <-time.After(200 * time.Millisecond):
	}
}

// A call whose stream the server closes (SSE polling) is resumed by the
// client with Last-Event-ID at whichever replica the balancer picks: the
// shared event store replays what the client missed, and the result comes
// on that one resumption, at the replica running the call or at the
// other.
func TestAStreamResumesAtAnotherReplica(t *testing.T) {
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := askingServer(t)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "poll", InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if !mcp.CloseSSEStream(ctx) {
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("not closed")}}, nil
				}
				time.Sleep(50 * time.Millisecond)
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("polled")}}, nil
			}))
		return s
	}, &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond})
	s := handshakeClient(t, c.URL, nil)
	defer s.Close()
	before := []int64{c.served[0].Load(), c.served[1].Load()}
	res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "poll"})
	require.NoError(t, err)
	assert.Equal(t, "polled", toolText(t, res))
	assert.Equal(t, int64(2), c.served[0].Load()+c.served[1].Load()-before[0]-before[1], "the call and one resumption")
}

// initialize starts a session at replica i directly and returns its id
// (without notifications/initialized, whose state change would be stored
// after the call returns).
func (c *cluster) initialize(t *testing.T, i int) string {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	w := httptest.NewRecorder()
	c.handlers[i].ServeHTTP(w, r)
	id := w.Header().Get(mcp.HeaderSessionID)
	require.NotEmpty(t, id, "initialize at replica %d: %d %s", i, w.Code, w.Body)
	return id
}

// A replica that holds MaxSessions sessions takes up no other: 503, as
// for an initialize past the bound.
func TestAFullReplicaTakesUpNoSession(t *testing.T) {
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{MaxSessions: 1})
	id := c.initialize(t, 0)
	c.initialize(t, 1) // replica 1 is full
	w := c.post(t, 1, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Contains(t, w.Body.String(), "too many sessions")
	assert.Equal(t, http.StatusOK, c.post(t, 0, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).Code, "the session goes on where it is held")
}

// A replica that was closed takes up no session: 503.
func TestAClosedReplicaTakesUpNoSession(t *testing.T) {
	c := newCluster(t, 2, askingServer, nil)
	id := c.initialize(t, 0)
	c.stop(1)
	w := c.post(t, 1, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
	assert.Equal(t, http.StatusServiceUnavailable, w.Code)
	assert.Contains(t, w.Body.String(), "shutting down")
}

// A session whose state left the store (expired, or dropped without a
// word to this replica) is 404 at a replica holding a copy, from its next
// request on: every request reads the state.
func TestACopyOfASessionGoneFromTheStoreIsNotFound(t *testing.T) {
	store := mcp.NewMemorySessionStore()
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: store, SessionTimeout: time.Hour})
	id := c.initialize(t, 0)
	require.Equal(t, http.StatusOK, c.post(t, 1, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`).Code) // replica 1 holds a copy
	require.NoError(t, store.Delete(bg(t), id))
	w := c.post(t, 1, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Equal(t, http.StatusNotFound, w.Code)
	assert.Contains(t, w.Body.String(), "session not found")
}

// unreliableSessions fails the calls named; with keep, what it is put
// lives an hour whatever the ttl, so that a failed renewal loses nothing.
type unreliableSessions struct {
	mcp.SessionStore
	put, touch, keep bool
}

func (u unreliableSessions) Put(ctx context.Context, id string, state []byte, ttl time.Duration) error {
	if u.put {
		return errors.New("connection refused")
	}
	if u.keep {
		ttl = time.Hour
	}
	return u.SessionStore.Put(ctx, id, state, ttl)
}

func (u unreliableSessions) Touch(ctx context.Context, id string, ttl time.Duration) error {
	if u.touch {
		return errors.New("connection refused")
	}
	return u.SessionStore.Touch(ctx, id, ttl)
}

// A session whose state the store could not take is no shared session:
// unknown at the other replicas, and ended at its own by the next request,
// which finds nothing to renew. The client gets 404 and starts a new
// session, instead of one that works at one replica only.
func TestASessionTheStoreCouldNotTakeEnds(t *testing.T) {
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: unreliableSessions{SessionStore: mcp.NewMemorySessionStore(), put: true}})
	id := c.initialize(t, 0)
	assert.Equal(t, http.StatusNotFound, c.post(t, 1, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`).Code)
	assert.Equal(t, http.StatusNotFound, c.post(t, 0, id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).Code)
}

// A store that fails to renew a session does not end it: the request is
// served, and the renewal tried again later.
func TestAFailedRenewalDoesNotEndASession(t *testing.T) {
	c := newCluster(t, 2, askingServer, &mcp.HTTPOptions{Sessions: unreliableSessions{SessionStore: mcp.NewMemorySessionStore(), touch: true, keep: true}, SessionTimeout: 400 * time.Millisecond})
	id := c.initialize(t, 0)
	for i := range 3 {
		time.Sleep(150 * time.Millisecond) // a renewal is due at every request
		assert.Equal(t, http.StatusOK, c.post(t, 0, id, `{"jsonrpc":"2.0","id":1,"method":"ping"}`).Code, "request %d", i)
	}
}

// A replica's handler that was closed passes no more changes on: its
// server's changes stay its own.
func TestAClosedReplicaPassesNoChangesOn(t *testing.T) {
	c := newCluster(t, 2, askingServer, nil)
	changed := make(chan string, 4)
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{
		OnToolsListChanged: func(context.Context) { changed <- "tools" },
	}).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: c.urls[0]})
	require.NoError(t, err)
	defer s.Close()
	acked := make(chan mcp.ListenFilter, 1)
	go s.Listen(bg(t), &mcp.ListenFilter{ToolsListChanged: true, Acknowledged: func(h mcp.ListenFilter) { acked <- h }})
	receive(t, acked)
	c.stop(1)
	require.NoError(t, c.servers[1].AddTool(&mcp.Tool{Name: "late", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	select {
	case <-changed:
		t.Fatal("a closed replica passed a change on")
	case <-time.After(200 * time.Millisecond):
	}
	require.NoError(t, c.servers[0].AddTool(&mcp.Tool{Name: "here", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	assert.Equal(t, "tools", receive(t, changed))
	c.servers[0].CloseSubscriptions()
}

// A change of a session's state at one replica (the log level, a
// subscription) holds at the replicas that already hold a copy: a tool's
// log message at another replica follows the new level.
func TestAStateChangeReachesTheOtherCopies(t *testing.T) {
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := newServer(t, nil)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "chatty"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			require.NoError(t, req.Session.Log(ctx, mcp.LoggingLevel("debug"), "t", "a debug line"))
			return &mcp.CallToolResult{}, nil
		}))
		return s
	}, nil)
	session := c.initialize(t, 0)
	require.Equal(t, http.StatusAccepted, c.post(t, 0, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty"}}`
	w := c.post(t, 1, session, call) // replica 1 takes up a copy: logging is off
	require.Equal(t, http.StatusOK, w.Code)
	assert.NotContains(t, w.Body.String(), "a debug line")

	w = c.post(t, 0, session, `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"debug"}}`)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	require.Eventually(t, func() bool {
		return strings.Contains(c.post(t, 1, session, call).Body.String(), "a debug line")
	}, 5*time.Second, 20*time.Millisecond, "the copy at replica 1 follows the level set at replica 0")
}

// forgetfulBroker loses what replicas publish about a session's state
// (kind "state"), as a subscription made just after the publication, or
// a message that comes after the client's next request, would.
type forgetfulBroker struct{ mcp.MemoryBroker }

func (b *forgetfulBroker) Publish(ctx context.Context, topic string, msg []byte) error {
	if strings.Contains(string(msg), `"kind":"state"`) {
		return nil
	}
	return b.MemoryBroker.Publish(ctx, topic, msg)
}

// A change of a session's state answered at one replica holds for the
// client's very next request at a replica that already holds a copy, even
// when the word of it from the other replica never arrives: a copy reads
// the state before each request.
func TestAStateChangeHoldsAtTheNextRequestAtAnotherCopy(t *testing.T) {
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := newServer(t, nil)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "chatty"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			require.NoError(t, req.Session.Log(ctx, mcp.LoggingLevel("debug"), "t", "a debug line"))
			return &mcp.CallToolResult{}, nil
		}))
		return s
	}, &mcp.HTTPOptions{Broker: &forgetfulBroker{}})
	session := c.initialize(t, 0)
	require.Equal(t, http.StatusAccepted, c.post(t, 0, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	call := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"chatty"}}`
	w := c.post(t, 1, session, call) // replica 1 takes up a copy: logging is off
	require.Equal(t, http.StatusOK, w.Code)
	require.NotContains(t, w.Body.String(), "a debug line")

	for _, level := range []struct {
		name    string
		logs    bool
		replica int
	}{{"debug", true, 0}, {"error", false, 1}, {"debug", true, 0}} {
		w = c.post(t, level.replica, session, `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"`+level.name+`"}}`)
		require.Equal(t, http.StatusOK, w.Code, w.Body.String())
		for i := range 2 {
			w = c.post(t, i, session, call)
			require.Equal(t, http.StatusOK, w.Code)
			assert.Equal(t, level.logs, strings.Contains(w.Body.String(), "a debug line"), "replica %d after %s set at replica %d", i, level.name, level.replica)
		}
	}
}

// puttingSessions records the states put.
type puttingSessions struct {
	mcp.SessionStore
	mu   sync.Mutex
	puts []string
}

func (p *puttingSessions) Put(ctx context.Context, id string, state []byte, ttl time.Duration) error {
	p.mu.Lock()
	p.puts = append(p.puts, string(state))
	p.mu.Unlock()
	return p.SessionStore.Put(ctx, id, state, ttl)
}

func (p *puttingSessions) states() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.puts)
}

// notifications/initialized puts no state, at the replica it was POSTed to
// or at a copy that hears of it: it is handled after its 202, and a whole
// state put then could undo a change made meanwhile at another replica.
// The next change a request makes takes it along.
func TestNotificationsInitializedPutsNoState(t *testing.T) {
	store := &puttingSessions{SessionStore: mcp.NewMemorySessionStore()}
	var replicas atomic.Int32
	initialized := []chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		i := replicas.Add(1) - 1
		return newServer(t, &mcp.ServerOptions{Initialized: func(context.Context, *mcp.ServerSession) { initialized[i] <- struct{}{} }})
	}, &mcp.HTTPOptions{Sessions: store, Broker: &forgetfulBroker{}}) // replica 1 hears of the notification, not of the state it makes
	session := c.initialize(t, 0)
	require.Equal(t, http.StatusOK, c.post(t, 1, session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).Code, "replica 1 takes up a copy")
	require.Equal(t, http.StatusAccepted, c.post(t, 0, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	for i, ch := range initialized {
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("replica %d never handled notifications/initialized", i)
		}
	}
	puts := store.states()
	require.Len(t, puts, 1, "initialize alone: %v", puts)
	assert.NotContains(t, puts[0], `"ready"`)
	w := c.post(t, 1, session, `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	puts = store.states()
	require.Len(t, puts, 2)
	assert.Contains(t, puts[1], `"ready":true`, "the next change takes it along")
}

// notifications/initialized is handled after its POST was answered, so the
// client may change the session's state at another replica before the
// replica it was POSTed to handles it: that change holds.
func TestAStateChangeMadeWhileNotificationsInitializedWaitsIsKept(t *testing.T) {
	var c *cluster
	var session string
	var replicas atomic.Int32
	handled := make(chan struct{}, 1)
	c = newCluster(t, 2, func(t *testing.T) *mcp.Server {
		i := replicas.Add(1) - 1
		opts := &mcp.ServerOptions{}
		if i == 1 {
			opts.Middleware = []rpc.Middleware{func(next rpc.Handler) rpc.Handler {
				return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
					if req.Method != "notifications/initialized" {
						return next.Handle(ctx, req)
					}
					// The client's next request, served at replica 0 before this
					// notification is handled here.
					w := c.post(t, 0, session, `{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"debug"}}`)
					assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
					defer func() { handled <- struct{}{} }()
					return next.Handle(ctx, req)
				})
			}}
		}
		s := newServer(t, opts)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "chatty"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			require.NoError(t, req.Session.Log(ctx, mcp.LoggingLevel("debug"), "t", "a debug line"))
			return &mcp.CallToolResult{}, nil
		}))
		return s
	}, &mcp.HTTPOptions{Broker: &forgetfulBroker{}})
	session = c.initialize(t, 0)
	require.Equal(t, http.StatusAccepted, c.post(t, 1, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	select {
	case <-handled:
	case <-time.After(10 * time.Second):
		t.Fatal("replica 1 never handled notifications/initialized")
	}
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"chatty"}}`
	for i := range 2 {
		w := c.post(t, i, session, call)
		require.Equal(t, http.StatusOK, w.Code)
		assert.Contains(t, w.Body.String(), "a debug line", "the level set at replica 0 holds at replica %d", i)
	}
}

// A call's stream closed for polling and resumed at another replica than
// the one running the call is followed live there: what the call sends
// afterwards, and its response, arrive on the resumed connection, which
// then ends; the client does not have to resume again.
func TestAStreamResumedAtAnotherReplicaFollowsTheCall(t *testing.T) {
	t.Run("told by the running replica", func(t *testing.T) { followTheCall(t, &mcp.MemoryBroker{}) })
	// Without word from the running replica, the store is looked at once a
	// second, and the stream ends once a look after the response finds
	// nothing more.
	t.Run("word lost", func(t *testing.T) { followTheCall(t, silentBroker{}) })
}

func followTheCall(t *testing.T, broker mcp.Broker) {
	step := make(chan struct{})
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := newServer(t, nil)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mcp.CloseSSEStream(ctx)
			<-step
			require.NoError(t, req.Session.Log(ctx, mcp.LoggingLevel("error"), "t", "halfway"))
			<-step
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
		}))
		return s
	}, &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond, Broker: broker})
	session := c.initialize(t, 0)
	require.Equal(t, http.StatusAccepted, c.post(t, 0, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	require.Equal(t, http.StatusOK, c.post(t, 0, session, `{"jsonrpc":"2.0","id":1,"method":"logging/setLevel","params":{"level":"error"}}`).Code)

	// The call at replica 0; its stream closes at once.
	w := c.post(t, 0, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`)
	require.Equal(t, http.StatusOK, w.Code)
	last := lastEventID(w.Body.String())
	require.NotEmpty(t, last, "the closed stream had an event id: %q", w.Body.String())

	// Resumed at replica 1, which does not run the call.
	req, err := http.NewRequestWithContext(bg(t), http.MethodGet, c.urls[1], nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(mcp.HeaderSessionID, session)
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	events := newSSE(t, resp)

	step <- struct{}{}
	ev, err := events.next()
	require.NoError(t, err)
	assert.Contains(t, ev.Data, "halfway", "a message sent after the resumption arrives on it")
	step <- struct{}{}
	ev, err = events.next()
	require.NoError(t, err)
	assert.Contains(t, ev.Data, `"text":"done"`, "the response arrives on the resumed connection")
	_, err = events.next()
	assert.Error(t, err, "the resumed stream ends with the response")
}

// A stream followed at another replica ends when the replica running its
// call is gone (it answers no probe), so that the client resumes again
// instead of waiting on a call nobody runs.
func TestAFollowedStreamEndsWhenItsReplicaIsGone(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := newServer(t, nil)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "stuck"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mcp.CloseSSEStream(ctx)
			select {
			case <-block:
			case <-ctx.Done():
			}
			return &mcp.CallToolResult{}, nil
		}))
		return s
	}, &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond})
	session := c.initialize(t, 0)
	w := c.post(t, 0, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"stuck"}}`)
	require.Equal(t, http.StatusOK, w.Code)
	last := lastEventID(w.Body.String())
	require.NotEmpty(t, last)
	c.stop(0)

	req, err := http.NewRequestWithContext(bg(t), http.MethodGet, c.urls[1], nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(mcp.HeaderSessionID, session)
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	// The stream ends: at once when the call's replica recorded its end
	// (an error response) before going, after the unanswered probe
	// otherwise.
	events := newSSE(t, resp)
	for range 10 {
		ev, err := events.next()
		if err != nil {
			assert.ErrorIs(t, err, io.EOF)
			return
		}
		assert.NotContains(t, ev.Data, `"method"`, "only the call's own end may come: %s", ev.Data)
	}
	t.Fatal("the followed stream did not end")
}

// lastEventID is the id of the last event in an SSE body, "" when none.
func lastEventID(body string) string {
	last := ""
	for line := range strings.SplitSeq(body, "\n") {
		if id, ok := strings.CutPrefix(line, "id: "); ok {
			last = id
		}
	}
	return last
}

// A state another replica publishes for a session that this server cannot
// use (a version it does not serve) is logged and changes nothing: the
// copy serves on as it was.
func TestAnUnusableStateFromAnotherReplicaIsIgnored(t *testing.T) {
	log := &secLog{}
	broker := &mcp.MemoryBroker{}
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		return newServer(t, &mcp.ServerOptions{Logger: log.logger()})
	}, &mcp.HTTPOptions{Broker: broker})
	session := c.initialize(t, 0)
	ping := `{"jsonrpc":"2.0","id":5,"method":"ping"}`
	require.Equal(t, http.StatusOK, c.post(t, 1, session, ping).Code, "replica 1 takes up a copy")
	require.NoError(t, broker.Publish(bg(t), "mcp/session/"+session,
		[]byte(`{"from":"elsewhere","kind":"state","body":{"protocolVersion":"1999-01-01","logLevel":-1}}`)))
	require.Eventually(t, func() bool {
		return strings.Contains(log.String(), "another replica's state of a session is not usable")
	}, 5*time.Second, 10*time.Millisecond)
	for i := range 2 {
		w := c.post(t, i, session, ping)
		assert.Equal(t, http.StatusOK, w.Code, "replica %d", i)
		assert.Contains(t, w.Body.String(), `"result":{}`, "replica %d", i)
	}
}

// failingReplay is an event store whose Replay fails once armed.
type failingReplay struct {
	mcp.EventStore
	armed atomic.Bool
}

func (f *failingReplay) Replay(ctx context.Context, session, last string, fn func(string, []byte) error) (string, error) {
	if f.armed.Load() {
		return "", errors.New("replay refused")
	}
	return f.EventStore.Replay(ctx, session, last, fn)
}

// A followed stream whose store fails ends, logged, so that the client
// resumes again.
func TestAFollowedStreamEndsWhenTheStoreFails(t *testing.T) {
	step := make(chan struct{})
	defer close(step)
	log := &secLog{}
	events := &failingReplay{EventStore: mcp.NewMemoryEventStore(nil)}
	c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
		s := newServer(t, &mcp.ServerOptions{Logger: log.logger()})
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mcp.CloseSSEStream(ctx)
			<-step
			_ = req.Session.Log(ctx, mcp.LoggingLevel("error"), "t", "halfway")
			<-step
			return &mcp.CallToolResult{}, nil
		}))
		return s
	}, &mcp.HTTPOptions{RetryInterval: 10 * time.Millisecond, EventStore: events})
	session := c.initialize(t, 0)
	w := c.post(t, 0, session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow"}}`)
	require.Equal(t, http.StatusOK, w.Code)
	last := lastEventID(w.Body.String())
	require.NotEmpty(t, last)

	req, err := http.NewRequestWithContext(bg(t), http.MethodGet, c.urls[1], nil)
	require.NoError(t, err)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set(mcp.HeaderSessionID, session)
	req.Header.Set("MCP-Protocol-Version", mcp.Version20251125)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	events.armed.Store(true)
	step <- struct{}{}
	_, err = newSSE(t, resp).next()
	assert.ErrorIs(t, err, io.EOF, "the followed stream ends")
	assert.Contains(t, log.String(), "cannot follow a stream another replica serves")
}

// flakyGets is a session store whose Get fails once armed.
type flakyGets struct {
	mcp.SessionStore
	armed atomic.Bool
}

func (f *flakyGets) Get(ctx context.Context, id string) ([]byte, error) {
	if f.armed.Load() {
		return nil, errors.New("connection refused")
	}
	return f.SessionStore.Get(ctx, id)
}

// A replica reads a session's state before each request; when the store
// cannot be read, or holds a state this server cannot use, a replica that
// holds a copy logs it and serves on from the copy (the session may well
// live on), where one without a copy can take nothing up.
func TestACopyServesOnWhenTheStoredStateCannotBeRead(t *testing.T) {
	const ping = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for name, tc := range map[string]struct {
		spoil       func(t *testing.T, store *flakyGets, session string)
		logged      string
		otherStatus int
	}{
		"the store fails": {
			spoil:       func(_ *testing.T, store *flakyGets, _ string) { store.armed.Store(true) },
			logged:      "cannot read a shared session's state",
			otherStatus: http.StatusServiceUnavailable,
		},
		"a newer state this server cannot use": {
			spoil: func(t *testing.T, store *flakyGets, session string) {
				require.NoError(t, store.Put(bg(t), session, []byte(`{"protocolVersion":"1999-01-01","logLevel":-1,"revision":1000}`), time.Hour))
			},
			logged:      "the stored state of a session is not usable",
			otherStatus: http.StatusNotFound,
		},
	} {
		t.Run(name, func(t *testing.T) {
			log := &secLog{}
			store := &flakyGets{SessionStore: mcp.NewMemorySessionStore()}
			c := newCluster(t, 2, func(t *testing.T) *mcp.Server {
				return newServer(t, &mcp.ServerOptions{Logger: log.logger()})
			}, &mcp.HTTPOptions{Sessions: store, SessionTimeout: time.Hour})
			session := c.initialize(t, 0)
			tc.spoil(t, store, session)
			w := c.post(t, 0, session, ping)
			assert.Equal(t, http.StatusOK, w.Code, w.Body.String())
			assert.Contains(t, w.Body.String(), `"result":{}`)
			assert.Contains(t, log.String(), tc.logged)
			assert.Equal(t, tc.otherStatus, c.post(t, 1, session, ping).Code, "a replica without a copy")
		})
	}
}
