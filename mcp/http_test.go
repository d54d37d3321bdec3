package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The tests drive the handler with raw HTTP requests, the way the
// conformance suite does: no client library is involved.

const (
	acceptBoth  = "application/json, text/event-stream"
	initMessage = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}`
)

// fixture is a server behind a handler behind an httptest server on
// 127.0.0.1.
type fixture struct {
	t   *testing.T
	srv *mcp.Server
	h   *mcp.StreamableHTTPHandler
	ts  *httptest.Server
	// client sends the requests; nil means http.DefaultClient.
	client *http.Client
}

func newFixture(t *testing.T, opts *mcp.HTTPOptions) *fixture {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, opts)
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	return &fixture{t: t, srv: s, h: h, ts: ts}
}

// request sends one HTTP request with a 5 s bound; the body stays open for
// the caller.
func (f *fixture) request(method, body string, hdr map[string]string) *http.Response {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	f.t.Cleanup(cancel)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, f.ts.URL, rd)
	require.NoError(f.t, err)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	client := f.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	require.NoError(f.t, err)
	f.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// post sends a JSON-RPC body with the usual headers, plus the session's.
func (f *fixture) post(session, body string, extra ...string) *http.Response {
	f.t.Helper()
	hdr := map[string]string{"Content-Type": "application/json", "Accept": acceptBoth}
	if session != "" {
		hdr[mcp.HeaderSessionID] = session
	}
	for i := 0; i+1 < len(extra); i += 2 {
		hdr[extra[i]] = extra[i+1]
	}
	return f.request(http.MethodPost, body, hdr)
}

// initialize starts a session at a version and finishes the handshake.
func (f *fixture) initialize(version string) string {
	f.t.Helper()
	resp := f.post("", fmt.Sprintf(initMessage, version))
	require.Equal(f.t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get(mcp.HeaderSessionID)
	require.NotEmpty(f.t, session)
	msgs := messages(f.t, resp)
	require.Len(f.t, msgs, 1)
	require.Equal(f.t, version, msgs[0].Result["protocolVersion"])
	resp = f.post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	require.Equal(f.t, http.StatusAccepted, resp.StatusCode)
	return session
}

// session returns the server session behind an id.
func (f *fixture) session(id string) *mcp.ServerSession {
	f.t.Helper()
	for _, ss := range f.srv.Sessions() {
		if ss.ID() == id {
			return ss
		}
	}
	f.t.Fatalf("no session %s", id)
	return nil
}

// event is one SSE event as a client sees it.
type event struct {
	ID, Event, Data, Retry string
	HasID                  bool
}

// sse reads events from a response body, as a browser's EventSource
// would: a block without data lines dispatches no event.
type sse struct {
	br    *bufio.Reader
	retry string // the last retry field of a block without data
}

func newSSE(t *testing.T, resp *http.Response) *sse {
	t.Helper()
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	return &sse{br: bufio.NewReader(resp.Body)}
}

// next returns the next event, or an error at the end of the stream.
func (r *sse) next() (event, error) {
	var ev event
	var data []string
	seen := false
	for {
		line, err := r.br.ReadString('\n')
		if err != nil {
			return ev, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if seen {
				ev.Data = strings.Join(data, "\n")
				return ev, nil
			}
			// No data line: nothing is dispatched (a lone retry field).
			r.retry = ev.Retry
			ev = event{}
			continue
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "id":
			ev.ID, ev.HasID = value, true
		case "event":
			ev.Event = value
		case "data":
			data = append(data, value)
			seen = true
		case "retry":
			ev.Retry = value
		}
	}
}

// all reads events to the end of the stream.
func (r *sse) all(t *testing.T) []event {
	t.Helper()
	var out []event
	for range 1000 {
		ev, err := r.next()
		if err != nil {
			require.ErrorIs(t, err, io.EOF)
			return out
		}
		out = append(out, ev)
	}
	t.Fatal("endless stream")
	return nil
}

// message is a JSON-RPC message as the tests look at it.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params map[string]any  `json:"params"`
	Result map[string]any  `json:"result"`
	Error  *rpc.Error      `json:"error"`
}

func decode(t *testing.T, data string) message {
	t.Helper()
	var m message
	require.NoError(t, json.Unmarshal([]byte(data), &m), data)
	return m
}

// messages reads the JSON-RPC messages of a response, SSE or JSON.
func messages(t *testing.T, resp *http.Response) []message {
	t.Helper()
	if resp.Header.Get("Content-Type") == "application/json" {
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return []message{decode(t, string(b))}
	}
	var out []message
	for _, ev := range newSSE(t, resp).all(t) {
		if ev.Data != "" {
			out = append(out, decode(t, ev.Data))
		}
	}
	return out
}

// errorBody reads the JSON-RPC error of an HTTP error response, which
// carries id null.
func errorBody(t *testing.T, resp *http.Response) *rpc.Error {
	t.Helper()
	return refusal(t, resp, "null")
}

// refusal reads the JSON-RPC error of an HTTP error response and checks
// its id (JSON text).
func refusal(t *testing.T, resp *http.Response, id string) *rpc.Error {
	t.Helper()
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	m := decode(t, string(b))
	assert.Equal(t, id, string(m.ID))
	require.NotNil(t, m.Error, string(b))
	return m.Error
}

func TestInitializeStartsASessionAndPrimesTheStream(t *testing.T) {
	f := newFixture(t, nil)
	resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "no-cache", resp.Header.Get("Cache-Control"))
	assert.Equal(t, "no", resp.Header.Get("X-Accel-Buffering"))

	id := resp.Header.Get(mcp.HeaderSessionID)
	assert.Regexp(t, `^[0-9a-f]{32}$`, id, "128 random bits, visible ASCII")

	events := newSSE(t, resp).all(t)
	require.Len(t, events, 2)
	prime := events[0]
	assert.True(t, prime.HasID)
	assert.NotEmpty(t, prime.ID)
	assert.Empty(t, prime.Data)
	assert.Equal(t, "1000", prime.Retry)
	assert.NotEmpty(t, events[1].ID)
	assert.NotEqual(t, prime.ID, events[1].ID)
	m := decode(t, events[1].Data)
	assert.Equal(t, "1", string(m.ID))
	assert.Equal(t, mcp.Version20251125, m.Result["protocolVersion"])

	assert.Equal(t, mcp.Version20251125, f.session(id).ProtocolVersion())
	other := f.initialize(mcp.Version20250618)
	assert.NotEqual(t, id, other, "every session gets its own id")
}

func TestPingIsAnswered(t *testing.T) {
	for _, tc := range []struct {
		name        string
		json        bool
		contentType string
	}{
		{"over SSE", false, "text/event-stream"},
		{"as JSON", true, "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, &mcp.HTTPOptions{JSONResponse: tc.json})
			session := f.initialize(mcp.Version20251125)
			resp := f.post(session, `{"jsonrpc":"2.0","id":"p","method":"ping"}`)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tc.contentType, resp.Header.Get("Content-Type"))
			assert.Empty(t, resp.Header.Get(mcp.HeaderSessionID), "the id is issued with initialize only")
			msgs := messages(t, resp)
			require.Len(t, msgs, 1)
			assert.Equal(t, `"p"`, string(msgs[0].ID))
			assert.Equal(t, map[string]any{}, msgs[0].Result)
		})
	}
}

func TestNotificationsAndResponsesAreAcceptedWithoutABody(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	for _, body := range []string{
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}`,
		`{"jsonrpc":"2.0","id":99,"result":{}}`,
		`{"jsonrpc":"2.0","id":98,"error":{"code":-1,"message":"no"}}`,
	} {
		resp := f.post(session, body)
		assert.Equal(t, http.StatusAccepted, resp.StatusCode, body)
		b, _ := io.ReadAll(resp.Body)
		assert.Empty(t, b)
	}
	assert.Len(t, messages(t, f.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)), 1)
}

