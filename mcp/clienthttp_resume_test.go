package mcp_test

import (
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

// The sse-retry scenario of the conformance suite: the POST stream sends
// a priming event (an id and retry: 500) and closes; the client must come
// back with GET and Last-Event-ID after about 500 ms and take the result
// from that stream.
func TestStreamableHTTPClientResumesAPrimedStreamAfterTheRetryDelay(t *testing.T) {
	var mu sync.Mutex
	var closedAt time.Time
	ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			m := readFakeMsg(r)
			send := startEvents(w)
			send("id: ev-1\nretry: 500\ndata: \n\n")
			mu.Lock()
			closedAt = time.Now()
			mu.Unlock()
			_ = m
		case http.MethodGet:
			if r.Header.Get("Last-Event-ID") != "ev-1" {
				http.Error(w, "unexpected", http.StatusBadRequest)
				return
			}
			send := startEvents(w)
			send("id: ev-2\nevent: message\ndata: " + chResult([]byte("1"), `{"content":[{"type":"text","text":"reconnected"}]}`) + "\n\n")
		}
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	res, err := c.call(t, "tools/call", map[string]any{"name": "test_reconnection"})
	require.NoError(t, err)
	assert.Equal(t, "reconnected", chToolText(t, res))

	var get chSeen
	for _, s := range rec.all() {
		if s.Method == http.MethodGet {
			get = s
		}
	}
	require.Equal(t, http.MethodGet, get.Method)
	assert.Equal(t, "text/event-stream", get.Header.Get("Accept"))
	mu.Lock()
	delay := get.At.Sub(closedAt)
	mu.Unlock()
	assert.GreaterOrEqual(t, delay, 450*time.Millisecond, "the retry field is honoured")
	assert.Less(t, delay, time.Second)
}

func TestStreamableHTTPClientResumesAgainAfterAResumedStreamBreaks(t *testing.T) {
	var mu sync.Mutex
	var lastIDs []string
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := startEvents(w)
		if r.Method == http.MethodPost {
			send("id: a\nretry: 10\ndata: \n\n")
			return
		}
		mu.Lock()
		lastIDs = append(lastIDs, r.Header.Get("Last-Event-ID"))
		n := len(lastIDs)
		mu.Unlock()
		switch n {
		case 1:
			send("id: b\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n")
		default:
			send("id: c\ndata: " + chResult([]byte("1"), `{}`) + "\n\n")
		}
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, chClientHandler(nil))
	_, err := c.call(t, "ping", nil)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"a", "b"}, lastIDs, "each reconnection names the last event received")
}

func TestStreamableHTTPClientStopsResumingAfterMaxReconnects(t *testing.T) {
	ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := startEvents(w)
		if r.Method == http.MethodPost {
			send("id: only\nretry: 10\ndata: \n\n")
		}
		// A GET stream that ends at once, with nothing new.
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL, MaxReconnects: 3}, nil)
	_, err := c.call(t, "ping", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "broke 3 times in a row")
	assert.Equal(t, 3, rec.count(http.MethodGet))
}

func TestStreamableHTTPClientFailsAStreamThatCannotBeResumed(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
		events string
		want   string
	}{
		{"handshake era, no event id", nil,
			"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1}}\n\n",
			"named no event to resume from"},
		{"2026-07-28, even with an event id", chStateless(nil), "id: 1\nretry: 10\ndata: \n\n", "2026-07-28 streams cannot be resumed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				startEvents(w)(tt.events)
			}))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, chClientHandler(nil))
			_, err := c.call(t, "tools/list", tt.params)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Zero(t, rec.count(http.MethodGet))
		})
	}
}

func TestStreamableHTTPClientReopensTheGETStreamWithLastEventID(t *testing.T) {
	var mu sync.Mutex
	var gets []string
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			m := readFakeMsg(r)
			if m.Method == "initialize" {
				w.Header().Set(mcp.HeaderSessionID, "s-1")
				writeJSON(w, http.StatusOK, chResult(m.ID, `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"f","version":"1"}}`))
				return
			}
			w.WriteHeader(http.StatusAccepted)
		case http.MethodGet:
			mu.Lock()
			gets = append(gets, r.Header.Get(mcp.HeaderSessionID)+"|"+r.Header.Get("Last-Event-ID"))
			n := len(gets)
			mu.Unlock()
			send := startEvents(w)
			if n == 1 {
				send("retry: 20\nid: g1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/one\"}\n\n")
				return
			}
			send("id: g2\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/two\"}\n\n")
			<-r.Context().Done()
		}
	}))
	notes := make(chan string, 4)
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, chClientHandler(notes))
	c.handshake(t, mcp.Version20251125)
	for _, want := range []string{"notifications/one", "notifications/two"} {
		select {
		case got := <-notes:
			assert.Equal(t, want, got)
		case <-time.After(chTimeout):
			t.Fatalf("%s did not arrive", want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"s-1|", "s-1|g1"}, gets)
}

