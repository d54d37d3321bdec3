package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// fullCaps declares every client capability the MRTR requests need.
const fullCaps = `{"sampling":{},"elicitation":{},"roots":{}}`

// statelessParams returns params with the stateless _meta: the version, the
// capabilities (caps as JSON; "" → {}) and any extra _meta members.
func statelessParams(params map[string]any, caps string, meta map[string]any) map[string]any {
	if caps == "" {
		caps = "{}"
	}
	m := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": json.RawMessage(caps),
		"io.modelcontextprotocol/clientInfo":         map[string]string{"name": "test", "version": "1"},
	}
	for k, v := range meta {
		m[k] = v
	}
	out := map[string]any{"_meta": m}
	for k, v := range params {
		out[k] = v
	}
	return out
}

// dialStateless connects a client that speaks only the stateless protocol.
func dialStateless(t *testing.T, s *mcp.Server) *client {
	return dial(t, s, clientOptions{version: mcp.Version20260728, noInit: true})
}

// decodeMap decodes a raw result into a map.
func decodeMap(t *testing.T, raw json.RawMessage) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// errData decodes an error's data.
func errData(t *testing.T, e *rpc.Error) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(e.Data, &m))
	return m
}

func echoTool(t *testing.T, s *mcp.Server, opts ...mcp.RegisterOption) {
	t.Helper()
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil
		}, opts...))
}

func TestStatelessDiscoverDescribesTheServer(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "2"}, &mcp.ServerOptions{
		Instructions: "be kind", Cache: mcp.CacheHint{TTL: time.Minute, Scope: mcp.CachePublic},
	})
	echoTool(t, s)
	c := dialStateless(t, s)
	raw, rerr := c.call(t, "server/discover", statelessParams(nil, "", nil))
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	assert.Equal(t, []any{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}, m["supportedVersions"])
	assert.Equal(t, "complete", m["resultType"])
	assert.Equal(t, "be kind", m["instructions"])
	assert.EqualValues(t, 60000, m["ttlMs"])
	assert.Equal(t, "public", m["cacheScope"])
	caps := m["capabilities"].(map[string]any)
	assert.Contains(t, caps, "tools")
	assert.NotContains(t, caps, "prompts")
	assert.NotContains(t, caps, "tasks", "tasks are an extension in 2026-07-28")
	info := m["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any)
	assert.Equal(t, "srv", info["name"])
}

func TestStatelessMetaIsRequired(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	c := dialStateless(t, s)
	cases := map[string]any{
		"no params": nil,
		"no _meta":  map[string]any{},
		"no version": map[string]any{"_meta": map[string]any{
			"io.modelcontextprotocol/clientCapabilities": map[string]any{}}},
		"no capabilities": map[string]any{"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion": "2026-07-28"}},
		"version not a string": map[string]any{"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion": 20260728, "io.modelcontextprotocol/clientCapabilities": map[string]any{}}},
		"capabilities not an object": map[string]any{"_meta": map[string]any{
			"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": "all"}},
		"unknown log level": statelessParams(nil, "", map[string]any{"io.modelcontextprotocol/logLevel": "loud"}),
	}
	for name, params := range cases {
		t.Run(name, func(t *testing.T) {
			_, rerr := c.call(t, "server/discover", params)
			require.NotNil(t, rerr)
			assert.Equal(t, rpc.CodeInvalidParams, rerr.Code, rerr.Message)
		})
	}
	t.Run("client info is optional", func(t *testing.T) {
		p := statelessParams(nil, "", nil)
		delete(p["_meta"].(map[string]any), "io.modelcontextprotocol/clientInfo")
		_, rerr := c.call(t, "server/discover", p)
		assert.Nil(t, rerr)
	})
}

func TestStatelessUnsupportedVersionListsTheServedOnes(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	c := dialStateless(t, s)
	p := statelessParams(nil, "", map[string]any{"io.modelcontextprotocol/protocolVersion": "v999.0.0"})
	_, rerr := c.call(t, "server/discover", p)
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeUnsupportedVersion, rerr.Code)
	d := errData(t, rerr)
	assert.Equal(t, "v999.0.0", d["requested"])
	assert.Contains(t, d["supported"], "2026-07-28")
}

