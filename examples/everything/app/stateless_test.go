package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The 2026-07-28 (stateless) side of the everything server, over stdio: every request
// carries its protocol version and client capabilities in params._meta, and there is no
// initialize.

// suiteCapabilities are the client capabilities the conformance suite declares.
const suiteCapabilities = `{"sampling":{},"elicitation":{},"roots":{"listChanged":true}}`

// statelessClient talks the stateless protocol to a fresh everything server.
type statelessClient struct {
	t      *testing.T
	conn   *rpc.Conn
	tap    *tap
	server *mcp.Server
}

// connectStateless starts a server on one end of an in-memory pipe; the client end sends
// stateless requests only.
func connectStateless(t *testing.T) *statelessClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	s, err := newServer(slog.New(slog.NewTextHandler(io.Discard, nil)), 0, &watched{})
	require.NoError(t, err)
	serverEnd, clientEnd := rpc.NewPipe()
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, serverEnd) }()
	tp := &tap{Transport: clientEnd} // the 2025-11-25 checker does not know this protocol
	conn := rpc.NewConn(tp, rpc.WithHandler(rpc.NewRouter()))
	t.Cleanup(func() {
		_ = conn.Close()
		select {
		case <-served:
		case <-time.After(5 * time.Second):
			t.Error("the server did not stop after the client closed the connection")
		}
	})
	return &statelessClient{t: t, conn: conn, tap: tp, server: s}
}

// meta is the params._meta of a stateless request declaring caps (a JSON object), plus
// extra members.
func meta(caps string, extra map[string]any) map[string]any {
	m := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "everything-test", "version": "1"},
		"io.modelcontextprotocol/clientCapabilities": json.RawMessage(caps),
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// try sends one stateless request; params gets the _meta of caps.
func (c *statelessClient) try(method string, params map[string]any, caps string, extraMeta map[string]any) (json.RawMessage, error) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := map[string]any{"_meta": meta(caps, extraMeta)}
	for k, v := range params {
		p[k] = v
	}
	var res json.RawMessage
	err := c.conn.Call(ctx, method, p, &res)
	return res, err
}

// call is try that requires success.
func (c *statelessClient) call(method string, params map[string]any, caps string) json.RawMessage {
	c.t.Helper()
	res, err := c.try(method, params, caps, nil)
	require.NoError(c.t, err, "%s %v", method, params)
	return res
}

// rpcError returns err as a JSON-RPC error, failing the test when it is not one.
func rpcError(t *testing.T, err error) *rpc.Error {
	t.Helper()
	var re *rpc.Error
	require.True(t, errors.As(err, &re), "want a JSON-RPC error, got %v", err)
	return re
}

// suiteAnswers are what the conformance suite answers, by input request key.
var suiteAnswers = map[string]string{
	"user_name":              `{"action":"accept","content":{"name":"Alice"}}`,
	"step1":                  `{"action":"accept","content":{"name":"Alice"}}`,
	"capability_elicitation": `{"action":"accept","content":{"name":"Alice"}}`,
	"step2":                  `{"action":"accept","content":{"color":"blue"}}`,
	"confirm":                `{"action":"accept","content":{"ok":true}}`,
	"confirmation":           `{"action":"accept","content":{"ok":true}}`,
	"user_context":           `{"action":"accept","content":{"context":"test context"}}`,
	"capital_question":       samplingAnswer,
	"greeting":               samplingAnswer,
	"answer":                 samplingAnswer,
	"capability_sampling":    samplingAnswer,
	"client_roots":           rootsAnswer,
	"capability_roots":       rootsAnswer,
}

const (
	samplingAnswer = `{"role":"assistant","content":{"type":"text","text":"The capital of France is Paris."},"model":"test-model","stopReason":"endTurn"}`
	rootsAnswer    = `{"roots":[{"uri":"file:///test/root","name":"Test Root"}]}`
)

// round is one answer of a multi-round-trip exchange.
type round struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  string                     `json:"requestState"`
	Content       []struct {
		Text string `json:"text"`
	} `json:"content"`
	Messages []json.RawMessage `json:"messages"`
	raw      json.RawMessage
}

