package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/internal/validate"
)

// httpProxyRun is an HTTP proxy served in-process.
type httpProxyRun struct {
	url    string
	proxy  *httpProxy
	report *syncbuf.Buffer // the text report
	stderr *syncbuf.Buffer
	stop   func() validate.Summary
}

// startHTTPProxy serves the HTTP proxy to upstream on a free loopback port,
// checking against set; cfg may change the configuration first.
func startHTTPProxy(t *testing.T, upstream, set string, cfg func(*proxyConfig)) *httpProxyRun {
	t.Helper()
	c := proxyConfig{schema: set, format: "text", maxMessage: validate.DefaultMaxMessage, listen: "127.0.0.1:0", upstream: upstream}
	if cfg != nil {
		cfg(&c)
	}
	s, err := validate.Open(c.schema)
	require.NoError(t, err)
	r := &httpProxyRun{report: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}}
	mon, err := openMonitor(c, s, r.report)
	require.NoError(t, err)
	u, err := url.Parse(upstream)
	require.NoError(t, err)
	r.proxy = newHTTPProxy(mon, u, r.stderr)
	ln, err := net.Listen("tcp", c.listen)
	require.NoError(t, err)
	r.url = "http://" + ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serveProxyOn(ctx, ln, r.proxy, r.stderr) }()
	var sum *validate.Summary
	r.stop = func() validate.Summary {
		if sum != nil {
			return *sum
		}
		cancel()
		select {
		case err := <-served:
			assert.NoError(t, err)
		case <-time.After(10 * time.Second):
			t.Error("the proxy did not shut down")
		}
		s, err := mon.close()
		assert.NoError(t, err)
		sum = &s
		return s
	}
	t.Cleanup(func() { r.stop() })
	return r
}

// plainClient sends requests with the headers the tests set and no more
// (no Accept-Encoding of its own).
var plainClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// send makes one request with a 20-second bound; headers alternate names
// and values.
func send(t *testing.T, method, url, body string, headers ...string) *http.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	require.NoError(t, err)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := plainClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readAll reads a response body to its end.
func readAll(t *testing.T, resp *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return b
}

// seen is what a fake upstream received.
type seen struct {
	method, path, query string
	header              http.Header
	body                []byte
}

// recordingUpstream is a fake upstream that records each request and
// answers with respond.
func recordingUpstream(t *testing.T, respond func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, chan seen) {
	t.Helper()
	got := make(chan seen, 16)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), b}
		respond(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		t.Fatal("nothing arrived")
		var zero T
		return zero
	}
}

func TestProxyHTTPForwardsRequestsAndJSONResponsesUnchanged(t *testing.T) {
	const reqBody = "{ \"jsonrpc\" : \"2.0\", \"id\" : 7, \"method\" : \"tools/list\" }\n"
	const respBody = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"tools\":[]}}  \n"
	upstream, got := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Upstream", "yes")
		w.WriteHeader(http.StatusCreated)
		io.WriteString(w, respBody)
	})
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)

	resp := send(t, http.MethodPost, p.url+"/mcp?x=1&y=%zz;z", reqBody,
		"Content-Type", "application/json", "Mcp-Session-Id", "s1", "X-Custom", "kept",
		"X-Forwarded-For", "10.0.0.1", "Accept", "application/json, text/event-stream")
	body := readAll(t, resp)

	up := receive(t, got)
	assert.Equal(t, http.MethodPost, up.method)
	assert.Equal(t, "/mcp", up.path)
	assert.Equal(t, "x=1&y=%zz;z", up.query, "the query as sent, unparsable parts included")
	assert.Equal(t, reqBody, string(up.body))
	assert.Equal(t, "kept", up.header.Get("X-Custom"))
	assert.Equal(t, "s1", up.header.Get("Mcp-Session-Id"))
	assert.Equal(t, []string{"10.0.0.1"}, up.header.Values("X-Forwarded-For"), "forwarding headers are neither dropped nor added to")
	assert.Empty(t, up.header.Values("X-Forwarded-Host"))
	assert.Empty(t, up.header.Values("Accept-Encoding"), "the proxy asks for no encoding the client did not")

	assert.Equal(t, http.StatusCreated, resp.StatusCode)
	assert.Equal(t, "yes", resp.Header.Get("X-Upstream"))
	assert.Equal(t, respBody, string(body))

	sum := p.stop()
	assert.Equal(t, validate.Summary{Files: 2, Messages: 2, Findings: 0}, sum, p.report.String())
}