func TestStatelessRequestsForHandshakeEraMethodsAreNotFound(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	c := dialStateless(t, s)
	for _, m := range []string{"ping", "logging/setLevel", "resources/subscribe", "tasks/get", "prompts/list", "no/such"} {
		_, rerr := c.call(t, m, statelessParams(map[string]any{"uri": "x", "level": "info", "taskId": "t"}, "", nil))
		require.NotNil(t, rerr, m)
		assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code, m)
	}
}

func TestStatelessParamsAreCheckedAgainstThe2026Schema(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	c := dialStateless(t, s)
	_, rerr := c.call(t, "tools/call", statelessParams(map[string]any{"arguments": map[string]any{}}, "", nil))
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, string(rerr.Data), "name")
}

func TestStatelessListsCarryResultTypeAndCacheHints(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{
		Cache: mcp.CacheHint{TTL: time.Hour, Scope: mcp.CachePublic},
	})
	echoTool(t, s, mcp.WithCache(mcp.CacheHint{TTL: 5 * time.Second, Scope: mcp.CachePrivate}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "other"}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, nil
	}))
	c := dialStateless(t, s)
	raw, rerr := c.call(t, "tools/list", statelessParams(nil, "", nil))
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	assert.Equal(t, "complete", m["resultType"])
	assert.EqualValues(t, 5000, m["ttlMs"], "the shortest TTL of the page")
	assert.Equal(t, "private", m["cacheScope"], "private when any entry is")
	tools := m["tools"].([]any)
	require.Len(t, tools, 2)
	assert.NotContains(t, tools[0], "execution")
}

func TestStatelessToolCallAndItsNotifications(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		assert.True(t, req.Stateless())
		assert.Nil(t, req.Session)
		assert.Equal(t, mcp.Version20260728, req.ProtocolVersion())
		require.NoError(t, req.Log(ctx, "debug", "w", "too quiet"))
		require.NoError(t, req.Log(ctx, "warning", "w", "heads up"))
		require.NoError(t, req.Progress(ctx, 1, 2, "half"))
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
	}))
	c := dialStateless(t, s)
	p := statelessParams(map[string]any{"name": "work"}, "", map[string]any{
		"progressToken": "p1", "io.modelcontextprotocol/logLevel": "info",
	})
	raw, rerr := c.call(t, "tools/call", p)
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	assert.Equal(t, "complete", m["resultType"])
	assert.NotContains(t, m, "ttlMs", "tools/call results are not cacheable")
	// The client dispatches notifications concurrently: take both, in any order.
	got := map[string]string{}
	for len(got) < 2 {
		select {
		case n := <-c.notes:
			got[n.Method] = string(n.Params)
		case <-time.After(5 * time.Second):
			t.Fatalf("notifications so far: %v", got)
		}
	}
	assert.Contains(t, got["notifications/message"], "heads up")
	assert.NotContains(t, got["notifications/message"], "too quiet")
	assert.Contains(t, got["notifications/progress"], `"half"`)

	// Without a log level nothing is logged.
	_, rerr = c.call(t, "tools/call", statelessParams(map[string]any{"name": "work"}, "", nil))
	require.Nil(t, rerr)
	select {
	case n := <-c.notes:
		t.Fatalf("unexpected %s", n.Method)
	case <-time.After(50 * time.Millisecond):
	}
}

// askName is a tool that asks for a name through an elicitation, keeping a
// round counter as its state.
func askName(t *testing.T, s *mcp.Server) {
	t.Helper()
	schema := json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object","properties":{"polite":{"type":"boolean"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Elicited("who"); ok && r.Action == "accept" {
				name, _ := json.Marshal(r.Content["name"])
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("Hello, " + string(name) + "! state=" + string(req.State()))}}, nil
			}
			return nil, &mcp.InputRequired{
				Requests: map[string]mcp.InputRequest{"who": mcp.FormInput("What is your name?", schema)},
				State:    []byte("round-1"),
			}
		}))
}

