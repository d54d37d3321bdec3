package mcp_test

import (
	"context"
	"errors"
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

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// chInitResult is an initialize result at 2025-11-25.
const chInitResult = `{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"f","version":"1"}}`

func TestStreamableHTTPClientReportsA404InASessionAsExpired(t *testing.T) {
	var mu sync.Mutex
	sessions := 0
	var initSessions []string
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "", http.StatusMethodNotAllowed)
			return
		}
		m := readFakeMsg(r)
		sid := r.Header.Get(mcp.HeaderSessionID)
		switch {
		case m.Method == "initialize":
			mu.Lock()
			sessions++
			initSessions = append(initSessions, sid)
			name := []string{"", "s-1", "s-2"}[min(sessions, 2)]
			mu.Unlock()
			w.Header().Set(mcp.HeaderSessionID, name)
			writeJSON(w, http.StatusOK, chResult(m.ID, chInitResult))
		case m.ID == nil:
			w.WriteHeader(http.StatusAccepted)
		case sid == "s-1" && m.Method == "tools/call":
			// A call in progress: its stream stays open.
			startEvents(w)(": waiting\n\n")
			<-r.Context().Done()
		case sid == "s-1":
			writeJSON(w, http.StatusNotFound, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"session not found"}}`)
		default:
			writeJSON(w, http.StatusOK, chResult(m.ID, `{}`))
		}
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	c.handshake(t, mcp.Version20251125)

	waiting := make(chan error, 1)
	go func() {
		_, err := c.call(t, "tools/call", map[string]any{"name": "slow"})
		waiting <- err
	}()
	time.Sleep(50 * time.Millisecond) // the slow call's stream is open
	_, err := c.call(t, "ping", nil)
	var expired *mcp.SessionExpiredError
	require.ErrorAs(t, err, &expired)
	assert.Equal(t, "s-1", expired.SessionID)
	assert.ErrorIs(t, err, mcp.ErrSessionExpired)
	select {
	case err := <-waiting:
		assert.ErrorIs(t, err, mcp.ErrSessionExpired, "every call waiting in the session fails")
	case <-time.After(chTimeout):
		t.Fatal("the waiting call did not fail")
	}

	// The link goes on: a new initialize starts a new session.
	c.handshake(t, mcp.Version20251125)
	_, err = c.call(t, "ping", nil)
	require.NoError(t, err)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"", ""}, initSessions, "initialize never carries a session id")
}

func TestStreamableHTTPClientTurnsHTTPErrorsIntoHTTPStatusError(t *testing.T) {
	tests := []struct {
		name        string
		status      int
		contentType string
		body        string
		wantRPC     int // 0: no JSON-RPC error
	}{
		{"400 with a JSON-RPC error of id null", http.StatusBadRequest, "application/json",
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad request"}}`, rpc.CodeInvalidRequest},
		{"400 with a stateless version error", http.StatusBadRequest, "application/json",
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"unsupported","data":{"supported":["2026-07-28"],"requested":"x"}}}`, mcp.CodeUnsupportedVersion},
		{"404 with -32601", http.StatusNotFound, "application/json",
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found"}}`, rpc.CodeMethodNotFound},
		{"405 not JSON", http.StatusMethodNotAllowed, "text/plain", "Method Not Allowed", 0},
		{"401 with a challenge", http.StatusUnauthorized, "", "", 0},
		{"500 with JSON that is not JSON-RPC", http.StatusInternalServerError, "application/json", `{"oops":true}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="x"`)
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
			_, err := c.call(t, "server/discover", chStateless(nil))
			var herr *mcp.HTTPStatusError
			require.ErrorAs(t, err, &herr)
			assert.Equal(t, tt.status, herr.StatusCode)
			assert.Equal(t, tt.body, string(herr.Body))
			assert.Equal(t, `Bearer resource_metadata="x"`, herr.Header.Get("WWW-Authenticate"))
			var rerr *rpc.Error
			if tt.wantRPC == 0 {
				assert.Nil(t, herr.RPCError)
				assert.False(t, errors.As(err, &rerr))
				return
			}
			require.ErrorAs(t, err, &rerr, "the JSON-RPC error is reachable with errors.As")
			assert.Equal(t, tt.wantRPC, rerr.Code)
			assert.Contains(t, err.Error(), fmt.Sprintf("HTTP %d", tt.status))
		})
	}
}