func TestProxyHTTPSendsEachRequestToTheUpstreamPath(t *testing.T) {
	tests := []struct {
		name, upstreamPath, request, wantPath, wantQuery string
	}{
		{"an upstream without a path keeps the request's", "", "/mcp", "/mcp", ""},
		{"a request for / goes to the upstream URL", "/mcp", "/", "/mcp", ""},
		{"other paths go below the upstream path", "/mcp", "/.well-known/oauth-protected-resource", "/mcp/.well-known/oauth-protected-resource", ""},
		{"both queries are kept", "/mcp?k=v", "/?a=b", "/mcp", "k=v&a=b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			upstream, got := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
			p := startHTTPProxy(t, upstream.URL+tt.upstreamPath, "jsonrpc", nil)
			send(t, http.MethodGet, p.url+tt.request, "")
			up := receive(t, got)
			assert.Equal(t, tt.wantPath, up.path)
			assert.Equal(t, tt.wantQuery, up.query)
		})
	}
}

func TestProxyHTTPStreamsSSEEventsAsTheyComeAndChecksThemWhole(t *testing.T) {
	// Each piece is flushed alone and the next one waits until the client
	// has read it through the proxy: events reach the client at once, and
	// events cut anywhere are checked whole.
	pieces := []string{
		": keep-alive\n\n",
		"id: 1\nda",
		"ta: {\"jsonrpc\":\"2.0\",\"me",
		"thod\":\"notifications/message\"}\r",
		"\n\r\nid: 2\ndata: not JSON\n",
		"\nevent: endpoint\ndata: /not/a/message\n\n",
		"data: {\"jsonrpc\":\"2.0\",\n",
		"data: \"method\":\"split/over/lines\"}\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"unfinished\"",
	}
	next := make(chan struct{})
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, piece := range pieces {
			io.WriteString(w, piece)
			w.(http.Flusher).Flush()
			select {
			case <-next:
			case <-r.Context().Done():
				return
			}
		}
	})
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)

	resp := send(t, http.MethodGet, p.url+"/mcp", "", "Accept", "text/event-stream")
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	for i, piece := range pieces {
		b := make([]byte, len(piece))
		read := make(chan error, 1)
		go func() { _, err := io.ReadFull(resp.Body, b); read <- err }()
		require.NoError(t, receive(t, read), "piece %d", i)
		assert.Equal(t, piece, string(b), "piece %d", i)
		next <- struct{}{}
	}
	rest, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Empty(t, rest)

	sum := p.stop()
	assert.Equal(t, validate.Summary{Files: 2, Messages: 3, Findings: 1}, sum, p.report.String())
	assert.Contains(t, p.report.String(), "server: message 2 (invalid from the server): -32700")
}

func TestProxyHTTPReportsAMessageLongerThanTheBoundAndForwardsItWhole(t *testing.T) {
	big := fmt.Sprintf(`{"jsonrpc":"2.0","method":"big","params":{"s":%q}}`, strings.Repeat("x", 300))
	upstream, got := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", func(c *proxyConfig) { c.maxMessage = 100 })
	resp := send(t, http.MethodPost, p.url+"/mcp", big, "Content-Type", "application/json")
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Equal(t, big, string(receive(t, got).body))
	p.stop()
	assert.Contains(t, p.report.String(), "client: message 1 (invalid from the client): -32700 parse error: a message longer than 100 bytes")
}