// exchange sends method with params and answers every input request as the suite does,
// retrying with the echoed requestState, until a complete result (at most 5 rounds).
func (c *statelessClient) exchange(method string, params map[string]any, caps string) []round {
	c.t.Helper()
	var rounds []round
	next := params
	for range 5 {
		raw := c.call(method, next, caps)
		var r round
		require.NoError(c.t, json.Unmarshal(raw, &r))
		r.raw = raw
		rounds = append(rounds, r)
		if r.ResultType != "input_required" {
			return rounds
		}
		responses := map[string]json.RawMessage{}
		for key := range r.InputRequests {
			answer, ok := suiteAnswers[key]
			require.True(c.t, ok, "no answer for input request %q", key)
			responses[key] = json.RawMessage(answer)
		}
		next = map[string]any{"inputResponses": responses}
		for k, v := range params {
			next[k] = v
		}
		if r.RequestState != "" {
			next["requestState"] = r.RequestState
		}
	}
	c.t.Fatalf("%s %v: still input_required after 5 rounds", method, params)
	return nil
}

func toolParams(name string) map[string]any {
	return map[string]any{"name": name, "arguments": map[string]any{}}
}

func TestStatelessInputRequiredToolsAskWhatTheScenariosExpect(t *testing.T) {
	nameForm := `{"method":"elicitation/create","params":{"message":"What is your name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}`
	tests := []struct {
		tool      string
		requests  string // the first round's inputRequests
		withState bool
	}{
		{"test_input_required_result_elicitation", `{"user_name":` + nameForm + `}`, false},
		{"test_input_required_result_sampling", `{"capital_question":{"method":"sampling/createMessage","params":{
			"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}}}`, false},
		{"test_input_required_result_list_roots", `{"client_roots":{"method":"roots/list","params":{}}}`, false},
		{"test_input_required_result_request_state", `{"confirm":{"method":"elicitation/create","params":{"message":"Please confirm",
			"requestedSchema":{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}}}}`, true},
		{"test_input_required_result_multiple_inputs", `{"user_name":` + nameForm + `,
			"greeting":{"method":"sampling/createMessage","params":{"messages":[{"role":"user","content":{"type":"text","text":"Generate a greeting"}}],"maxTokens":50}},
			"client_roots":{"method":"roots/list","params":{}}}`, true},
		{"test_input_required_result_multi_round", `{"step1":{"method":"elicitation/create","params":{"message":"Step 1: What is your name?",
			"requestedSchema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}}}}`, true},
		{"test_input_required_result_tampered_state", `{"user_name":` + nameForm + `}`, true},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			raw := c.call("tools/call", toolParams(tt.tool), suiteCapabilities)
			var r round
			require.NoError(t, json.Unmarshal(raw, &r))
			assert.Equal(t, "input_required", r.ResultType, "resultType is explicit")
			requests, err := json.Marshal(r.InputRequests)
			require.NoError(t, err)
			assert.JSONEq(t, tt.requests, string(requests))
			assert.Equal(t, tt.withState, r.RequestState != "", "requestState: %q", r.RequestState)
		})
	}
}

func TestStatelessInputRequiredToolsCompleteWithTheAnswers(t *testing.T) {
	tests := []struct {
		tool   string
		rounds int
		text   string
	}{
		{"test_input_required_result_elicitation", 2, "Hello, Alice!"},
		{"test_input_required_result_sampling", 2, "The model answered: The capital of France is Paris."},
		{"test_input_required_result_list_roots", 2, "The client has 1 root(s)\nfile:///test/root (Test Root)"},
		{"test_input_required_result_request_state", 2, "state-ok: the request state came back intact; action=accept, ok=true"},
		{"test_input_required_result_multiple_inputs", 2,
			"Hello, Alice! The model says: The capital of France is Paris.. The client has 1 root(s)\nfile:///test/root (Test Root)"},
		{"test_input_required_result_multi_round", 3, "Alice's favourite colour is blue."},
		{"test_input_required_result_tampered_state", 2, "Hello, Alice! The request state was verified."},
		{"test_input_required_result_capabilities", 2, "Answered: capability_elicitation, capability_roots, capability_sampling"},
		{"test_missing_capability", 2, "The model answered: The capital of France is Paris."},
		{"test_streaming_elicitation", 2, "Confirmation received: action=accept"},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			rounds := c.exchange("tools/call", toolParams(tt.tool), suiteCapabilities)
			require.Len(t, rounds, tt.rounds)
			last := rounds[len(rounds)-1]
			assert.Equal(t, "complete", last.ResultType)
			require.Len(t, last.Content, 1, "%s", last.raw)
			assert.Equal(t, tt.text, last.Content[0].Text)
		})
	}
}