// A message that is not a valid notification and has no id is an invalid
// request to answer with id null, as on every other transport.
func TestAnInvalidNotificationIsRefusedWithIDNull(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	resp := f.post(session, `{"jsonrpc":"1.0","method":"notifications/bad"}`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	assert.Equal(t, rpc.CodeInvalidRequest, errorBody(t, resp).Code)
}

func TestSessionIDIsRequiredAndChecked(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	sse := map[string]string{"Accept": "text/event-stream"}
	for _, tc := range []struct {
		name   string
		resp   func() *http.Response
		status int
		id     string // of the error: a single request's own
	}{
		{"POST without the header", func() *http.Response { return f.post("", ping) }, http.StatusBadRequest, "2"},
		{"POST with an unknown id", func() *http.Response { return f.post("nope", ping) }, http.StatusNotFound, "2"},
		{"batch without the header", func() *http.Response { return f.post("", "["+ping+"]") }, http.StatusBadRequest, "null"},
		{"response without the header", func() *http.Response { return f.post("", `{"jsonrpc":"2.0","id":99,"result":{}}`) }, http.StatusBadRequest, "null"},
		{"GET without the header", func() *http.Response { return f.request(http.MethodGet, "", sse) }, http.StatusBadRequest, "null"},
		{"GET with an unknown id", func() *http.Response {
			return f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: "nope"})
		}, http.StatusNotFound, "null"},
		{"DELETE without the header", func() *http.Response { return f.request(http.MethodDelete, "", nil) }, http.StatusBadRequest, "null"},
		{"DELETE with an unknown id", func() *http.Response {
			return f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: "nope"})
		}, http.StatusNotFound, "null"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := tc.resp()
			assert.Equal(t, tc.status, resp.StatusCode)
			refusal(t, resp, tc.id)
		})
	}
	assert.Equal(t, http.StatusOK, f.post(session, ping).StatusCode)
}

func TestDeleteEndsTheSession(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusOK, get.StatusCode)

	resp := f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: session})
	assert.Equal(t, http.StatusNoContent, resp.StatusCode)

	assert.Empty(t, newSSE(t, get).all(t), "the GET stream ends with the session")
	assert.Equal(t, http.StatusNotFound, f.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode)
	assert.Equal(t, 0, mcp.SessionCountForTest(f.h))
	assert.Eventually(t, func() bool { return len(f.srv.Sessions()) == 0 }, 2*time.Second, 10*time.Millisecond)
}

