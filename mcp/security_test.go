package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The rule these tests hold the server to: what a handler's failure puts on
// the wire is chosen, never leaked. A panic in any handler, and an error
// of a resource, prompt or completion handler that is not an *rpc.Error,
// reach the client as -32603 "internal error" and nothing else; the panic
// value, its stack and the error's text go to the server's log only. An
// *rpc.Error anywhere in an error chain is sent as it is, without the text
// that wraps it. A result that cannot be encoded is -32603 too. A tool
// handler's error is the exception the protocol makes: it becomes an
// isError result whose text is the error's own text, exactly, because it is
// the tool's answer to the model (mcp.ToolHandler says so); a tool author
// keeps secrets out of it, and a panic never gets there.

// secSecret is in every panic value and error of the handlers below; it
// must never reach the wire.
const secSecret = "s3cr3t-Z9Q"

// secPath is a file path the failing handlers mention.
const secPath = "/srv/private/" + secSecret + ".db"

// secLeaks lists what must not appear in anything a client receives.
var secLeaks = []string{secSecret, "/srv/private", ".go:", "goroutine ", "runtime/debug", "panic"}

// secLog keeps every log record as text, for the tests that check what
// reached the log instead of the wire.
type secLog struct{ syncbuf.Buffer }

func (l *secLog) logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// secServer is a server whose handlers fail in every way the rule covers.
func secServer(t *testing.T, log *slog.Logger, opts *mcp.ServerOptions) *mcp.Server {
	t.Helper()
	if opts == nil {
		opts = &mcp.ServerOptions{}
	}
	opts.Logger = log
	s := mcp.NewServer(&mcp.Implementation{Name: "sec", Version: "1"}, opts)
	tool := func(name string, h mcp.ToolHandler) {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: name, Execution: &mcp.ToolExecution{TaskSupport: "optional"}}, h))
	}
	tool("panics", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("cannot open " + secPath)
	})
	tool("panics-error", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic(fmt.Errorf("cannot open %s: %w", secPath, os.ErrPermission))
	})
	tool("fails", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("the lookup failed")
	})
	tool("wraps-rpc", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("dialing %s: %w", secPath, rpc.NewError(-32000, "backend unavailable"))
	})
	tool("unencodable", func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("x")}, Meta: mcp.Meta{"k": json.RawMessage(`{"` + secSecret)}}, nil
	})
	resource := func(uri string, h mcp.ResourceHandler) {
		require.NoError(t, s.AddResource(&mcp.Resource{URI: uri, Name: uri}, h))
	}
	resource("sec://panics", func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		panic("reading " + secPath)
	})
	resource("sec://fails", func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return nil, fmt.Errorf("reading %s: %w", secPath, os.ErrNotExist)
	})
	prompt := func(name string, h mcp.PromptHandler) {
		require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: name}, h))
	}
	prompt("panics", func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		panic("rendering " + secPath)
	})
	prompt("fails", func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return nil, fmt.Errorf("template %s: %w", secPath, os.ErrInvalid)
	})
	s.SetCompletionHandler(func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		panic("completing from " + secPath)
	})
	return s
}

// A secCase is a request and the error it deserves (0: a result, which
// check inspects).
type secCase struct {
	name    string
	method  string
	params  string // a JSON object's members, without braces
	target  string // the Mcp-Name header of a stateless request
	code    int
	message string
	check   func(t *testing.T, result json.RawMessage)
	logged  string // what the log must hold instead
}