func TestHTTPStatusErrorSaysWhatTheServerAnswered(t *testing.T) {
	tests := []struct {
		err  *mcp.HTTPStatusError
		want string
	}{
		{&mcp.HTTPStatusError{StatusCode: 405}, "mcp: HTTP 405 Method Not Allowed"},
		{&mcp.HTTPStatusError{StatusCode: 400, Body: []byte("bad\n  thing")}, "mcp: HTTP 400 Bad Request: bad thing"},
		{&mcp.HTTPStatusError{StatusCode: 400, Body: []byte("x"), RPCError: rpc.InvalidRequest("no")}, "mcp: HTTP 400 Bad Request: " + rpc.InvalidRequest("no").Error()},
		{&mcp.HTTPStatusError{StatusCode: 500, Body: []byte(strings.Repeat("é", 150))}, "mcp: HTTP 500 Internal Server Error: " + strings.Repeat("é", 100) + "…"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.err.Error())
	}
	assert.Nil(t, (&mcp.HTTPStatusError{StatusCode: 400}).Unwrap(), "no JSON-RPC error: nothing to unwrap")
	assert.Equal(t, `mcp: the server ended session "s" (HTTP 404)`, (&mcp.SessionExpiredError{SessionID: "s"}).Error())
}

func TestStreamableHTTPClientBoundsWhatItReceives(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":1,"result":{"pad":"` + strings.Repeat("x", 2048) + `"}}`
	tests := []struct {
		name  string
		serve func(w http.ResponseWriter)
	}{
		{"a JSON body", func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, big) }},
		{"an SSE event", func(w http.ResponseWriter) { startEvents(w)("data: " + big + "\n\n") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.serve(w) }))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL, MaxMessageSize: 1024}, nil)
			_, err := c.call(t, "tools/list", nil)
			require.ErrorIs(t, err, rpc.ErrMessageTooLarge)
			var tooLarge *rpc.MessageTooLargeError
			require.ErrorAs(t, err, &tooLarge)
			assert.Equal(t, 1024, tooLarge.Limit)
		})
	}
}

func TestStreamableHTTPClientFailsAnswersWithoutTheResponse(t *testing.T) {
	tests := []struct {
		name   string
		params map[string]any
		serve  func(w http.ResponseWriter)
		want   string
	}{
		{"JSON with another id", nil, func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, chResult([]byte("99"), "{}")) }, "holds no response"},
		{"JSON that is not JSON", nil, func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, "{nope") }, "not JSON-RPC"},
		{"an unknown content type", nil, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>")
		}, `Content-Type "text/html"`},
		{"202 to a 2026-07-28 request", chStateless(nil), func(w http.ResponseWriter) { w.WriteHeader(http.StatusAccepted) }, "without answering it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { tt.serve(w) }))
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
			_, err := c.call(t, "tools/list", tt.params)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestStreamableHTTPClientMapsAnIDNullErrorOnTheCallsStream(t *testing.T) {
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		startEvents(w)(`data: {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}` + "\n\n")
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	_, err := c.call(t, "tools/list", nil)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, rpc.CodeParseError, rerr.Code)
}