func TestPOSTHeadersAndBodyAreChecked(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{MaxBodyBytes: 256})
	init := fmt.Sprintf(initMessage, mcp.Version20251125)
	big := `{"jsonrpc":"2.0","method":"notifications/x","params":{"pad":"` + strings.Repeat("x", 300) + `"}}`
	for _, tc := range []struct {
		name   string
		body   string
		hdr    map[string]string
		status int
	}{
		{"no content type", init, map[string]string{"Accept": acceptBoth}, http.StatusUnsupportedMediaType},
		{"text/plain", init, map[string]string{"Content-Type": "text/plain", "Accept": acceptBoth}, http.StatusUnsupportedMediaType},
		{"charset parameter", init, map[string]string{"Content-Type": "application/json; charset=utf-8", "Accept": acceptBoth}, http.StatusOK},
		{"no Accept", init, map[string]string{"Content-Type": "application/json"}, http.StatusNotAcceptable},
		{"JSON only", init, map[string]string{"Content-Type": "application/json", "Accept": "application/json"}, http.StatusNotAcceptable},
		{"SSE only", init, map[string]string{"Content-Type": "application/json", "Accept": "text/event-stream"}, http.StatusNotAcceptable},
		{"SSE refused by q=0", init, map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream;q=0"}, http.StatusNotAcceptable},
		{"wildcard", init, map[string]string{"Content-Type": "application/json", "Accept": "*/*"}, http.StatusOK},
		{"type wildcards", init, map[string]string{"Content-Type": "application/json", "Accept": "application/*, text/*"}, http.StatusOK},
		{"body too large", big, map[string]string{"Content-Type": "application/json", "Accept": acceptBoth}, http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.request(http.MethodPost, tc.body, tc.hdr)
			assert.Equal(t, tc.status, resp.StatusCode)
			if tc.status != http.StatusOK {
				errorBody(t, resp)
			}
		})
	}
}

func TestAChunkedBodyOverTheLimitIs413(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{MaxBodyBytes: 64})
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte(`{"jsonrpc":"2.0","method":"x","params":{"p":"` + strings.Repeat("y", 200) + `"}}`))
		pw.Close()
	}()
	req, err := http.NewRequest(http.MethodPost, f.ts.URL, pr)
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", acceptBoth)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
}

func TestBodiesThatCannotBeRoutedAreRefused(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20250326)
	for _, tc := range []struct {
		name, body string
		code       int
	}{
		{"not JSON", `{"jsonrpc":`, rpc.CodeParseError},
		{"not an object", `42`, rpc.CodeInvalidRequest},
		{"null request id", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, rpc.CodeInvalidRequest},
		{"object request id", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, rpc.CodeInvalidRequest},
		{"empty batch", `[]`, rpc.CodeInvalidRequest},
		{"batch of non-objects", `[1,2]`, rpc.CodeInvalidRequest},
		{"duplicate member", `{"jsonrpc":"2.0","id":3,"id":4,"method":"ping"}`, rpc.CodeParseError},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"\xff\"}", rpc.CodeParseError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.post(session, tc.body)
			assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
			assert.Equal(t, tc.code, errorBody(t, resp).Code)
		})
	}
}

func TestInvalidRequestsAreAnsweredOnTheirStream(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	for _, tc := range []struct {
		name, body, id string
	}{
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":5,"method":"ping"}`, "5"},
		{"params not structured", `{"jsonrpc":"2.0","id":"s","method":"ping","params":3}`, `"s"`},
		{"unknown method", `{"jsonrpc":"2.0","id":6,"method":"nope"}`, "6"},
		{"escaped string id", `{"jsonrpc":"2.0","id":"\u00e9","method":"nope"}`, `"\u00e9"`},
		{"no method, no result", `{"jsonrpc":"2.0","id":3}`, "3"},
		{"method in capitals", `{"jsonrpc":"2.0","id":"M","Method":"ping"}`, `"M"`},
		{"method with a NUL", `{"jsonrpc":"2.0","id":8,"method\u0000":"ping"}`, "8"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.post(session, tc.body)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			msgs := messages(t, resp)
			require.Len(t, msgs, 1)
			assert.Equal(t, tc.id, string(msgs[0].ID))
			assert.NotNil(t, msgs[0].Error)
		})
	}
}

// In a batch, an element that is not a message is answered in the batch's
// array with id null, beside the answers of the others, as on every other
// transport.
func TestABatchElementThatIsNotAMessageIsAnsweredInTheArray(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20250326)
	resp := f.post(session, `[{"jsonrpc":"2.0","id":3,"method":"ping"},1]`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var data []string
	for _, ev := range newSSE(t, resp).all(t) {
		if ev.Data != "" {
			data = append(data, ev.Data)
		}
	}
	require.Len(t, data, 1)
	var replies []message
	require.NoError(t, json.Unmarshal([]byte(data[0]), &replies), data[0])
	require.Len(t, replies, 2)
	assert.Equal(t, "3", string(replies[0].ID))
	assert.NotNil(t, replies[0].Result)
	assert.Equal(t, "null", string(replies[1].ID))
	require.NotNil(t, replies[1].Error)
	assert.Equal(t, rpc.CodeInvalidRequest, replies[1].Error.Code)
}