func TestStreamableHTTPClientTakesA405GETAsNoStream(t *testing.T) {
	ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			m := readFakeMsg(r)
			if m.Method == "initialize" {
				writeJSON(w, http.StatusOK, chResult(m.ID, `{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"f","version":"1"}}`))
				return
			}
			if m.ID != nil {
				writeJSON(w, http.StatusOK, chResult(m.ID, `{}`))
				return
			}
			w.WriteHeader(http.StatusAccepted)
		default:
			http.Error(w, "no", http.StatusMethodNotAllowed)
		}
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	c.handshake(t, mcp.Version20250618)
	// Sending initialized returns once the GET is answered, so that no
	// later request overtakes the stream's opening.
	require.Equal(t, 1, rec.count(http.MethodGet))
	_, err := c.call(t, "ping", nil)
	require.NoError(t, err)
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, 1, rec.count(http.MethodGet), "a 405 is not retried")
	// Without a session there is nothing to DELETE.
	require.NoError(t, c.conn.Close())
	assert.Zero(t, rec.count(http.MethodDelete))
	assert.False(t, strings.Contains(rec.last(t, "ping").Header.Get(mcp.HeaderSessionID), "s"))
}

func TestStreamableHTTPClientResumesAStreamOurServerClosed(t *testing.T) {
	o := chOurServer(t, &mcp.HTTPOptions{RetryInterval: 30 * time.Millisecond})
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: o.ts.URL}, nil)
	c.handshake(t, mcp.Version20251125)
	res, err := c.call(t, "tools/call", map[string]any{"name": "poll"})
	require.NoError(t, err)
	assert.Equal(t, "polled", chToolText(t, res))
	var resumed []chSeen
	for _, s := range o.rec.all() {
		if s.Method == http.MethodGet && s.Header.Get("Last-Event-ID") != "" {
			resumed = append(resumed, s)
		}
	}
	require.NotEmpty(t, resumed, "the result came through a GET with Last-Event-ID")
	assert.NotEmpty(t, resumed[0].Header.Get(mcp.HeaderSessionID))
}

func TestStreamableHTTPClientFailsACallWhoseResumptionIsRefused(t *testing.T) {
	big := strings.Repeat("x", 2048)
	tests := []struct {
		name  string
		get   func(w http.ResponseWriter)
		check func(t *testing.T, err error)
	}{
		{"an HTTP error", func(w http.ResponseWriter) { http.Error(w, "no replay", http.StatusBadRequest) },
			func(t *testing.T, err error) {
				var herr *mcp.HTTPStatusError
				require.ErrorAs(t, err, &herr)
				assert.Equal(t, http.StatusBadRequest, herr.StatusCode)
			}},
		{"not an event stream", func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, "{}") },
			func(t *testing.T, err error) { assert.ErrorContains(t, err, "resuming the stream of ping") }},
		{"an event over the bound", func(w http.ResponseWriter) { startEvents(w)("data: " + big + "\n\n") },
			func(t *testing.T, err error) { assert.ErrorIs(t, err, rpc.ErrMessageTooLarge) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					tt.get(w)
					return
				}
				startEvents(w)("id: 1\nretry: 5\ndata: \n\n")
			}))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL, MaxMessageSize: 1024}, nil)
			_, err := c.call(t, "ping", nil)
			tt.check(t, err)
		})
	}
}

func TestStreamableHTTPClientGivesUpAGETStreamTheServerRefuses(t *testing.T) {
	tests := []struct {
		name string
		get  func(w http.ResponseWriter)
		gets int // GETs the client makes
	}{
		{"an HTTP error", func(w http.ResponseWriter) { http.Error(w, "no", http.StatusForbidden) }, 1},
		{"not an event stream", func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, "{}") }, 1},
		{"a stream that ends at once, again and again", func(w http.ResponseWriter) { startEvents(w)("retry: 5\n\n") }, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodGet {
					tt.get(w)
					return
				}
				m := readFakeMsg(r)
				if m.Method == "initialize" {
					writeJSON(w, http.StatusOK, chResult(m.ID, chInitResult))
					return
				}
				w.WriteHeader(http.StatusAccepted)
			}))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL, MaxReconnects: 2}, nil)
			c.handshake(t, mcp.Version20251125)
			require.Eventually(t, func() bool { return rec.count(http.MethodGet) == tt.gets }, chTimeout, 5*time.Millisecond)
			time.Sleep(50 * time.Millisecond)
			assert.Equal(t, tt.gets, rec.count(http.MethodGet), "and no more")
		})
	}
}