func TestStatelessInputRequiredRoundTrip(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	askName(t, s)
	c := dialStateless(t, s)
	args := map[string]any{"polite": true}
	raw, rerr := c.call(t, "tools/call", statelessParams(map[string]any{"name": "greet", "arguments": args}, fullCaps, nil))
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	require.Equal(t, "input_required", m["resultType"])
	q := m["inputRequests"].(map[string]any)["who"].(map[string]any)
	assert.Equal(t, "elicitation/create", q["method"])
	state, _ := m["requestState"].(string)
	require.NotEmpty(t, state)
	assert.NotContains(t, state, "round-1", "the state is sealed")

	answer := map[string]any{"who": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}}
	raw, rerr = c.call(t, "tools/call", statelessParams(map[string]any{
		"name": "greet", "arguments": args, "inputResponses": answer, "requestState": state,
	}, fullCaps, nil))
	require.Nil(t, rerr)
	m = decodeMap(t, raw)
	assert.Equal(t, "complete", m["resultType"])
	assert.Contains(t, string(raw), `Hello, \"Ada\"! state=round-1`)

	t.Run("tampered state is refused", func(t *testing.T) {
		_, rerr := c.call(t, "tools/call", statelessParams(map[string]any{
			"name": "greet", "arguments": args, "inputResponses": answer, "requestState": state + "-TAMPERED",
		}, fullCaps, nil))
		require.NotNil(t, rerr)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	})
	t.Run("state is bound to the arguments", func(t *testing.T) {
		_, rerr := c.call(t, "tools/call", statelessParams(map[string]any{
			"name": "greet", "arguments": map[string]any{"polite": false}, "inputResponses": answer, "requestState": state,
		}, fullCaps, nil))
		require.NotNil(t, rerr)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	})
	t.Run("an answer of the wrong shape asks again", func(t *testing.T) {
		raw, rerr := c.call(t, "tools/call", statelessParams(map[string]any{
			"name": "greet", "inputResponses": map[string]any{"other": map[string]any{"action": "accept"}},
		}, fullCaps, nil))
		require.Nil(t, rerr)
		assert.Equal(t, "input_required", decodeMap(t, raw)["resultType"])
	})
	t.Run("an answer that is no input response is invalid params", func(t *testing.T) {
		_, rerr := c.call(t, "tools/call", statelessParams(map[string]any{
			"name": "greet", "inputResponses": map[string]any{"who": 12345},
		}, fullCaps, nil))
		require.NotNil(t, rerr)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	})
}

func TestStatelessInputRequiredNeedsTheDeclaredCapability(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	askName(t, s)
	c := dialStateless(t, s)
	_, rerr := c.call(t, "tools/call", statelessParams(map[string]any{"name": "greet"}, `{"sampling":{}}`, nil))
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeMissingCapability, rerr.Code)
	assert.Equal(t, map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}, errData(t, rerr)["requiredCapabilities"])
}

// elicitor answers elicitations with a fixed name.
type elicitor struct {
	v20251125.UnimplementedMCPCallbacks
	asked int
}