func TestProtocolVersionHeader(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	// Each ping has its own id: the SSE headers arrive before the response,
	// so an id is still in flight when the status code is seen.
	n := 1
	ping := func() string {
		n++
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, n)
	}
	for _, tc := range []struct {
		name    string
		version string
		status  int
	}{
		{"the negotiated version", mcp.Version20251125, http.StatusOK},
		{"another supported version", mcp.Version20250326, http.StatusOK},
		{"unsupported", "2023-01-01", http.StatusBadRequest},
		{"empty", "", http.StatusBadRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := f.post(session, ping(), mcp.HeaderProtocolVersion, tc.version)
			assert.Equal(t, tc.status, resp.StatusCode)
		})
	}
	t.Run("absent", func(t *testing.T) {
		assert.Equal(t, http.StatusOK, f.post(session, ping()).StatusCode)
	})
	t.Run("unsupported: the error names the version", func(t *testing.T) {
		resp := f.post(session, ping(), mcp.HeaderProtocolVersion, "2023-01-01")
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		var m struct {
			Error struct {
				Code int `json:"code"`
				Data struct {
					Requested string   `json:"requested"`
					Supported []string `json:"supported"`
				} `json:"data"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		assert.Equal(t, mcp.CodeUnsupportedVersion, m.Error.Code, "not a complaint about a 2026-07-28 header")
		assert.Equal(t, "2023-01-01", m.Error.Data.Requested)
		assert.Contains(t, m.Error.Data.Supported, mcp.Version20251125)
	})
	t.Run("unsupported on GET", func(t *testing.T) {
		// Not a handshake version: the stateless path, which has no GET.
		resp := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream",
			mcp.HeaderSessionID: session, mcp.HeaderProtocolVersion: "1.0"})
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	})
}

func TestOtherMethodsAreNotAllowed(t *testing.T) {
	f := newFixture(t, nil)
	resp := f.request(http.MethodPut, "{}", nil)
	assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	assert.Equal(t, "GET, POST, DELETE", resp.Header.Get("Allow"))
}

func TestDNSRebindingIsRefused(t *testing.T) {
	f := newFixture(t, nil)
	_, port, err := net.SplitHostPort(f.ts.Listener.Addr().String())
	require.NoError(t, err)
	init := fmt.Sprintf(initMessage, mcp.Version20251125)
	for _, tc := range []struct {
		name, host, origin string
		status             int
	}{
		{"evil host and origin", "evil.example.com", "http://evil.example.com", http.StatusForbidden},
		{"evil host", "evil.example.com:" + port, "", http.StatusForbidden},
		{"evil origin", "127.0.0.1:" + port, "http://evil.example.com", http.StatusForbidden},
		{"real host and origin", "127.0.0.1:" + port, "http://127.0.0.1:" + port, http.StatusOK},
		{"localhost, another port", "localhost:1", "http://localhost:3000", http.StatusOK},
		{"IPv6 loopback", "[::1]:" + port, "https://[::1]", http.StatusOK},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, f.ts.URL, strings.NewReader(init))
			require.NoError(t, err)
			req.Host = tc.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", acceptBoth)
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode)
			if tc.status == http.StatusForbidden {
				errorBody(t, resp)
			}
		})
	}
}

func TestHTTPBatchesOnlyIn20250326(t *testing.T) {
	batch := `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":"b","method":"ping"}]`
	t.Run("2025-03-26 answers the batch with an array", func(t *testing.T) {
		f := newFixture(t, nil)
		session := f.initialize(mcp.Version20250326)
		resp := f.post(session, batch)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		events := newSSE(t, resp).all(t)
		require.Len(t, events, 1, "2025-03-26 streams have no priming event")
		var replies []message
		require.NoError(t, json.Unmarshal([]byte(events[0].Data), &replies))
		require.Len(t, replies, 2)
		assert.Equal(t, "1", string(replies[0].ID))
		assert.Equal(t, `"b"`, string(replies[1].ID))
	})
	t.Run("2025-03-26 batch without requests is accepted", func(t *testing.T) {
		f := newFixture(t, nil)
		session := f.initialize(mcp.Version20250326)
		resp := f.post(session, `[{"jsonrpc":"2.0","method":"notifications/x"}]`)
		assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	})
	for _, v := range []string{mcp.Version20250618, mcp.Version20251125, mcp.Version20241105} {
		t.Run(v+" refuses it", func(t *testing.T) {
			f := newFixture(t, nil)
			session := f.initialize(v)
			resp := f.post(session, batch)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			msgs := messages(t, resp)
			require.Len(t, msgs, 1)
			assert.Equal(t, "null", string(msgs[0].ID))
			assert.Equal(t, rpc.CodeInvalidRequest, msgs[0].Error.Code)
		})
	}
}

func TestADuplicateIDInFlightIsRefused(t *testing.T) {
	f := newFixture(t, nil)
	release := make(chan struct{})
	mcp.RegisterForTest(f.srv, "test/wait", func(ctx context.Context, _ *rpc.Request) (any, error) {
		<-release
		return map[string]any{}, nil
	})
	session := f.initialize(mcp.Version20251125)
	first := f.post(session, `{"jsonrpc":"2.0","id":9,"method":"test/wait"}`)
	require.Equal(t, http.StatusOK, first.StatusCode)
	second := f.post(session, `{"jsonrpc":"2.0","id":9,"method":"ping"}`)
	assert.Equal(t, http.StatusBadRequest, second.StatusCode)
	close(release)
	msgs := messages(t, first)
	require.Len(t, msgs, 1)
	assert.Equal(t, "9", string(msgs[0].ID))
}

func TestABatchRepeatingAnIDIsRefused(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20250326)
	resp := f.post(session, `[{"jsonrpc":"2.0","id":4,"method":"ping"},{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	// Nothing of the refused batch stays in flight: its id is free again.
	again := f.post(session, `[{"jsonrpc":"2.0","id":4,"method":"ping"}]`)
	assert.Equal(t, http.StatusOK, again.StatusCode)
}

func TestTheGETStreamCarriesUnpromptedMessages(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	ss := f.session(session)

	// Sent before any GET stream: kept for the first one.
	require.NoError(t, mcp.NotifyForTest(ss, "notifications/tools/list_changed", nil))

	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusOK, get.StatusCode)
	r := newSSE(t, get)
	ev, err := r.next()
	require.NoError(t, err)
	assert.NotEmpty(t, ev.ID)
	assert.Equal(t, "notifications/tools/list_changed", decode(t, ev.Data).Method)

	require.NoError(t, mcp.NotifyForTest(ss, "notifications/resources/updated", map[string]any{"uri": "test://x"}))
	ev, err = r.next()
	require.NoError(t, err)
	m := decode(t, ev.Data)
	assert.Equal(t, "notifications/resources/updated", m.Method)
	assert.Equal(t, "test://x", m.Params["uri"])
}

func TestGETNeedsAcceptEventStream(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	resp := f.request(http.MethodGet, "", map[string]string{"Accept": "application/json", mcp.HeaderSessionID: session})
	assert.Equal(t, http.StatusNotAcceptable, resp.StatusCode)
}

func TestASecondGETStreamReplacesTheFirst(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	hdr := map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session}
	first := f.request(http.MethodGet, "", hdr)
	require.Equal(t, http.StatusOK, first.StatusCode)
	second := f.request(http.MethodGet, "", hdr)
	require.Equal(t, http.StatusOK, second.StatusCode)
	assert.Empty(t, newSSE(t, first).all(t), "the first stream ends")

	require.NoError(t, mcp.NotifyForTest(f.session(session), "notifications/prompts/list_changed", nil))
	ev, err := newSSE(t, second).next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/prompts/list_changed", decode(t, ev.Data).Method)
}

// callback registers test/callback: it notifies, asks the client for a
// sampling result, and returns what the client answered.
func callback(f *fixture) {
	mcp.RegisterForTest(f.srv, "test/callback", func(ctx context.Context, _ *rpc.Request) (any, error) {
		conn := rpc.ConnFromContext(ctx)
		if err := conn.Notify(ctx, "notifications/progress", map[string]any{"progressToken": "t", "progress": 1}); err != nil {
			return nil, err
		}
		var res map[string]any
		if err := conn.Call(ctx, "sampling/createMessage", map[string]any{"maxTokens": 1}, &res); err != nil {
			return nil, err
		}
		return map[string]any{"echo": res}, nil
	})
}

func TestAServerRequestTravelsOnTheCallsStream(t *testing.T) {
	f := newFixture(t, nil)
	callback(f)
	session := f.initialize(mcp.Version20251125)
	resp := f.post(session, `{"jsonrpc":"2.0","id":"call","method":"test/callback"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := newSSE(t, resp)

	prime, err := r.next()
	require.NoError(t, err)
	assert.Empty(t, prime.Data)
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/progress", decode(t, ev.Data).Method, "notifications come before the response")
	ev, err = r.next()
	require.NoError(t, err)
	req := decode(t, ev.Data)
	require.Equal(t, "sampling/createMessage", req.Method)

	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"model":"m"}}`, req.ID)
	assert.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)

	ev, err = r.next()
	require.NoError(t, err)
	final := decode(t, ev.Data)
	assert.Equal(t, `"call"`, string(final.ID))
	assert.Equal(t, map[string]any{"echo": map[string]any{"model": "m"}}, final.Result)
	_, err = r.next()
	assert.ErrorIs(t, err, io.EOF, "the stream ends after the response")
}

func TestInJSONModeServerRequestsTravelOnTheGETStream(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{JSONResponse: true})
	callback(f)
	session := f.initialize(mcp.Version20251125)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusOK, get.StatusCode)
	r := newSSE(t, get)

	done := make(chan *http.Response, 1)
	go func() {
		done <- f.post(session, `{"jsonrpc":"2.0","id":"call","method":"test/callback"}`)
	}()
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/progress", decode(t, ev.Data).Method)
	ev, err = r.next()
	require.NoError(t, err)
	req := decode(t, ev.Data)
	require.Equal(t, "sampling/createMessage", req.Method)
	answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"model":"j"}}`, req.ID)
	assert.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)

	resp := <-done
	require.Equal(t, http.StatusOK, resp.StatusCode)
	msgs := messages(t, resp)
	require.Len(t, msgs, 1)
	assert.Equal(t, map[string]any{"echo": map[string]any{"model": "j"}}, msgs[0].Result)
}