var secCases = []secCase{
	{name: "panicking tool", method: "tools/call", params: `"name":"panics","arguments":{}`, target: "panics", code: -32603, message: "internal error", logged: secSecret},
	{name: "tool panicking with an error", method: "tools/call", params: `"name":"panics-error","arguments":{}`, target: "panics-error", code: -32603, message: "internal error", logged: secSecret},
	{name: "tool error wrapping an rpc.Error", method: "tools/call", params: `"name":"wraps-rpc","arguments":{}`, target: "wraps-rpc", code: -32000, message: "backend unavailable"},
	{name: "tool result that cannot be encoded", method: "tools/call", params: `"name":"unencodable","arguments":{}`, target: "unencodable", code: -32603, message: "internal error"},
	{name: "panicking resource", method: "resources/read", params: `"uri":"sec://panics"`, target: "sec://panics", code: -32603, message: "internal error", logged: secSecret},
	{name: "resource error with a path", method: "resources/read", params: `"uri":"sec://fails"`, target: "sec://fails", code: -32603, message: "internal error", logged: secSecret},
	{name: "panicking prompt", method: "prompts/get", params: `"name":"panics"`, target: "panics", code: -32603, message: "internal error", logged: secSecret},
	{name: "prompt error with a path", method: "prompts/get", params: `"name":"fails"`, target: "fails", code: -32603, message: "internal error", logged: secSecret},
	{name: "panicking completion", method: "completion/complete", params: `"ref":{"type":"ref/prompt","name":"fails"},"argument":{"name":"a","value":"b"}`, code: -32603, message: "internal error", logged: secSecret},
	{name: "tool error", method: "tools/call", params: `"name":"fails","arguments":{}`, target: "fails", check: func(t *testing.T, res json.RawMessage) {
		var r struct {
			Content []struct {
				Type, Text string
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		require.NoError(t, json.Unmarshal(res, &r))
		assert.True(t, r.IsError)
		require.Len(t, r.Content, 1)
		assert.Equal(t, "the lookup failed", r.Content[0].Text, "exactly the error's text, nothing added")
	}},
}

// A secWire sends one request over some transport and era and returns the
// bytes the client received for it (the whole body on HTTP).
type secWire func(t *testing.T, c secCase) []byte

const secInit = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"sec","version":"1"}}}`

const secMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

// secStdio serves s over an in-memory stdio pipe; stateless requests carry
// the 2026-07-28 _meta, the others follow an initialize.
func secStdio(t *testing.T, s *mcp.Server, stateless bool) secWire {
	client, server := rpc.NewPipe()
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background(), server) }()
	t.Cleanup(func() {
		client.Close()
		<-done
	})
	read := func() []byte {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for {
			msg, err := client.Read(ctx)
			require.NoError(t, err)
			if !bytes.Contains(msg, []byte(`"method"`)) { // skip notifications the server sends
				return msg
			}
		}
	}
	ctx := context.Background()
	if !stateless {
		require.NoError(t, client.Write(ctx, []byte(secInit)))
		require.Contains(t, string(read()), `"id":"init"`)
		require.NoError(t, client.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)))
	}
	n := 0
	return func(t *testing.T, c secCase) []byte {
		n++
		params := c.params
		if stateless {
			params += "," + secMeta
		}
		require.NoError(t, client.Write(ctx, fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":{%s}}`, n, c.method, params)))
		return read()
	}
}

// secHTTP serves s over Streamable HTTP with default options on a loopback
// test server; the handshake era answers as SSE, which the wire keeps whole.
func secHTTP(t *testing.T, s *mcp.Server, stateless bool) secWire {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil))
	t.Cleanup(srv.Close)
	post := func(body string, hdr ...string) []byte {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return append([]byte(resp.Header.Get(mcp.HeaderSessionID)+"\n"), b...)
	}
	var session []string
	if !stateless {
		first := post(secInit)
		sid, _, _ := bytes.Cut(first, []byte("\n"))
		require.NotEmpty(t, sid)
		session = []string{mcp.HeaderSessionID, string(sid), mcp.HeaderProtocolVersion, "2025-11-25"}
		post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, session...)
	}
	return func(t *testing.T, c secCase) []byte {
		if !stateless {
			return post(fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":{%s}}`, c.method, c.params), session...)
		}
		hdr := []string{mcp.HeaderProtocolVersion, "2026-07-28", mcp.HeaderMethod, c.method}
		if c.target != "" {
			hdr = append(hdr, "Mcp-Name", c.target)
		}
		return post(fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":{%s,%s}}`, c.method, c.params, secMeta), hdr...)
	}
}

// secMessage finds the JSON-RPC response in what a wire returned.
func secMessage(t *testing.T, raw []byte) (result json.RawMessage, rerr *rpc.Error) {
	t.Helper()
	var found []byte
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimPrefix(sc.Text(), "data: ")
		if strings.HasPrefix(line, "{") && strings.Contains(line, `"id"`) {
			found = []byte(line)
		}
	}
	require.NotNil(t, found, "no response in %q", raw)
	var m struct {
		Result json.RawMessage `json:"result"`
		Error  *rpc.Error      `json:"error"`
	}
	require.NoError(t, json.Unmarshal(found, &m), "%s", found)
	return m.Result, m.Error
}