func (e *elicitor) ElicitationCreate(context.Context, *v20251125.ElicitRequestParams) (*v20251125.ElicitResult, error) {
	e.asked++
	var r v20251125.ElicitResult
	if err := json.Unmarshal([]byte(`{"action":"accept","content":{"name":"Bo"}}`), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func TestInputRequiredInASessionIsAskedByTheServer(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	askName(t, s)
	cb := &elicitor{}
	c := dial(t, s, clientOptions{caps: json.RawMessage(`{"elicitation":{}}`), callbacks: cb})
	raw, rerr := c.call(t, "tools/call", map[string]any{"name": "greet"})
	require.Nil(t, rerr)
	assert.Contains(t, string(raw), `Hello, \"Bo\"! state=round-1`)
	assert.NotContains(t, string(raw), "resultType")
	assert.Equal(t, 1, cb.asked)

	t.Run("without the capability the tool reports an error", func(t *testing.T) {
		c := dial(t, s, clientOptions{})
		raw, rerr := c.call(t, "tools/call", map[string]any{"name": "greet"})
		require.Nil(t, rerr)
		assert.Contains(t, string(raw), `"isError":true`)
	})
}

func TestStatelessResourceNotFoundIsInvalidParams(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource("test://a", "text/plain", "A")}}, nil
	}, mcp.WithCache(mcp.CacheHint{TTL: 2 * time.Second, Scope: mcp.CachePublic})))
	c := dialStateless(t, s)
	raw, rerr := c.call(t, "resources/read", statelessParams(map[string]any{"uri": "test://a"}, "", nil))
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	assert.EqualValues(t, 2000, m["ttlMs"])
	assert.Equal(t, "public", m["cacheScope"])

	_, rerr = c.call(t, "resources/read", statelessParams(map[string]any{"uri": "test://missing"}, "", nil))
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Equal(t, "test://missing", errData(t, rerr)["uri"])
}

func TestStatelessListen(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{HasPrompts: true})
	echoTool(t, s)
	c := dialStateless(t, s)

	type listenResult struct {
		raw json.RawMessage
		err error
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	listen := func(filter map[string]any) (chan listenResult, json.RawMessage, *rpc.Request) {
		done := make(chan listenResult, 1)
		go func() {
			var res json.RawMessage
			err := c.conn.Call(ctx, "subscriptions/listen", statelessParams(map[string]any{"notifications": filter}, "", nil), &res)
			done <- listenResult{res, err}
		}()
		ack := c.note(t, "notifications/subscriptions/acknowledged")
		var p struct {
			Meta map[string]json.RawMessage `json:"_meta"`
		}
		require.NoError(t, json.Unmarshal(ack.Params, &p))
		id := p.Meta["io.modelcontextprotocol/subscriptionId"]
		require.NotEmpty(t, id)
		return done, id, ack
	}
	tools, toolsID, ack := listen(map[string]any{"toolsListChanged": true, "resourcesListChanged": true})
	assert.JSONEq(t, `{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":`+string(toolsID)+`}}`, string(ack.Params),
		"resources are not offered, so not acknowledged")
	prompts, promptsID, _ := listen(map[string]any{"promptsListChanged": true})

	echoTool(t, s) // a change of the tool list
	n := c.note(t, "notifications/tools/list_changed")
	assert.JSONEq(t, `{"_meta":{"io.modelcontextprotocol/subscriptionId":`+string(toolsID)+`}}`, string(n.Params))
	select {
	case n := <-c.notes:
		t.Fatalf("the prompts listen heard %s %s", n.Method, n.Params)
	case <-time.After(50 * time.Millisecond):
	}

	// The client ends the prompts listen with notifications/cancelled: no answer.
	require.Equal(t, 2, mcp.OpenListens(s))
	require.NoError(t, c.conn.Notify(context.Background(), "notifications/cancelled", map[string]any{"requestId": promptsID}))
	require.Eventually(t, func() bool { return mcp.OpenListens(s) == 1 }, 2*time.Second, 5*time.Millisecond)
	// The server ends L1 gracefully: the listen result.
	require.Eventually(t, func() bool { s.CloseSubscriptions(); return len(tools) == 1 }, 2*time.Second, 10*time.Millisecond)
	r := <-tools
	require.NoError(t, r.err)
	assert.JSONEq(t, `{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":`+string(toolsID)+`,"io.modelcontextprotocol/serverInfo":{"name":"srv","version":"1"}}}`, string(r.raw))
	select {
	case r := <-prompts:
		t.Fatalf("a cancelled listen was answered: %s", r.raw)
	case <-time.After(50 * time.Millisecond):
	}
}