func TestABrokenPOSTStreamIsResumedWithLastEventID(t *testing.T) {
	for _, tc := range []struct {
		name string
		// early: resume while the call still runs, so the response is
		// delivered live on the resumed stream.
		early bool
		// version: only 2025-11-25 primes the stream; older versions
		// resume from the last message received.
		version string
	}{
		{"after the call finished", false, mcp.Version20251125},
		{"while the call runs", true, mcp.Version20251125},
		{"2025-03-26 after the call finished", false, mcp.Version20250326},
		{"2025-06-18 while the call runs", true, mcp.Version20250618},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nil)
			release := make(chan struct{})
			finished := make(chan struct{})
			mcp.RegisterForTest(f.srv, "test/slow", func(ctx context.Context, _ *rpc.Request) (any, error) {
				defer close(finished)
				conn := rpc.ConnFromContext(ctx)
				conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "before"})
				<-release
				conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "after"})
				return map[string]any{"done": true}, nil
			})
			session := f.initialize(tc.version)
			primed := tc.version == mcp.Version20251125

			resp := f.post(session, `{"jsonrpc":"2.0","id":"slow","method":"test/slow"}`)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			r := newSSE(t, resp)
			var prime event
			var err error
			if primed {
				prime, err = r.next()
				require.NoError(t, err)
				require.NotEmpty(t, prime.ID, "a priming event in 2025-11-25")
			}
			before, err := r.next()
			require.NoError(t, err)
			assert.Equal(t, "before", decode(t, before.Data).Params["data"])
			resp.Body.Close() // the connection drops mid-call

			hdr := map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, "Last-Event-ID": before.ID}
			var events []event
			if tc.early {
				get := f.request(http.MethodGet, "", hdr)
				require.Equal(t, http.StatusOK, get.StatusCode)
				close(release)
				events = newSSE(t, get).all(t)
			} else {
				close(release)
				<-finished
				get := f.request(http.MethodGet, "", hdr)
				require.Equal(t, http.StatusOK, get.StatusCode)
				events = newSSE(t, get).all(t)
			}
			require.Len(t, events, 2)
			assert.Equal(t, "after", decode(t, events[0].Data).Params["data"])
			final := decode(t, events[1].Data)
			assert.Equal(t, `"slow"`, string(final.ID))
			assert.Equal(t, true, final.Result["done"])

			if !primed {
				return
			}
			// Resuming from the priming event replays the whole stream.
			hdr["Last-Event-ID"] = prime.ID
			get := f.request(http.MethodGet, "", hdr)
			require.Equal(t, http.StatusOK, get.StatusCode)
			assert.Len(t, newSSE(t, get).all(t), 3)
		})
	}
}