func TestStreamableHTTPClientReportsNotificationsTheServerRefuses(t *testing.T) {
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"no"}}`)
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	err := c.conn.Notify(chCtx(t), "notifications/initialized", nil)
	var herr *mcp.HTTPStatusError
	require.ErrorAs(t, err, &herr)
	assert.Equal(t, http.StatusBadRequest, herr.StatusCode)
}

func TestStreamableHTTPClientRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "127.0.0.1:8080/mcp", "ftp://127.0.0.1/mcp", "http://", "http://[::1"} {
		_, err := mcp.DialHTTPLinkForTest(context.Background(), &mcp.StreamableHTTPTransport{URL: u}, nil)
		assert.Error(t, err, u)
		_, err = mcp.DialHTTPLinkForTest(context.Background(), &mcp.SSETransport{URL: u}, nil)
		assert.Error(t, err, u)
	}
}

func TestStreamableHTTPClientKeyNamesOriginAndPath(t *testing.T) {
	tests := []struct{ url, want string }{
		{"http://127.0.0.1:8080/mcp", "http://127.0.0.1:8080/mcp"},
		{"HTTPS://Example.COM/MCP?x=1#f", "https://example.com/MCP"},
		{"http://localhost", "http://localhost"},
		{"http://[::1]:9/a%20b", "http://[::1]:9/a%20b"},
	}
	for _, tt := range tests {
		l, err := mcp.DialHTTPLinkForTest(context.Background(), &mcp.StreamableHTTPTransport{URL: tt.url}, nil)
		require.NoError(t, err)
		assert.Equal(t, tt.want, l.Key())
		assert.True(t, l.IsHTTP())
		assert.False(t, l.Cancel(rpc.Int64ID(1)), "nothing to cancel")
		require.NoError(t, l.Close())
	}
}

func TestStreamableHTTPClientCloseEndsTheLink(t *testing.T) {
	var mu sync.Mutex
	var deleted []string
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			mu.Lock()
			deleted = append(deleted, r.Header.Get(mcp.HeaderSessionID)+"|"+r.Header.Get(mcp.HeaderProtocolVersion)+"|"+r.Header.Get("X-Extra"))
			mu.Unlock()
			http.Error(w, "sessions cannot be deleted", http.StatusMethodNotAllowed)
		case http.MethodGet:
			http.Error(w, "", http.StatusMethodNotAllowed)
		default:
			m := readFakeMsg(r)
			if m.Method == "initialize" {
				w.Header().Set(mcp.HeaderSessionID, "s-9")
				writeJSON(w, http.StatusOK, chResult(m.ID, chInitResult))
				return
			}
			w.WriteHeader(http.StatusAccepted)
		}
	}))
	link, err := mcp.DialHTTPLinkForTest(chCtx(t), &mcp.StreamableHTTPTransport{URL: ts.URL, Header: http.Header{"X-Extra": {"yes"}}}, nil)
	require.NoError(t, err)
	conn := rpc.NewConn(link)
	link.SetFail(func(id rpc.ID, err error) { conn.Fail(id, err) })
	require.NoError(t, conn.Call(chCtx(t), "initialize", chInitParams(mcp.Version20251125), nil))
	require.NoError(t, conn.Notify(chCtx(t), "notifications/initialized", nil))

	require.NoError(t, link.Close(), "a 405 to DELETE is not an error")
	mu.Lock()
	assert.Equal(t, []string{"s-9|2025-11-25|yes"}, deleted)
	mu.Unlock()
	_, err = link.Read(chCtx(t))
	assert.ErrorIs(t, err, io.EOF)
	assert.ErrorIs(t, link.Write(chCtx(t), []byte(`{"jsonrpc":"2.0","method":"x"}`)), rpc.ErrClosed)
	require.NoError(t, link.Close(), "closing twice is harmless")
	select {
	case <-conn.Done():
	case <-time.After(chTimeout):
		t.Fatal("the connection did not end with its link")
	}
}

func TestStreamableHTTPClientRefusesToSendWhatIsNotJSONRPC(t *testing.T) {
	l, err := mcp.DialHTTPLinkForTest(context.Background(), &mcp.StreamableHTTPTransport{URL: "http://127.0.0.1:1/mcp"}, nil)
	require.NoError(t, err)
	defer l.Close()
	for _, msg := range []string{`[]`, `{}`, `nope`, `{"jsonrpc":"2.0","id":1}`} {
		assert.Error(t, l.Write(context.Background(), []byte(msg)), msg)
	}
}

func TestStreamableHTTPClientReadsBatchEventsAndSkipsJunk(t *testing.T) {
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		send := startEvents(w)
		send("data: not json\n\n")
		send("data: 42\n\n") // JSON, but not a message
		send("event: other\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/ignored\"}\n\n")
		send(`data: [{"jsonrpc":"2.0","method":"notifications/batched"},` + chResult([]byte("1"), `{"ok":true}`) + "]\n\n")
	}))
	notes := make(chan string, 4)
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, chClientHandler(notes))
	res, err := c.call(t, "tools/list", nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{"ok":true}`, string(res))
	select {
	case m := <-notes:
		assert.Equal(t, "notifications/batched", m, "only message events are messages")
	case <-time.After(chTimeout):
		t.Fatal("the batched notification did not arrive")
	}
}

func TestStreamableHTTPClientExpiresTheSessionOnA404ToItsGETStream(t *testing.T) {
	ts, _ := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			http.Error(w, "session not found", http.StatusNotFound)
		case http.MethodPost:
			m := readFakeMsg(r)
			switch {
			case m.Method == "initialize":
				w.Header().Set(mcp.HeaderSessionID, "s-get")
				writeJSON(w, http.StatusOK, chResult(m.ID, chInitResult))
			case m.ID == nil:
				w.WriteHeader(http.StatusAccepted)
			case r.Header.Get(mcp.HeaderSessionID) == "":
				writeJSON(w, http.StatusOK, chResult(m.ID, `{"session":"none"}`))
			default:
				writeJSON(w, http.StatusOK, chResult(m.ID, `{"session":"kept"}`))
			}
		}
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	c.handshake(t, mcp.Version20251125)
	require.Eventually(t, func() bool {
		res, err := c.call(t, "ping", nil)
		return err == nil && string(res) == `{"session":"none"}`
	}, chTimeout, 10*time.Millisecond, "after the 404 the link forgets the session")
}

func TestStreamableHTTPClientReadEndsWithItsContext(t *testing.T) {
	l, err := mcp.DialHTTPLinkForTest(context.Background(), &mcp.StreamableHTTPTransport{URL: "http://127.0.0.1:1/mcp"}, nil)
	require.NoError(t, err)
	defer l.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err = l.Read(ctx)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

func TestStreamableHTTPClientFailsACallWhoseServerIsGone(t *testing.T) {
	ts := httptest.NewServer(http.NotFoundHandler())
	url := ts.URL
	ts.Close()
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: url}, nil)
	_, err := c.call(t, "tools/list", nil)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "POST tools/list")
}