func TestOneConnectionServesBothEras(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	c := dial(t, s, clientOptions{}) // a 2025-11-25 session
	raw, rerr := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "handshake"}})
	require.Nil(t, rerr)
	assert.NotContains(t, string(raw), "resultType")
	raw, rerr = c.call(t, "tools/call", statelessParams(map[string]any{"name": "echo", "arguments": map[string]any{"text": "stateless"}}, "", nil))
	require.Nil(t, rerr)
	assert.Contains(t, string(raw), `"resultType":"complete"`)
}

func TestStatelessOnlyServerRefusesInitialize(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20260728}})
	c := dial(t, s, clientOptions{noInit: true})
	_, rerr := c.call(t, "initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "x", "version": "1"},
	})
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeUnsupportedVersion, rerr.Code)
	assert.Equal(t, []any{"2026-07-28"}, errData(t, rerr)["supported"])
}

func TestHandshakeOnlyServerTreatsStatelessRequestsAsSessionOnes(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{ProtocolVersions: []string{mcp.Version20251125}})
	c := dial(t, s, clientOptions{noInit: true})
	_, rerr := c.call(t, "server/discover", statelessParams(nil, "", nil))
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidRequest, rerr.Code, "no session yet")
}

func TestNewServerRefusesABadStateKey(t *testing.T) {
	assert.PanicsWithValue(t, "mcp: ServerOptions.StateKey: "+mustSealerErr(t), func() {
		mcp.NewServer(&mcp.Implementation{Name: "x", Version: "1"}, &mcp.ServerOptions{StateKey: []byte("short")})
	})
}

func mustSealerErr(t *testing.T) string {
	_, err := mcp.NewStateSealer([]byte("short"), 0)
	require.Error(t, err)
	return err.Error()
}

func TestInputRequiredThatCannotBeAsked(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	add := func(name string, ir *mcp.InputRequired) {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: name}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, ir
		}))
	}
	add("nothing", &mcp.InputRequired{})
	add("ping", &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"p": {Method: "ping"}}})
	add("badparams", &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"s": {Method: "sampling/createMessage", Params: "not params"}}})
	add("forever", &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"r": mcp.RootsInput()}})
	add("unencodable", &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"e": {Method: "elicitation/create", Params: make(chan int)}}})

	stateless := dialStateless(t, s)
	for _, name := range []string{"nothing", "ping", "unencodable"} {
		_, rerr := stateless.call(t, "tools/call", statelessParams(map[string]any{"name": name}, fullCaps, nil))
		require.NotNil(t, rerr, name)
		assert.Equal(t, rpc.CodeInternalError, rerr.Code, name)
	}

	handshake := dial(t, s, clientOptions{caps: json.RawMessage(fullCaps), callbacks: rootsLister{}})
	for _, name := range []string{"nothing", "ping", "badparams", "forever"} {
		_, rerr := handshake.call(t, "tools/call", map[string]any{"name": name})
		require.NotNil(t, rerr, name)
		assert.Equal(t, rpc.CodeInternalError, rerr.Code, name)
	}
}

// rootsLister answers roots/list.
type rootsLister struct {
	v20251125.UnimplementedMCPCallbacks
}

func (rootsLister) RootsList(context.Context, *v20251125.RequestParams) (*v20251125.ListRootsResult, error) {
	return &v20251125.ListRootsResult{Roots: []v20251125.Root{{URI: "file:///r"}}}, nil
}