func TestAnUnknownLastEventIDIsRefused(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	for _, id := range []string{"garbage", "7-1000", "0-0"} {
		resp := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, "Last-Event-ID": id})
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode, id)
	}
}

func TestTheGETStreamIsResumedWithLastEventID(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	ss := f.session(session)
	hdr := map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session}
	get := f.request(http.MethodGet, "", hdr)
	r := newSSE(t, get)
	require.NoError(t, mcp.NotifyForTest(ss, "notifications/a", nil))
	first, err := r.next()
	require.NoError(t, err)
	get.Body.Close()
	require.Eventually(t, func() bool {
		// Sent while no GET stream is open: replayed on resumption.
		return mcp.NotifyForTest(ss, "notifications/b", nil) == nil
	}, time.Second, 10*time.Millisecond)

	hdr["Last-Event-ID"] = first.ID
	get = f.request(http.MethodGet, "", hdr)
	require.Equal(t, http.StatusOK, get.StatusCode)
	r = newSSE(t, get)
	ev, err := r.next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/b", decode(t, ev.Data).Method)
	require.NoError(t, mcp.NotifyForTest(ss, "notifications/c", nil))
	ev, err = r.next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/c", decode(t, ev.Data).Method, "the resumed GET stream stays live")
}

func TestConcurrentPOSTStreamsOfOneSession(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20251125)
	results := make(chan string, 3)
	for i := range 3 {
		go func() {
			resp := f.post(session, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 1000+i), mcp.HeaderProtocolVersion, mcp.Version20250326)
			if resp.StatusCode != http.StatusOK {
				results <- fmt.Sprint("status ", resp.StatusCode)
				return
			}
			for _, ev := range newSSE(t, resp).all(t) {
				if ev.Data != "" {
					results <- string(decode(t, ev.Data).ID)
				}
			}
		}()
	}
	var got []string
	for range 3 {
		got = append(got, <-results)
	}
	assert.ElementsMatch(t, []string{"1000", "1001", "1002"}, got)
}

func TestAFailedInitializeLeavesNoSession(t *testing.T) {
	f := newFixture(t, nil)
	resp := f.post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get(mcp.HeaderSessionID)
	msgs := messages(t, resp)
	require.Len(t, msgs, 1)
	require.NotNil(t, msgs[0].Error)
	assert.Eventually(t, func() bool { return mcp.SessionCountForTest(f.h) == 0 }, 2*time.Second, 10*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, f.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode)
}

func TestAnIdleSessionTimesOut(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{SessionTimeout: 50 * time.Millisecond})
	session := f.initialize(mcp.Version20251125)
	require.Eventually(t, func() bool { return mcp.SessionCountForTest(f.h) == 0 }, 2*time.Second, 10*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, f.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode)
	assert.Eventually(t, func() bool { return len(f.srv.Sessions()) == 0 }, 2*time.Second, 10*time.Millisecond)
}

func TestAnOpenStreamKeepsTheSessionAlive(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{SessionTimeout: 30 * time.Millisecond, KeepAlive: 10 * time.Millisecond})
	session := f.initialize(mcp.Version20251125)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusOK, get.StatusCode)
	// Read keep-alive comments for several timeouts' worth of time.
	br := bufio.NewReader(get.Body)
	for range 10 {
		line, err := br.ReadString('\n')
		require.NoError(t, err)
		if line == ": keep-alive\n" {
			_, err = br.ReadString('\n')
			require.NoError(t, err)
		}
	}
	assert.Equal(t, 1, mcp.SessionCountForTest(f.h))
}

func TestCloseEndsEverySession(t *testing.T) {
	f := newFixture(t, nil)
	a := f.initialize(mcp.Version20251125)
	f.initialize(mcp.Version20250618)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: a})
	require.Equal(t, http.StatusOK, get.StatusCode)

	require.NoError(t, f.h.Close())
	assert.Empty(t, newSSE(t, get).all(t))
	assert.Equal(t, 0, mcp.SessionCountForTest(f.h))
	assert.Eventually(t, func() bool { return len(f.srv.Sessions()) == 0 }, 2*time.Second, 10*time.Millisecond)
	assert.Equal(t, http.StatusNotFound, f.post(a, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode)
	resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
}