func TestStatelessMultiRoundStateChangesBetweenRounds(t *testing.T) {
	rounds := connectStateless(t).exchange("tools/call", toolParams("test_input_required_result_multi_round"), suiteCapabilities)
	require.Len(t, rounds, 3)
	assert.Contains(t, rounds[0].InputRequests, "step1")
	assert.Contains(t, rounds[1].InputRequests, "step2")
	assert.JSONEq(t, `{"method":"elicitation/create","params":{"message":"Step 2: What is your favorite color?",
		"requestedSchema":{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}}}`, string(rounds[1].InputRequests["step2"]))
	assert.NotEmpty(t, rounds[1].RequestState)
	assert.NotEqual(t, rounds[0].RequestState, rounds[1].RequestState)
}

func TestStatelessStatefulToolsAskAgainWithoutTheirState(t *testing.T) {
	c := connectStateless(t)
	raw := c.call("tools/call", map[string]any{
		"name": "test_input_required_result_request_state", "arguments": map[string]any{},
		"inputResponses": map[string]any{"confirm": json.RawMessage(suiteAnswers["confirm"])},
	}, suiteCapabilities)
	var r round
	require.NoError(t, json.Unmarshal(raw, &r))
	assert.Equal(t, "input_required", r.ResultType, "an answer without the state is not enough")
}

func TestStatelessTamperedStateIsRefused(t *testing.T) {
	c := connectStateless(t)
	first := c.exchange("tools/call", toolParams("test_input_required_result_tampered_state"), suiteCapabilities)[0]
	require.NotEmpty(t, first.RequestState)
	_, err := c.try("tools/call", map[string]any{
		"name": "test_input_required_result_tampered_state", "arguments": map[string]any{},
		"inputResponses": map[string]any{"user_name": json.RawMessage(suiteAnswers["user_name"])},
		"requestState":   first.RequestState + "-TAMPERED",
	}, suiteCapabilities, nil)
	require.Error(t, err)
	assert.Equal(t, rpc.CodeInvalidParams, rpcError(t, err).Code)
}

func TestStatelessElicitationToolAsksAgainUntilItGetsAValidAnswer(t *testing.T) {
	tests := []struct {
		name      string
		responses any
		complete  bool
	}{
		{"a wrong key", map[string]any{"wrong_key": json.RawMessage(suiteAnswers["user_name"])}, false},
		{"the right answer plus unknown keys", map[string]any{
			"user_name":          json.RawMessage(suiteAnswers["user_name"]),
			"unknown_extra_key":  json.RawMessage(`{"action":"accept","content":{"foo":"bar"}}`),
			"another_unexpected": json.RawMessage(`{"action":"accept","content":{"baz":123}}`)}, true},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := c.call("tools/call", map[string]any{
				"name": "test_input_required_result_elicitation", "arguments": map[string]any{}, "inputResponses": tt.responses,
			}, suiteCapabilities)
			var r round
			require.NoError(t, json.Unmarshal(raw, &r))
			if tt.complete {
				assert.Equal(t, "complete", r.ResultType)
				return
			}
			assert.Equal(t, "input_required", r.ResultType)
			assert.Contains(t, r.InputRequests, "user_name")
		})
	}
}

func TestStatelessElicitationToolRefusesMalformedAnswers(t *testing.T) {
	tests := []struct {
		name      string
		responses any
	}{
		{"a number instead of an elicitation result", map[string]any{"user_name": 12345}},
		{"null instead of the answers", nil},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.try("tools/call", map[string]any{
				"name": "test_input_required_result_elicitation", "arguments": map[string]any{}, "inputResponses": tt.responses,
			}, suiteCapabilities, nil)
			assert.Equal(t, rpc.CodeInvalidParams, rpcError(t, err).Code, "the params schema refuses it")
		})
	}
}