func TestHandlerFailuresLeakNothingOnAnyWire(t *testing.T) {
	wires := map[string]func(*testing.T, *mcp.Server) secWire{
		"stdio 2025-11-25": func(t *testing.T, s *mcp.Server) secWire { return secStdio(t, s, false) },
		"stdio 2026-07-28": func(t *testing.T, s *mcp.Server) secWire { return secStdio(t, s, true) },
		"HTTP 2025-11-25":  func(t *testing.T, s *mcp.Server) secWire { return secHTTP(t, s, false) },
		"HTTP 2026-07-28":  func(t *testing.T, s *mcp.Server) secWire { return secHTTP(t, s, true) },
	}
	for wname, newWire := range wires {
		t.Run(wname, func(t *testing.T) {
			for _, c := range secCases {
				t.Run(c.name, func(t *testing.T) {
					var log secLog
					wire := newWire(t, secServer(t, log.logger(), nil))
					raw := wire(t, c)
					for _, leak := range secLeaks {
						assert.NotContains(t, string(raw), leak, "the client received internals")
					}
					res, rerr := secMessage(t, raw)
					if c.code == 0 {
						require.Nil(t, rerr)
						c.check(t, res)
						return
					}
					require.NotNil(t, rerr, "got a result %s", res)
					assert.Equal(t, c.code, rerr.Code)
					assert.Equal(t, c.message, rerr.Message)
					assert.Empty(t, rerr.Data, "no data with the error")
					if c.logged != "" {
						assert.Contains(t, log.String(), c.logged, "the details went to the log")
					}
				})
			}
		})
	}
}

func TestAPanickingTaskFailsTheTaskNotTheServer(t *testing.T) {
	var log secLog
	s := secServer(t, log.logger(), &mcp.ServerOptions{Tasks: true})
	client, server := rpc.NewPipe()
	go s.Serve(context.Background(), server)
	t.Cleanup(func() { client.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn := rpc.NewConn(client)
	var init json.RawMessage
	require.NoError(t, conn.Call(ctx, "initialize", json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tasks":{}},"clientInfo":{"name":"sec","version":"1"}}`), &init))
	require.NoError(t, conn.Notify(ctx, "notifications/initialized", nil))
	require.Contains(t, string(init), `"tasks"`, "the server offers tasks")

	var created mcp.CreateTaskResult
	require.NoError(t, conn.Call(ctx, "tools/call", json.RawMessage(`{"name":"panics","arguments":{},"task":{}}`), &created))
	id := created.Task.TaskID
	require.NotEmpty(t, id)
	var got json.RawMessage
	err := conn.Call(ctx, "tasks/result", map[string]any{"taskId": id}, &got)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr, "the task's result is its failure")
	assert.Equal(t, -32603, rerr.Code)
	assert.Equal(t, "internal error", rerr.Message)
	require.NoError(t, conn.Call(ctx, "tasks/get", map[string]any{"taskId": id}, &got))
	assert.Contains(t, string(got), `"status":"failed"`)
	for _, leak := range secLeaks {
		assert.NotContains(t, string(got), leak)
	}
	assert.Contains(t, log.String(), secSecret, "the panic went to the log")
	require.NoError(t, conn.Call(ctx, "ping", nil, &got), "the server still answers")
}

func TestHostAndOriginAreCheckedByDefault(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "sec", Version: "1"}, nil)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil)) // zero options; 127.0.0.1
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	require.NoError(t, err)
	tests := []struct {
		name, host, origin string
		status             int
	}{
		{"loopback address", "127.0.0.1:" + port, "", http.StatusOK},
		{"localhost", "localhost:" + port, "", http.StatusOK},
		{"IPv6 loopback", "[::1]:" + port, "", http.StatusOK},
		{"loopback origin", "127.0.0.1:" + port, "http://localhost:5173", http.StatusOK},
		{"same origin", "localhost:" + port, "http://localhost:" + port, http.StatusOK},
		{"rebinding host", "attacker.example:" + port, "", http.StatusForbidden},
		{"rebinding host without a port", "attacker.example", "", http.StatusForbidden},
		{"private address as host", "192.168.1.10:" + port, "", http.StatusForbidden},
		{"foreign origin", "127.0.0.1:" + port, "http://attacker.example", http.StatusForbidden},
		{"foreign origin on a loopback port", "localhost:" + port, "https://attacker.example:" + port, http.StatusForbidden},
		{"null origin", "127.0.0.1:" + port, "null", http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(secInit))
			require.NoError(t, err)
			req.Host = tt.host
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tt.origin != "" {
				req.Header.Set("Origin", tt.origin)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			assert.Equal(t, tt.status, resp.StatusCode)
			if tt.status == http.StatusForbidden {
				assert.Empty(t, resp.Header.Get(mcp.HeaderSessionID), "no session for a refused request")
			}
		})
	}
}