// The server has rpc's bounds on headers and idle connections but no
// whole-request read or write timeout, which would cut SSE streams.
func TestNewHTTPServerBoundsHeadersButNotStreams(t *testing.T) {
	srv := mcp.NewHTTPServer(http.NotFoundHandler(), nil)
	assert.Equal(t, mcp.DefaultReadHeaderTimeout, srv.ReadHeaderTimeout)
	assert.Equal(t, mcp.DefaultIdleTimeout, srv.IdleTimeout)
	assert.Equal(t, rpc.DefaultMaxHeaderBytes, srv.MaxHeaderBytes)
	assert.Zero(t, srv.ReadTimeout)
	assert.Zero(t, srv.WriteTimeout)

	srv = mcp.NewHTTPServer(http.NotFoundHandler(), &mcp.HTTPServerOptions{ReadHeaderTimeout: time.Second, IdleTimeout: time.Minute, MaxHeaderBytes: 1 << 20})
	assert.Equal(t, time.Second, srv.ReadHeaderTimeout)
	assert.Equal(t, time.Minute, srv.IdleTimeout)
	assert.Equal(t, 1<<20, srv.MaxHeaderBytes)
	assert.Zero(t, srv.WriteTimeout)
}

func TestListenAndServeServesUntilTheContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	ln.Close()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	h := mcp.NewStreamableHTTPHandler(s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ListenAndServe(ctx, addr, h) }()

	var resp *http.Response
	require.Eventually(t, func() bool {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr, strings.NewReader(fmt.Sprintf(initMessage, mcp.Version20251125)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", acceptBoth)
		resp, err = http.DefaultClient.Do(req)
		return err == nil
	}, 2*time.Second, 10*time.Millisecond)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	io.Copy(io.Discard, resp.Body)

	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("ListenAndServe did not return")
	}
	assert.Equal(t, 0, mcp.SessionCountForTest(h))
}

func TestAHandlerCanCloseItsStreamForPolling(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{RetryInterval: 250 * time.Millisecond})
	closed := make(chan bool, 1)
	proceed := make(chan struct{})
	mcp.RegisterForTest(f.srv, "test/poll", func(ctx context.Context, _ *rpc.Request) (any, error) {
		conn := rpc.ConnFromContext(ctx)
		conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "before"})
		closed <- mcp.CloseSSEStream(ctx)
		// Asked again before the client resumes (afterwards it would end
		// the resumed stream, which is a new connection).
		again := mcp.CloseSSEStream(ctx)
		<-proceed
		conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "after"})
		return map[string]any{"again": again}, nil
	})
	session := f.initialize(mcp.Version20251125)
	resp := f.post(session, `{"jsonrpc":"2.0","id":"poll","method":"test/poll"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.True(t, <-closed)

	r := newSSE(t, resp)
	events := r.all(t)
	require.Len(t, events, 2, "the stream ends after the priming event and the notification")
	assert.Equal(t, "250", events[0].Retry)
	assert.Equal(t, "250", r.retry, "the delay is announced again before the stream closes")
	before := events[1]
	assert.Equal(t, "before", decode(t, before.Data).Params["data"])

	close(proceed)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, "Last-Event-ID": before.ID})
	require.Equal(t, http.StatusOK, get.StatusCode)
	events = newSSE(t, get).all(t)
	require.Len(t, events, 2)
	assert.Equal(t, "after", decode(t, events[0].Data).Params["data"])
	final := decode(t, events[1].Data)
	assert.Equal(t, `"poll"`, string(final.ID))
	assert.Equal(t, false, final.Result["again"], "a closed stream cannot be closed again")
}

func TestCloseSSEStreamDoesNothingOutsideAnSSERequest(t *testing.T) {
	assert.False(t, mcp.CloseSSEStream(context.Background()))

	f := newFixture(t, &mcp.HTTPOptions{JSONResponse: true})
	mcp.RegisterForTest(f.srv, "test/poll", func(ctx context.Context, _ *rpc.Request) (any, error) {
		return map[string]any{"closed": mcp.CloseSSEStream(ctx)}, nil
	})
	session := f.initialize(mcp.Version20251125)
	msgs := messages(t, f.post(session, `{"jsonrpc":"2.0","id":1,"method":"test/poll"}`))
	require.Len(t, msgs, 1)
	assert.Equal(t, false, msgs[0].Result["closed"])
}

func TestAToolCallsTheClientBackOnItsStream(t *testing.T) {
	f := newFixture(t, nil)
	require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: "ask", Description: "asks the model"},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Progress(ctx, 1, 2, "asking"); err != nil {
				return nil, err
			}
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 10})
			if err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("model: " + res.Model)}}, nil
		}))
	session := f.initialize(mcp.Version20251125)
	resp := f.post(session, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"ask","_meta":{"progressToken":"p"}}}`)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	r := newSSE(t, resp)
	var got []message
	for len(got) < 3 {
		ev, err := r.next()
		require.NoError(t, err)
		if ev.Data == "" {
			continue
		}
		m := decode(t, ev.Data)
		got = append(got, m)
		if m.Method == "sampling/createMessage" {
			answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m1"}}`, m.ID)
			require.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)
		}
	}
	assert.Equal(t, "notifications/progress", got[0].Method)
	assert.Equal(t, "p", got[0].Params["progressToken"])
	assert.Equal(t, "sampling/createMessage", got[1].Method)
	assert.Equal(t, "5", string(got[2].ID))
	assert.Equal(t, []any{map[string]any{"type": "text", "text": "model: m1"}}, got[2].Result["content"])
}