func TestStatelessCapabilitiesToolAsksOnlyForWhatWasDeclared(t *testing.T) {
	tests := []struct {
		caps string
		keys []string
	}{
		{`{"sampling":{}}`, []string{"capability_sampling"}},
		{`{"elicitation":{}}`, []string{"capability_elicitation"}},
		{`{"roots":{}}`, []string{"capability_roots"}},
		{suiteCapabilities, []string{"capability_elicitation", "capability_roots", "capability_sampling"}},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.caps, func(t *testing.T) {
			r := c.exchange("tools/call", toolParams("test_input_required_result_capabilities"), tt.caps)[0]
			assert.Equal(t, "input_required", r.ResultType)
			var keys []string
			for k := range r.InputRequests {
				keys = append(keys, k)
			}
			assert.ElementsMatch(t, tt.keys, keys)
		})
	}
}

func TestStatelessToolsNeedingAnUndeclaredCapabilityAreMissingCapability(t *testing.T) {
	tests := []struct{ tool, caps, required string }{
		{"test_missing_capability", `{}`, `{"sampling":{}}`},
		{"test_missing_capability", `{"elicitation":{}}`, `{"sampling":{}}`},
		{"test_input_required_result_capabilities", `{}`, `{"sampling":{}}`},
		{"test_input_required_result_sampling", `{"elicitation":{}}`, `{"sampling":{}}`},
		{"test_input_required_result_list_roots", `{"sampling":{}}`, `{"roots":{}}`},
		{"test_streaming_elicitation", `{"sampling":{}}`, `{"elicitation":{"form":{}}}`},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.caps, func(t *testing.T) {
			_, err := c.try("tools/call", toolParams(tt.tool), tt.caps, nil)
			re := rpcError(t, err)
			assert.Equal(t, mcp.CodeMissingCapability, re.Code)
			assert.JSONEq(t, `{"requiredCapabilities":`+tt.required+`}`, string(re.Data))
		})
	}
}