func TestListenAndServeBindsLoopbackAndChecksHosts(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()

	s := mcp.NewServer(&mcp.Implementation{Name: "sec", Version: "1"}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mcp.ListenAndServe(ctx, ":"+port, mcp.NewStreamableHTTPHandler(s, nil)) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	url := "http://127.0.0.1:" + port + "/"
	post := func(host, origin string) int {
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(secInit))
		require.NoError(t, err)
		req.Host = host
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	require.Eventually(t, func() bool { return post("127.0.0.1:"+port, "") == http.StatusOK }, 5*time.Second, 20*time.Millisecond, "the server starts")

	// Bound to 127.0.0.1 only, the port is still free on another loopback
	// address; a wildcard bind would hold it there too.
	other, err := net.Listen("tcp", "127.0.0.2:"+port)
	require.NoError(t, err, "\":port\" must bind 127.0.0.1, not every address")
	other.Close()

	assert.Equal(t, http.StatusForbidden, post("attacker.example:"+port, ""), "DNS rebinding")
	assert.Equal(t, http.StatusForbidden, post("127.0.0.1:"+port, "http://attacker.example"), "foreign origin")
	assert.Equal(t, http.StatusOK, post("localhost:"+port, "http://localhost:"+port), "loopback")
}

// secStateServer is a server whose "confirm" tool asks for a confirmation
// and carries state to the retry, and "other" does the same; with key
// (nil: random) and ttl (0: the default).
func secStateServer(t *testing.T, key []byte, ttl time.Duration) *rpc.Conn {
	s := mcp.NewServer(&mcp.Implementation{Name: "sec", Version: "1"}, &mcp.ServerOptions{StateKey: key, StateTTL: ttl})
	for _, name := range []string{"confirm", "other"} {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: name}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if st := req.State(); st != nil {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("resumed with " + string(st))}}, nil
			}
			return nil, &mcp.InputRequired{
				Requests: map[string]mcp.InputRequest{"ok": mcp.FormInput("Sure?", json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))},
				State:    []byte("pending-" + name),
			}
		}))
	}
	client, server := rpc.NewPipe()
	go s.Serve(context.Background(), server)
	t.Cleanup(func() { client.Close() })
	return rpc.NewConn(client)
}

const secStateMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`

// secRound calls a tool statelessly with arguments and, when token is not
// empty, the answer and the requestState of an earlier round.
func secRound(t *testing.T, c *rpc.Conn, tool, args, token string) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	params := fmt.Sprintf(`{"name":%q,"arguments":%s,%s`, tool, args, secStateMeta)
	if token != "" {
		params += fmt.Sprintf(`,"inputResponses":{"ok":{"action":"accept","content":{"ok":true}}},"requestState":%q`, token)
	}
	var res json.RawMessage
	err := c.Call(ctx, "tools/call", json.RawMessage(params+"}"), &res)
	return res, err
}

// secFirstRound makes the first round and returns its sealed state.
func secFirstRound(t *testing.T, c *rpc.Conn, tool, args string) string {
	res, err := secRound(t, c, tool, args, "")
	require.NoError(t, err)
	var r struct {
		ResultType   string `json:"resultType"`
		RequestState string `json:"requestState"`
	}
	require.NoError(t, json.Unmarshal(res, &r))
	require.Equal(t, "input_required", r.ResultType)
	require.NotEmpty(t, r.RequestState)
	assert.NotContains(t, r.RequestState, "pending", "the state travels sealed, not readable")
	return r.RequestState
}

// secRefused asserts the generic -32602 of a state that does not open,
// which says nothing of why.
func secRefused(t *testing.T, err error) {
	t.Helper()
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Equal(t, "invalid params: requestState was not issued for this request or has expired", rerr.Message)
}

func TestSealedRequestStateOnTheWire(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	t.Run("the retry of the same request resumes", func(t *testing.T) {
		c := secStateServer(t, key, 0)
		token := secFirstRound(t, c, "confirm", `{"a":1}`)
		res, err := secRound(t, c, "confirm", `{"a":1}`, token)
		require.NoError(t, err)
		assert.Contains(t, string(res), "resumed with pending-confirm")
		res, err = secRound(t, c, "confirm", `{ "a" : 1 }`, token)
		require.NoError(t, err, "the same arguments written otherwise are the same request")
		assert.Contains(t, string(res), "resumed with pending-confirm")
	})
	t.Run("another server with the same key resumes it", func(t *testing.T) {
		token := secFirstRound(t, secStateServer(t, key, 0), "confirm", `{}`)
		res, err := secRound(t, secStateServer(t, key, 0), "confirm", `{}`, token)
		require.NoError(t, err)
		assert.Contains(t, string(res), "resumed with pending-confirm")
	})
	t.Run("tampered", func(t *testing.T) {
		c := secStateServer(t, key, 0)
		token := secFirstRound(t, c, "confirm", `{}`)
		flip := func(i int) string {
			b := []byte(token)
			if b[i] == 'A' {
				b[i] = 'B'
			} else {
				b[i] = 'A'
			}
			return string(b)
		}
		for _, bad := range []string{flip(0), flip(len(token) / 2), flip(len(token) - 1), token + "A", token[:len(token)/2], "not base64!"} {
			_, err := secRound(t, c, "confirm", `{}`, bad)
			secRefused(t, err)
		}
	})
	t.Run("sealed under another key", func(t *testing.T) {
		token := secFirstRound(t, secStateServer(t, bytes.Repeat([]byte{8}, 32), 0), "confirm", `{}`)
		_, err := secRound(t, secStateServer(t, key, 0), "confirm", `{}`, token)
		secRefused(t, err)
	})
	t.Run("replayed into another request", func(t *testing.T) {
		c := secStateServer(t, key, 0)
		token := secFirstRound(t, c, "confirm", `{"a":1}`)
		_, err := secRound(t, c, "confirm", `{"a":2}`, token)
		secRefused(t, err)
		_, err = secRound(t, c, "confirm", `{}`, token)
		secRefused(t, err)
		_, err = secRound(t, c, "other", `{"a":1}`, token)
		secRefused(t, err)
	})
	t.Run("expired", func(t *testing.T) {
		c := secStateServer(t, key, 50*time.Millisecond)
		token := secFirstRound(t, c, "confirm", `{}`)
		time.Sleep(100 * time.Millisecond)
		_, err := secRound(t, c, "confirm", `{}`, token)
		secRefused(t, err)
	})
}