func TestANotificationToAnotherSessionIgnoresTheCallersRequestID(t *testing.T) {
	f := newFixture(t, nil)
	a := f.initialize(mcp.Version20251125)
	b := f.initialize(mcp.Version20251125)
	other := f.session(b)
	mcp.RegisterForTest(f.srv, "test/tell", func(ctx context.Context, _ *rpc.Request) (any, error) {
		return map[string]any{}, mcp.NotifyWithContextForTest(ctx, other, "notifications/told")
	})
	release := make(chan struct{})
	mcp.RegisterForTest(f.srv, "test/wait", func(ctx context.Context, _ *rpc.Request) (any, error) {
		<-release
		return map[string]any{}, nil
	})
	// b has a call in flight with the id a's call will use.
	waiting := f.post(b, `{"jsonrpc":"2.0","id":1,"method":"test/wait"}`)
	require.Equal(t, http.StatusOK, waiting.StatusCode)
	get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: b})
	require.Equal(t, http.StatusOK, get.StatusCode)

	require.Len(t, messages(t, f.post(a, `{"jsonrpc":"2.0","id":1,"method":"test/tell"}`)), 1)
	ev, err := newSSE(t, get).next()
	require.NoError(t, err)
	assert.Equal(t, "notifications/told", decode(t, ev.Data).Method, "on b's GET stream, not on b's call")
	close(release)
	msgs := messages(t, waiting)
	require.Len(t, msgs, 1)
	assert.Equal(t, "1", string(msgs[0].ID))
}

func TestAnErrorForTheWholeBodyIsAnsweredOnItsStream(t *testing.T) {
	f := newFixture(t, nil)
	session := f.initialize(mcp.Version20250326)
	t.Run("batch over the element limit", func(t *testing.T) {
		var b strings.Builder
		b.WriteByte('[')
		for i := range rpc.DefaultMaxBatch + 1 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i)
		}
		b.WriteByte(']')
		resp := f.post(session, b.String())
		require.Equal(t, http.StatusOK, resp.StatusCode)
		msgs := messages(t, resp)
		require.Len(t, msgs, 1)
		assert.Equal(t, "null", string(msgs[0].ID))
		assert.Equal(t, rpc.CodeInvalidRequest, msgs[0].Error.Code)
	})
	t.Run("nesting over the depth limit", func(t *testing.T) {
		// Refused before it reaches the session, as any body that is not
		// JSON under the policy (see limits_test.go).
		deep := strings.Repeat("[", rpc.DefaultMaxDepth+10) + strings.Repeat("]", rpc.DefaultMaxDepth+10)
		resp := f.post(session, `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":`+deep+`}}`)
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
		assert.Equal(t, rpc.CodeParseError, errorBody(t, resp).Code)
	})
	assert.Equal(t, http.StatusOK, f.post(session, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode, "the session goes on")
}

// The initialize stream's events are kept for a client that resumes it
// until the client acknowledges the answer with notifications/initialized;
// then the stream is not resumable from before its answer, and the server
// no longer holds them.
func TestTheInitializeStreamIsForgottenOnceAcknowledged(t *testing.T) {
	f := newFixture(t, nil)
	resp := f.post("", fmt.Sprintf(initMessage, mcp.Version20251125))
	require.Equal(t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get(mcp.HeaderSessionID)
	events := newSSE(t, resp).all(t)
	require.Len(t, events, 2, "the priming event and the answer")
	prime := events[0].ID
	hdr := map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session, "Last-Event-ID": prime}

	get := f.request(http.MethodGet, "", hdr)
	require.Equal(t, http.StatusOK, get.StatusCode)
	replayed := newSSE(t, get).all(t)
	require.Len(t, replayed, 1, "before initialized the answer is replayed")

	require.Equal(t, http.StatusAccepted, f.post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).StatusCode)
	assert.Equal(t, http.StatusBadRequest, f.request(http.MethodGet, "", hdr).StatusCode)
}

// The sessions of a handler share its timer: each ends at its own idle
// timeout.
func TestEveryIdleSessionOfAHandlerTimesOut(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{SessionTimeout: 50 * time.Millisecond})
	sessions := make([]string, 5)
	for i := range sessions {
		sessions[i] = f.initialize(mcp.Version20251125)
	}
	require.Eventually(t, func() bool { return mcp.SessionCountForTest(f.h) == 0 }, 20*time.Second, 10*time.Millisecond)
	for _, s := range sessions {
		assert.Equal(t, http.StatusNotFound, f.post(s, `{"jsonrpc":"2.0","id":2,"method":"ping"}`).StatusCode)
	}
}

func TestInJSONModeAPOSTLeftUnansweredGetsNotFoundWhenItsSessionEnds(t *testing.T) {
	f := newFixture(t, &mcp.HTTPOptions{JSONResponse: true})
	running, returned := make(chan struct{}), make(chan struct{})
	mcp.RegisterForTest(f.srv, "test/wait", func(ctx context.Context, _ *rpc.Request) (any, error) {
		defer close(returned)
		close(running)
		<-ctx.Done()
		return nil, ctx.Err()
	})
	session := f.initialize(mcp.Version20251125)
	done := make(chan *http.Response, 1)
	go func() { done <- f.post(session, `{"jsonrpc":"2.0","id":"w","method":"test/wait"}`) }()
	waitFor(t, "the call runs", closed(running))

	// The client gives the call up: it returns without an answer, and its
	// POST waits for one.
	cancel := f.post(session, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"w"}}`)
	require.Equal(t, http.StatusAccepted, cancel.StatusCode)
	waitFor(t, "the call returns", closed(returned))

	end := f.request(http.MethodDelete, "", map[string]string{mcp.HeaderSessionID: session})
	require.Equal(t, http.StatusNoContent, end.StatusCode)
	select {
	case resp := <-done:
		assert.Equal(t, http.StatusNotFound, resp.StatusCode)
		body, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		assert.Contains(t, string(body), "the session ended")
	case <-time.After(10 * time.Second):
		t.Fatal("the POST was not answered when its session ended")
	}
}

// closed is a condition for waitFor: ch is closed.
func closed(ch <-chan struct{}) func() bool {
	return func() bool {
		select {
		case <-ch:
			return true
		default:
			return false
		}
	}
}