func TestStatelessPromptAsksForItsContext(t *testing.T) {
	rounds := connectStateless(t).exchange("prompts/get", map[string]any{"name": "test_input_required_result_prompt"}, suiteCapabilities)
	require.Len(t, rounds, 2)
	assert.JSONEq(t, `{"user_context":{"method":"elicitation/create","params":{"message":"What context should the prompt use?",
		"requestedSchema":{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}}}}`,
		string(mustJSON(t, rounds[0].InputRequests)))
	require.Len(t, rounds[1].Messages, 1)
	assert.JSONEq(t, `{"role":"user","content":{"type":"text","text":"Answer with this context in mind: test context"}}`, string(rounds[1].Messages[0]))
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// notificationsOf returns the notifications of method the client has read so far.
func (c *statelessClient) notificationsOf(method string) []wireMessage {
	c.tap.mu.Lock()
	defer c.tap.mu.Unlock()
	var out []wireMessage
	for _, raw := range c.tap.seen {
		var m wireMessage
		if json.Unmarshal(raw, &m) == nil && m.Method == method && len(m.ID) == 0 {
			out = append(out, m)
		}
	}
	return out
}

func TestStatelessLoggingToolLogsOnlyWhenTheRequestAsks(t *testing.T) {
	tests := []struct {
		name  string
		extra map[string]any
		want  int
	}{
		{"no log level", nil, 0},
		{"info", map[string]any{"io.modelcontextprotocol/logLevel": "info"}, 3},
		{"debug", map[string]any{"io.modelcontextprotocol/logLevel": "debug"}, 3},
		{"warning is above the messages", map[string]any{"io.modelcontextprotocol/logLevel": "warning"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := connectStateless(t)
			res, err := c.try("tools/call", toolParams("test_logging_tool"), suiteCapabilities, tt.extra)
			require.NoError(t, err)
			assert.JSONEq(t, `{"resultType":"complete","content":[{"type":"text","text":"Logging tool done"}]}`, string(stripMeta(t, res)))
			assert.Len(t, c.notificationsOf("notifications/message"), tt.want, "messages before the response")
		})
	}
}

// stripMeta removes the result's _meta (serverInfo), which every stateless result has.
func stripMeta(t *testing.T, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	assert.Contains(t, string(m["_meta"]), "io.modelcontextprotocol/serverInfo")
	delete(m, "_meta")
	return mustJSON(t, m)
}

func TestStatelessTriggersTellListensWithoutChangingTheLists(t *testing.T) {
	c := connectStateless(t)
	names := func(method, key string) []string {
		var page map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(c.call(method, nil, suiteCapabilities), &page))
		var entries []struct {
			Name string `json:"name"`
		}
		require.NoError(t, json.Unmarshal(page[key], &entries))
		var out []string
		for _, e := range entries {
			out = append(out, e.Name)
		}
		return out
	}
	toolsBefore, promptsBefore := names("tools/list", "tools"), names("prompts/list", "prompts")

	listenDone := make(chan error, 1)
	go func() {
		_, err := c.try("subscriptions/listen", map[string]any{
			"notifications": map[string]any{"toolsListChanged": true, "promptsListChanged": true},
		}, suiteCapabilities, nil)
		listenDone <- err
	}()
	require.Eventually(t, func() bool { return len(c.notificationsOf("notifications/subscriptions/acknowledged")) == 1 },
		5*time.Second, 10*time.Millisecond, "the listen is acknowledged")

	c.call("tools/call", toolParams("test_trigger_tool_change"), suiteCapabilities)
	c.call("tools/call", toolParams("test_trigger_prompt_change"), suiteCapabilities)
	for _, method := range []string{"notifications/tools/list_changed", "notifications/prompts/list_changed"} {
		require.Eventually(t, func() bool { return len(c.notificationsOf(method)) > 0 }, 5*time.Second, 10*time.Millisecond, method)
		assert.Contains(t, string(c.notificationsOf(method)[0].Params), "io.modelcontextprotocol/subscriptionId", method)
	}
	assert.Equal(t, toolsBefore, names("tools/list", "tools"), "same tools in the same order")
	assert.Equal(t, promptsBefore, names("prompts/list", "prompts"), "same prompts in the same order")

	c.server.CloseSubscriptions()
	select {
	case err := <-listenDone:
		assert.NoError(t, err, "the listen ends with its result")
	case <-time.After(5 * time.Second):
		t.Fatal("the listen did not end")
	}
}

func TestStatelessCacheHints(t *testing.T) {
	tests := []struct {
		method string
		params map[string]any
		ttl    int64
		scope  string
	}{
		{"resources/read", map[string]any{"uri": uriStaticText}, time.Hour.Milliseconds(), "public"},
		{"resources/read", map[string]any{"uri": uriStaticBinary}, time.Hour.Milliseconds(), "public"},
		{"resources/read", map[string]any{"uri": "test://template/123/data"}, time.Hour.Milliseconds(), "public"},
		{"resources/read", map[string]any{"uri": uriWatched}, 0, "private"},
		{"resources/list", nil, 0, "private"},
		{"resources/templates/list", nil, time.Hour.Milliseconds(), "public"},
		{"tools/list", nil, 0, "private"},
		{"prompts/list", nil, 0, "private"},
		{"server/discover", nil, 0, "private"},
	}
	c := connectStateless(t)
	for _, tt := range tests {
		t.Run(tt.method+" "+mustString(t, tt.params), func(t *testing.T) {
			var res struct {
				TTL   *int64 `json:"ttlMs"`
				Scope string `json:"cacheScope"`
			}
			require.NoError(t, json.Unmarshal(c.call(tt.method, tt.params, suiteCapabilities), &res))
			require.NotNil(t, res.TTL)
			assert.Equal(t, tt.ttl, *res.TTL)
			assert.Equal(t, tt.scope, res.Scope)
		})
	}
}

func mustString(t *testing.T, v any) string {
	if v == nil {
		return ""
	}
	return string(mustJSON(t, v))
}