func TestProxyHTTPChecksOnlyJSONRPCBodies(t *testing.T) {
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gzip":
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, "\x1f\x8b not really gzip")
		case "/metadata":
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"resource":"http://example.test"}`)
		default:
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, "plain")
		}
	})
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)
	tests := []struct {
		name    string
		method  string
		path    string
		body    string
		headers []string
	}{
		{"a form POST and its plain answer", http.MethodPost, "/token", "grant_type=x", []string{"Content-Type", "application/x-www-form-urlencoded"}},
		{"a JSON answer to a GET", http.MethodGet, "/metadata", "", nil},
		{"an encoded request and answer", http.MethodPost, "/gzip", "\x1f\x8b", []string{"Content-Type", "application/json", "Content-Encoding", "gzip", "Accept-Encoding", "gzip"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			readAll(t, send(t, tt.method, p.url+tt.path, tt.body, tt.headers...))
		})
	}
	assert.Equal(t, validate.Summary{Files: 2}, p.stop(), p.report.String())
	assert.Equal(t, 1, strings.Count(p.stderr.String(), "forwarded unchecked"), "said once: %s", p.stderr)
}

func TestProxyHTTPContinuesTheInitializeConversationInItsSession(t *testing.T) {
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodPost:
			w.Header().Set("Mcp-Session-Id", "S")
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
		case http.MethodGet:
			// A second answer to the initialize request, on the
			// session's stream.
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		}
	})
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)
	readAll(t, send(t, http.MethodPost, p.url+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize"}`, "Content-Type", "application/json"))
	readAll(t, send(t, http.MethodGet, p.url+"/mcp", "", "Mcp-Session-Id", "S"))
	p.stop()
	assert.Contains(t, p.report.String(), "a second response to id 1", "the session's checker is the one that saw initialize")
}

func TestProxyHTTPFollowsTheOldSSETransportsEndpoint(t *testing.T) {
	// HTTP+SSE (2024-11-05): the client GETs a stream whose first event
	// names the URL to POST to; the answers come on the stream.
	posted := make(chan struct{})
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet:
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "event: endpoint\ndata: /messages?sessionId=abc\n\n")
			w.(http.Flusher).Flush()
			select {
			case <-posted:
			case <-r.Context().Done():
				return
			}
			io.WriteString(w, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		case http.MethodPost:
			w.WriteHeader(http.StatusAccepted)
			close(posted)
		}
	})
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)
	stream := send(t, http.MethodGet, p.url+"/sse", "", "Accept", "text/event-stream")
	first := make([]byte, len("event: endpoint\ndata: /messages?sessionId=abc\n\n"))
	read := make(chan error, 1)
	go func() { _, err := io.ReadFull(stream.Body, first); read <- err }()
	require.NoError(t, receive(t, read))
	resp := send(t, http.MethodPost, p.url+"/messages?sessionId=abc", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "Content-Type", "application/json")
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	assert.Contains(t, string(readAll(t, stream)), `"id":1`)
	assert.Equal(t, validate.Summary{Files: 2, Messages: 2}, p.stop(), "the answer on the stream matches the request posted to its endpoint: %s", p.report)
}

func TestProxyHTTPForgetsSessionsThatEndOrAreLeastRecentlyUsed(t *testing.T) {
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
	p := startHTTPProxy(t, upstream.URL, "jsonrpc", nil)
	p.proxy.limit = 2
	for _, s := range []string{"a", "b", "a", "c"} {
		readAll(t, send(t, http.MethodPost, p.url+"/mcp", `{"jsonrpc":"2.0","method":"n"}`, "Content-Type", "application/json", "Mcp-Session-Id", s))
	}
	p.proxy.mu.Lock()
	_, hasA := p.proxy.sessions["a"]
	_, hasB := p.proxy.sessions["b"]
	p.proxy.mu.Unlock()
	assert.True(t, hasA, "a was used after b")
	assert.False(t, hasB, "b was the least recently used")
	assert.Equal(t, 2, p.proxy.conversations())

	readAll(t, send(t, http.MethodDelete, p.url+"/mcp", "", "Mcp-Session-Id", "a"))
	assert.Equal(t, 1, p.proxy.conversations(), "a DELETE that succeeds ends the session")
}

// sseReader reads the messages of a response body, SSE or JSON, one at a
// time.
type sseReader struct {
	t    *testing.T
	msgs chan map[string]any
}

func readMessages(t *testing.T, resp *http.Response) *sseReader {
	r := &sseReader{t: t, msgs: make(chan map[string]any, 64)}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	go func() {
		defer close(r.msgs)
		if !sse {
			var m map[string]any
			if json.NewDecoder(resp.Body).Decode(&m) == nil {
				r.msgs <- m
			}
			return
		}
		sc := bufio.NewScanner(resp.Body)
		var data []string
		for sc.Scan() {
			line := sc.Text()
			if line == "" {
				var m map[string]any
				if len(data) > 0 && json.Unmarshal([]byte(strings.Join(data, "\n")), &m) == nil {
					r.msgs <- m
				}
				data = nil
				continue
			}
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				data = append(data, strings.TrimPrefix(d, " "))
			}
		}
	}()
	return r
}