func TestStatelessPromptAsksForInput(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "p"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if r, ok := req.Roots("roots"); ok {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: mcp.Text(r.Roots[0].URI)}}}, nil
		}
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"roots": mcp.RootsInput()}}
	}))
	c := dialStateless(t, s)
	raw, rerr := c.call(t, "prompts/get", statelessParams(map[string]any{"name": "p"}, `{"roots":{}}`, nil))
	require.Nil(t, rerr)
	m := decodeMap(t, raw)
	assert.Equal(t, "input_required", m["resultType"])
	assert.NotContains(t, m, "requestState", "no state, no requestState")
	raw, rerr = c.call(t, "prompts/get", statelessParams(map[string]any{"name": "p",
		"inputResponses": map[string]any{"roots": map[string]any{"roots": []any{map[string]any{"uri": "file:///x"}}}}}, `{"roots":{}}`, nil))
	require.Nil(t, rerr)
	assert.Contains(t, string(raw), "file:///x")

	t.Run("in a session without roots it is -32021", func(t *testing.T) {
		c := dial(t, s, clientOptions{})
		_, rerr := c.call(t, "prompts/get", map[string]any{"name": "p"})
		require.NotNil(t, rerr)
		assert.Equal(t, mcp.CodeMissingCapability, rerr.Code)
	})
	t.Run("in a session with roots the server asks", func(t *testing.T) {
		c := dial(t, s, clientOptions{caps: json.RawMessage(`{"roots":{}}`), callbacks: rootsLister{}})
		raw, rerr := c.call(t, "prompts/get", map[string]any{"name": "p"})
		require.Nil(t, rerr)
		assert.Contains(t, string(raw), "file:///r")
	})
}

// Stateless requests on one connection are served side by side, each
// tracked by the session (so that a cancellation can reach it) while it
// runs: many at once all get their own answers, and the session's record
// of them is never written outside its lock (go test -race).
func TestStatelessCallsOnOneConnectionRunSideBySide(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	c := dialStateless(t, s)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				text := fmt.Sprintf("%d-%d", g, i)
				var res struct {
					Content []struct {
						Text string `json:"text"`
					} `json:"content"`
				}
				err := c.conn.Call(context.Background(), "tools/call", statelessParams(map[string]any{"name": "echo", "arguments": map[string]any{"text": text}}, "", nil), &res)
				if !assert.NoError(t, err) || !assert.Len(t, res.Content, 1) {
					return
				}
				assert.Equal(t, text, res.Content[0].Text)
			}
		}()
	}
	wg.Wait()
}

func TestARepeatedMetaIsAnsweredAsIfSeenForTheFirstTime(t *testing.T) {
	const (
		version = `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`
		caps    = `"io.modelcontextprotocol/clientCapabilities":{}`
	)
	metas := []string{
		`{` + version + `,` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`,
		// Admitted, but refused by the params schema: clientInfo has no
		// string name.
		`{` + version + `,` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":1,"version":"1"}}`,
		`{` + version + `,` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":"c","version":"2"}}`,
		`{` + version + `,` + caps + `,"io.modelcontextprotocol/logLevel":"info"}`,
		`{` + version + `,` + caps + `,"io.modelcontextprotocol/logLevel":"loud"}`,
		`{` + version + `,` + caps + `,"progressToken":{"not":"a token"}}`,
		`{` + version + `,"io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}`,
		`{` + version + `,"io.modelcontextprotocol/clientCapabilities":{"sampling":1}}`,
		`{"io.modelcontextprotocol/protocolVersion":"v999",` + caps + `}`,
	}
	newServer := func() *mcp.Server {
		s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
		echoTool(t, s)
		return s
	}
	answer := func(c *client, params string) string {
		raw, rerr := c.call(t, "tools/call", json.RawMessage(params))
		if rerr != nil {
			return fmt.Sprintf("error %d %s %s", rerr.Code, rerr.Message, rerr.Data)
		}
		return string(raw)
	}
	params := func(meta string) string { return `{"name":"echo","arguments":{"text":"hi"},"_meta":` + meta + `}` }
	want := map[string]string{}
	for _, meta := range metas {
		want[meta] = answer(dialStateless(t, newServer()), params(meta))
	}
	require.Contains(t, want[metas[0]], `"hi"`)
	require.Contains(t, want[metas[1]], "error -32602")
	long := dialStateless(t, newServer())
	for _, first := range metas {
		for _, then := range metas {
			// then replaces first in the server's memory after a few.
			for _, meta := range []string{first, first, then, then, then, then, then, then, then} {
				assert.Equal(t, want[meta], answer(long, params(meta)), "%s after %s", meta, first)
			}
		}
	}
}