func TestStatelessHeaderRegionToolEchoesItsArgument(t *testing.T) {
	c := connectStateless(t)
	res := c.call("tools/call", map[string]any{"name": "test_header_region", "arguments": map[string]any{"region": "eu-west"}}, suiteCapabilities)
	assert.JSONEq(t, `{"resultType":"complete","content":[{"type":"text","text":"Region: eu-west"}]}`, string(stripMeta(t, res)))

	var list struct {
		Tools []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	}
	require.NoError(t, json.Unmarshal(c.call("tools/list", nil, suiteCapabilities), &list))
	var annotated []string
	for _, tool := range list.Tools {
		if strings.Contains(string(tool.InputSchema), "x-mcp-header") {
			annotated = append(annotated, tool.Name)
		}
	}
	assert.Equal(t, []string{"test_header_region"}, annotated, "the one tool the custom-header scenario finds")
}

// The same tools in a handshake session: the server asks the client itself.

func TestHandshakeSessionAnswersInputRequiredToolsItself(t *testing.T) {
	tests := []struct {
		tool string
		text string
	}{
		{"test_input_required_result_elicitation", "Hello, Alice!"},
		{"test_input_required_result_sampling", "The model answered: Paris"},
		{"test_input_required_result_list_roots", "The client has 2 root(s)\nfile:///work (work)\nfile:///tmp (tmp)"},
		{"test_input_required_result_request_state", "state-ok: the request state came back intact; action=accept, ok=true"},
		{"test_input_required_result_multiple_inputs", "Hello, Alice! The model says: Paris. The client has 2 root(s)\nfile:///work (work)\nfile:///tmp (tmp)"},
		{"test_input_required_result_multi_round", "Alice's favourite colour is blue."},
		{"test_input_required_result_tampered_state", "Hello, Alice! The request state was verified."},
		{"test_input_required_result_capabilities", "Answered: capability_elicitation, capability_roots, capability_sampling"},
		{"test_missing_capability", "The model answered: Paris"},
		{"test_streaming_elicitation", "Confirmation received: action=accept"},
	}
	s := connect(t, clientOptions{capabilities: `{"sampling":{},"elicitation":{"form":{}},"roots":{}}`})
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			var res struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				IsError bool `json:"isError"`
			}
			require.NoError(t, json.Unmarshal(s.callTool(tt.tool, ""), &res))
			assert.False(t, res.IsError)
			require.Len(t, res.Content, 1)
			assert.Equal(t, tt.text, res.Content[0].Text)
		})
	}
}

func TestHandshakeMultiRoundAsksTheClientTwice(t *testing.T) {
	s := connect(t, clientOptions{})
	s.callTool("test_input_required_result_multi_round", "")
	require.Len(t, s.cb.elicitation, 2)
	var messages []string
	for _, p := range s.cb.elicitation {
		form, ok := p.AsForm()
		require.True(t, ok)
		messages = append(messages, form.Message)
	}
	assert.Equal(t, []string{"Step 1: What is your name?", "Step 2: What is your favorite color?"}, messages)
}

// A session whose client did not declare what a tool asks for: the call fails (how is
// the runtime's business: a JSON-RPC error today) and the client is never asked.
func TestHandshakeSessionWithoutTheCapabilityFailsWithoutAskingTheClient(t *testing.T) {
	tests := []string{
		"test_missing_capability",
		"test_input_required_result_sampling",
		"test_input_required_result_list_roots",
		"test_input_required_result_elicitation",
	}
	s := connect(t, clientOptions{capabilities: `{}`})
	for _, tool := range tests {
		t.Run(tool, func(t *testing.T) {
			var res struct {
				IsError bool `json:"isError"`
			}
			err := s.try("tools/call", `{"name":"`+tool+`"}`, &res)
			assert.True(t, err != nil || res.IsError, "the call fails")
		})
	}
	assert.Empty(t, s.cb.sampling)
	assert.Empty(t, s.cb.elicitation)
}

func TestHandshakeLoggingToolFollowsTheSessionLevel(t *testing.T) {
	s := connect(t, clientOptions{})
	s.call("logging/setLevel", `{"level":"info"}`, nil)
	before := notificationsBefore(t, s, "test_logging_tool", "notifications/message")
	assert.Len(t, before, 3)
}