// answer returns the response to id, skipping what comes before it; kinds
// collects the methods of those messages.
func (r *sseReader) answer(id any, before *[]string) map[string]any {
	r.t.Helper()
	for {
		select {
		case m, ok := <-r.msgs:
			require.True(r.t, ok, "the stream ended without an answer to %v", id)
			if m["id"] == id && m["method"] == nil {
				return m
			}
			if before != nil {
				*before = append(*before, fmt.Sprint(m["method"]))
			}
		case <-time.After(20 * time.Second):
			r.t.Fatalf("no answer to %v", id)
			return nil
		}
	}
}

// everythingHTTP serves examples/everything over Streamable HTTP on a free
// port and returns its base URL.
func everythingHTTP(t *testing.T) string {
	t.Helper()
	bin := everythingBinary(t)
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	proc, err := harness.Start(ctx, bin, append([]string{"-http", addr}, quietEverything...)...)
	require.NoError(t, err)
	t.Cleanup(proc.Stop)
	base := "http://" + addr
	waitCtx, waitCancel := context.WithTimeout(ctx, 20*time.Second)
	defer waitCancel()
	require.NoError(t, harness.WaitHTTP(waitCtx, proc, base+"/mcp"))
	return base
}

func TestProxyHTTPSessionWithEverything(t *testing.T) {
	base := everythingHTTP(t)
	transcript := filepath.Join(t.TempDir(), "session.jsonl")
	p := startHTTPProxy(t, base, "mcp/2025-11-25", func(c *proxyConfig) { c.transcript = transcript })
	endpoint := p.url + "/mcp"
	accept := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}

	resp := send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"proxy-test","version":"1"}}}`, accept...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	session := resp.Header.Get("Mcp-Session-Id")
	require.NotEmpty(t, session)
	require.Contains(t, readMessages(t, resp).answer(float64(1), nil), "result")
	inSession := append([]string{"Mcp-Session-Id", session, "Mcp-Protocol-Version", "2025-11-25"}, accept...)

	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, inSession...)
	readAll(t, resp)
	require.Equal(t, http.StatusAccepted, resp.StatusCode)

	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":10,"method":"logging/setLevel","params":{"level":"info"}}`, inSession...)
	require.Contains(t, readMessages(t, resp).answer(float64(10), nil), "result")

	// A tool that logs while it runs: its SSE stream carries notifications
	// before the answer.
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_tool_with_logging","arguments":{}}}`, inSession...)
	require.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))
	var before []string
	require.Contains(t, readMessages(t, resp).answer(float64(2), &before), "result")
	assert.Contains(t, before, "notifications/message")

	// A tool that asks the client to sample: the server's request comes on
	// the call's stream, the client answers in a POST of its own.
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"test_sampling","arguments":{"prompt":"hi"}}}`, inSession...)
	stream := readMessages(t, resp)
	var ask map[string]any
	select {
	case ask = <-stream.msgs:
	case <-time.After(20 * time.Second):
		t.Fatal("no sampling request")
	}
	require.Equal(t, "sampling/createMessage", ask["method"])
	askID, err := json.Marshal(ask["id"])
	require.NoError(t, err)
	answered := send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":`+string(askID)+`,"result":{"role":"assistant","content":{"type":"text","text":"hello"},"model":"test"}}`, inSession...)
	readAll(t, answered)
	require.Equal(t, http.StatusAccepted, answered.StatusCode)
	require.Contains(t, stream.answer(float64(3), nil), "result")
	require.Equal(t, 0, p.proxy.mon.findings(), p.report.String())

	// A bad call: reported, and the server's answer passes.
	resp = send(t, http.MethodPost, endpoint, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":5}}`, inSession...)
	bad := readMessages(t, resp).answer(float64(4), nil)
	require.Contains(t, bad, "error")
	assert.Equal(t, float64(-32602), bad["error"].(map[string]any)["code"])
	assert.Equal(t, 1, p.proxy.mon.findings(), p.report.String())
	assert.Contains(t, p.report.String(), "client: message 7 (request tools/call from the client): -32602 invalid params at /params/name")

	assert.Equal(t, 1, p.proxy.conversations())
	readAll(t, send(t, http.MethodDelete, endpoint, "", inSession...))
	assert.Equal(t, 0, p.proxy.conversations(), "the DELETE ended the session")

	sum := p.stop()
	assert.Equal(t, 1, sum.Findings)
	messages, findings := recheck(t, "mcp/2025-11-25", transcript)
	assert.Equal(t, sum.Messages, messages)
	require.Len(t, findings, 1, "the transcript re-checks to the same finding")
	assert.Equal(t, -32602, findings[0].Code)
	tr, err := os.ReadFile(transcript)
	require.NoError(t, err)
	assert.Equal(t, sum.Messages, strings.Count(string(tr), `"session":"exchange-1"`), "the session began in an exchange outside any session: every record, the initialize request's included, keeps that exchange's name")
	assert.NotContains(t, string(tr), session, "records name conversations, not session ids")
}

func TestProxyHTTPStatelessCallsWithEverything(t *testing.T) {
	base := everythingHTTP(t)
	p := startHTTPProxy(t, base, "mcp/2026-07-28", nil)
	headers := []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream",
		"Mcp-Protocol-Version", "2026-07-28", "Mcp-Method", "tools/call", "Mcp-Name", "test_simple_text"}

	resp := send(t, http.MethodPost, p.url+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},`+meta2026+`}}`, headers...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Contains(t, readMessages(t, resp).answer(float64(1), nil), "result")
	require.Equal(t, 0, p.proxy.mon.findings(), p.report.String())

	// Without _meta the call is malformed; the server's JSON error answer is
	// itself fine.
	resp = send(t, http.MethodPost, p.url+"/mcp", `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"test_simple_text","arguments":{}}}`, headers...)
	answer := readMessages(t, resp).answer(float64(2), nil)
	require.Contains(t, answer, "error", "status %d", resp.StatusCode)
	sum := p.stop()
	assert.Equal(t, 0, p.proxy.conversations(), "no sessions in the stateless era")
	assert.Equal(t, 1, sum.Findings, p.report.String())
	assert.Contains(t, p.report.String(), "client: message 2 (request tools/call from the client): -32602")
}

func TestProxyHTTPRunsUntilSignalled(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	upstream, _ := recordingUpstream(t, func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) })
	tests := []struct {
		name   string
		body   string
		code   int
		report string
	}{
		{"no findings", `{"jsonrpc":"2.0","method":"n"}`, 0, "1 message in 2 inputs checked, 0 findings"},
		{"findings with --fail-on-findings", `{"jsonrpc":"1.0","method":"n"}`, exitFail, "1 message in 2 inputs checked, 1 finding"},
	}
	addrRE := regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+)`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := startProxy(t, "--schema", "jsonrpc", "--listen", "127.0.0.1:0", "--upstream", upstream.URL, "--fail-on-findings")
			var base string
			for range 200 {
				if m := addrRE.FindStringSubmatch(p.stderr.String()); m != nil {
					base = m[1]
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			require.NotEmpty(t, base, "no address on stderr: %s", p.stderr)
			resp := send(t, http.MethodPost, base+"/mcp", tt.body, "Content-Type", "application/json")
			assert.Equal(t, http.StatusAccepted, resp.StatusCode)
			require.NoError(t, p.cmd.Process.Signal(syscall.SIGINT))
			assert.Equal(t, tt.code, p.wait())
			assert.Contains(t, p.stderr.String(), tt.report)
		})
	}
}

func TestProxyHTTPAnswers502WhenTheUpstreamIsDown(t *testing.T) {
	addr, err := harness.FreeAddr()
	require.NoError(t, err)
	p := startHTTPProxy(t, "http://"+addr, "jsonrpc", nil)
	resp := send(t, http.MethodPost, p.url+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"m"}`, "Content-Type", "application/json")
	assert.Equal(t, http.StatusBadGateway, resp.StatusCode)
	assert.Equal(t, validate.Summary{Files: 2, Messages: 1}, p.stop(), "the request was checked, no answer came")
	assert.Contains(t, p.stderr.String(), "rpcgen proxy: ")
}

func TestProxyHTTPFailsWhenItCannotListen(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	code, _, stderr := rpcgen("proxy", "--listen", ln.Addr().String(), "--upstream", "http://127.0.0.1:1")
	assert.Equal(t, exitFail, code)
	assert.Contains(t, stderr, "rpcgen proxy: listen tcp")
}
