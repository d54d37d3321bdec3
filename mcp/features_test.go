package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestProgressAndLogsArriveBeforeTheResponse(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		for i, p := range []float64{0, 50, 100} {
			require.NoError(t, req.Progress(ctx, p, 100, "step"))
			require.NoError(t, req.Session.Log(ctx, "info", "work", map[string]any{"step": i}))
		}
		assert.Error(t, req.Progress(ctx, 100, 100, "again"), "progress must increase")
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("done")}}, nil
	}))
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "logging/setLevel", map[string]any{"level": "info"})
	require.Nil(t, rerr)
	_, rerr = c.call(t, "tools/call", map[string]any{"name": "work", "_meta": map[string]any{"progressToken": "tok-1"}})
	require.Nil(t, rerr)

	var kinds []string
	for _, m := range c.server.messages() {
		var env struct {
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Params json.RawMessage `json:"params"`
		}
		require.NoError(t, json.Unmarshal(m, &env))
		switch {
		case env.Method != "":
			kinds = append(kinds, env.Method)
			if env.Method == "notifications/progress" {
				assert.Contains(t, string(env.Params), `"progressToken":"tok-1"`)
			}
		case bytes.Contains(env.Result, []byte(`"done"`)):
			kinds = append(kinds, "response")
		}
	}
	assert.Equal(t, []string{
		"notifications/progress", "notifications/message",
		"notifications/progress", "notifications/message",
		"notifications/progress", "notifications/message",
		"response"}, kinds)
}

func TestNoLogsBeforeSetLevelNorBelowIt(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "talk"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		req.Session.Log(ctx, "debug", "", "quiet")
		req.Session.Logger("slog").Warn("loud", "n", 1)
		return nil, nil
	}))
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "tools/call", map[string]any{"name": "talk"})
	require.Nil(t, rerr)
	_, rerr = c.call(t, "logging/setLevel", map[string]any{"level": "warning"})
	require.Nil(t, rerr)
	_, rerr = c.call(t, "tools/call", map[string]any{"name": "talk"})
	require.Nil(t, rerr)
	var logs []string
	for _, m := range c.server.messages() {
		if bytes.Contains(m, []byte(`"notifications/message"`)) {
			logs = append(logs, string(m))
		}
	}
	require.Len(t, logs, 1)
	assert.Contains(t, logs[0], `"level":"warning"`)
	assert.Contains(t, logs[0], `"message":"loud"`)
	assert.Contains(t, logs[0], `"n":1`)
}

func TestCancelledNotificationCancelsTheHandler(t *testing.T) {
	s := newServer(t, nil)
	started := make(chan struct{})
	stopped := make(chan error, 1)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "slow"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		close(started)
		<-ctx.Done()
		stopped <- ctx.Err()
		return nil, ctx.Err()
	}))
	c := dial(t, s, clientOptions{})
	require.NoError(t, c.raw.Write(context.Background(), []byte(`{"jsonrpc":"2.0","id":"slow-1","method":"tools/call","params":{"name":"slow"}}`)))
	<-started
	require.NoError(t, c.conn.Notify(context.Background(), "notifications/cancelled", map[string]any{"requestId": "slow-1", "reason": "user"}))
	select {
	case err := <-stopped:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	_, rerr := c.call(t, "ping", nil) // a round trip: a response to slow-1 would come before it
	require.Nil(t, rerr)
	for _, m := range c.server.messages() {
		assert.NotContains(t, string(m), `"id":"slow-1"`, "a cancelled request gets no response")
	}
}

func TestSamplingElicitationAndRootsReachTheClient(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		msg, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 10,
			Messages: []mcp.SamplingMessage{{Role: "user", Content: mcp.SamplingMessageContent{Value: mcp.TextContent{Text: "hi"}}}}})
		if err != nil {
			return nil, err
		}
		el, err := req.Session.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "name?",
			RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}})
		if err != nil {
			return nil, err
		}
		roots, err := req.Session.ListRoots(ctx)
		if err != nil {
			return nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(msg.Model + "/" + string(el.Action) + "/" + roots.Roots[0].URI)}}, nil
	}))
	c := dial(t, s, clientOptions{caps: json.RawMessage(`{"sampling":{},"elicitation":{},"roots":{}}`), callbacks: fakeClient{}})
	out, rerr := callTool(t, c, "ask", nil)
	require.Nil(t, rerr)
	assert.Equal(t, "model-x/accept/file:///r", out["content"].([]any)[0].(map[string]any)["text"])
}

func TestCallsToUndeclaredCapabilitiesAreRefusedLocally(t *testing.T) {
	s := newServer(t, nil)
	errs := make(chan error, 3)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		_, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 1})
		errs <- err
		_, err = req.Session.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestURLParams{Mode: "url", Message: "m", URL: "https://example.com", ElicitationID: "e"}})
		errs <- err
		_, err = req.Session.ListRoots(ctx)
		errs <- err
		return nil, nil
	}))
	c := dial(t, s, clientOptions{caps: json.RawMessage(`{"elicitation":{}}`)})
	_, rerr := callTool(t, c, "ask", nil)
	require.Nil(t, rerr)
	for range 3 {
		assert.ErrorIs(t, <-errs, mcp.ErrNotDeclared)
	}
	for _, m := range c.server.messages() {
		assert.NotContains(t, string(m), `"method":"sampling/createMessage"`)
	}
}

// fakeClient answers the server's requests.
type fakeClient struct {
	v20251125.UnimplementedMCPCallbacks
}

func (fakeClient) SamplingCreateMessage(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	return &mcp.CreateMessageResult{Model: "model-x", Role: "assistant",
		Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "hello"}}}, nil
}

func (fakeClient) ElicitationCreate(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	return &mcp.ElicitResult{Action: "accept"}, nil
}

func (fakeClient) RootsList(ctx context.Context, p *mcp.RequestParams) (*mcp.ListRootsResult, error) {
	return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///r"}}}, nil
}

func resourceServer(t *testing.T) *mcp.Server {
	s := newServer(t, nil)
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://static", Name: "static", MIMEType: "text/plain"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", "static text")}}, nil
		}))
	require.NoError(t, s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://item/{id}/data", Name: "item"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.BlobResource(req.Params.URI, "application/octet-stream", []byte(mcp.TemplateVars(ctx)["id"]))}}, nil
		}))
	return s
}

func TestResourcesAndTemplatesAreRead(t *testing.T) {
	c := dial(t, resourceServer(t), clientOptions{})
	res, rerr := c.call(t, "resources/read", map[string]any{"uri": "test://static"})
	require.Nil(t, rerr)
	assert.JSONEq(t, `{"contents":[{"uri":"test://static","mimeType":"text/plain","text":"static text"}]}`, string(res))
	res, rerr = c.call(t, "resources/read", map[string]any{"uri": "test://item/123/data"})
	require.Nil(t, rerr)
	assert.JSONEq(t, `{"contents":[{"uri":"test://item/123/data","mimeType":"application/octet-stream","blob":"MTIz"}]}`, string(res))

	res, rerr = c.call(t, "resources/templates/list", map[string]any{})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"uriTemplate":"test://item/{id}/data"`)
	res, rerr = c.call(t, "resources/list", map[string]any{})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"uri":"test://static"`)
}

func TestUnknownResourceIsResourceNotFound(t *testing.T) {
	c := dial(t, resourceServer(t), clientOptions{})
	_, rerr := c.call(t, "resources/read", map[string]any{"uri": "test://missing"})
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeResourceNotFound, rerr.Code)
	assert.JSONEq(t, `{"uri":"test://missing"}`, string(rerr.Data))
}

func TestSubscribedSessionsHearOfUpdates(t *testing.T) {
	s := resourceServer(t)
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "resources/subscribe", map[string]any{"uri": "test://static"})
	require.Nil(t, rerr)
	assert.Equal(t, `{}`, string(res))
	s.ResourceUpdated(context.Background(), "test://static")
	n := c.note(t, "notifications/resources/updated")
	assert.JSONEq(t, `{"uri":"test://static"}`, string(n.Params))

	_, rerr = c.call(t, "resources/unsubscribe", map[string]any{"uri": "test://static"})
	require.Nil(t, rerr)
	s.ResourceUpdated(context.Background(), "test://static")
	_, rerr = c.call(t, "ping", nil) // a round trip: an update would have arrived before it
	require.Nil(t, rerr)
	count := 0
	for _, m := range c.server.messages() {
		if strings.Contains(string(m), "notifications/resources/updated") {
			count++
		}
	}
	assert.Equal(t, 1, count)
}

func TestPromptsCheckRequiredArguments(t *testing.T) {
	s := newServer(t, nil)
	yes := true
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "greet", Description: "Greets.", Arguments: []mcp.PromptArgument{{Name: "who", Required: &yes}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: mcp.Text("hello " + req.Params.Arguments["who"])}}}, nil
		}))
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "prompts/get", map[string]any{"name": "greet", "arguments": map[string]string{"who": "ann"}})
	require.Nil(t, rerr)
	assert.JSONEq(t, `{"messages":[{"role":"user","content":{"type":"text","text":"hello ann"}}]}`, string(res))
	_, rerr = c.call(t, "prompts/get", map[string]any{"name": "greet"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, rerr.Message, "who")
	_, rerr = c.call(t, "prompts/get", map[string]any{"name": "nope"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestCompletionIsBoundedToAHundredValues(t *testing.T) {
	s := newServer(t, nil)
	s.SetCompletionHandler(func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		vals := make([]string, 150)
		for i := range vals {
			vals[i] = req.Params.Argument.Value
		}
		return &mcp.CompleteResult{Completion: mcp.CompleteResultCompletion{Values: vals}}, nil
	})
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "a", "value": "v"}})
	require.Nil(t, rerr)
	var r mcp.CompleteResult
	require.NoError(t, json.Unmarshal(res, &r))
	assert.Len(t, r.Completion.Values, 100)
	assert.Equal(t, int64(150), *r.Completion.Total)
	assert.True(t, *r.Completion.HasMore)
}

func TestBatchesOnlyIn20250326(t *testing.T) {
	batch := []byte(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]`)
	for _, tc := range []struct {
		version string
		want    string
	}{
		{mcp.Version20250326, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{}}]`},
		{mcp.Version20250618, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are accepted only in sessions of protocol version 2025-03-26"}}`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			got := make(chan []byte, 1)
			c := dial(t, newServer(t, nil), clientOptions{version: tc.version})
			c.server.mu.Lock()
			c.server.onWrite = func(b []byte) {
				if bytes.HasPrefix(b, []byte(`[`)) || bytes.Contains(b, []byte(`"id":null`)) {
					got <- append([]byte(nil), b...)
				}
			}
			c.server.mu.Unlock()
			require.NoError(t, c.raw.Write(context.Background(), batch))
			select {
			case b := <-got:
				assert.JSONEq(t, tc.want, string(b))
			case <-time.After(5 * time.Second):
				t.Fatal("no answer to the batch")
			}
		})
	}
}

func TestContentIsDowngradedForOlderVersions(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "media"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Audio([]byte{1}, "audio/wav"), mcp.Link(&mcp.Resource{URI: "test://r", Name: "r"})},
			StructuredContent: json.RawMessage(`{"a":1}`)}, nil
	}))
	for _, tc := range []struct{ version, want string }{
		{mcp.Version20241105, `{"content":[{"type":"text","text":"[audio content (audio/wav) left out: this protocol version has no audio]"},{"type":"text","text":"Resource: test://r (r)"}]}`},
		{mcp.Version20250326, `{"content":[{"type":"audio","data":"AQ==","mimeType":"audio/wav"},{"type":"text","text":"Resource: test://r (r)"}]}`},
		{mcp.Version20250618, `{"content":[{"type":"audio","data":"AQ==","mimeType":"audio/wav"},{"type":"resource_link","uri":"test://r","name":"r"}],"structuredContent":{"a":1}}`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			c := dial(t, s, clientOptions{version: tc.version})
			res, rerr := c.call(t, "tools/call", map[string]any{"name": "media"})
			require.Nil(t, rerr)
			assert.JSONEq(t, tc.want, string(res))
		})
	}
}

func TestElicitationCompleteNeedsURLMode(t *testing.T) {
	s := newServer(t, nil)
	errs := make(chan error, 1)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "done"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		errs <- req.Session.ElicitationComplete(ctx, "el-1")
		return nil, nil
	}))
	c := dial(t, s, clientOptions{caps: json.RawMessage(`{"elicitation":{"url":{}}}`)})
	_, rerr := callTool(t, c, "done", nil)
	require.Nil(t, rerr)
	require.NoError(t, <-errs)
	n := c.note(t, "notifications/elicitation/complete")
	assert.JSONEq(t, `{"elicitationId":"el-1"}`, string(n.Params))

	c2 := dial(t, s, clientOptions{caps: json.RawMessage(`{"elicitation":{}}`)})
	_, rerr = callTool(t, c2, "done", nil)
	require.Nil(t, rerr)
	assert.ErrorIs(t, <-errs, mcp.ErrNotDeclared)
}

func TestLogHandlerNestsAttributesUnderTheirGroups(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "talk"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		l := req.Session.Logger("app").With("top", 1).WithGroup("req").With("id", "r1")
		l.Info("handled", "ms", 5)
		return nil, nil
	}))
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "logging/setLevel", map[string]any{"level": "debug"})
	require.Nil(t, rerr)
	_, rerr = c.call(t, "tools/call", map[string]any{"name": "talk"})
	require.Nil(t, rerr)
	n := c.note(t, "notifications/message")
	assert.JSONEq(t, `{"level":"info","logger":"app","data":{"message":"handled","top":1,"req":{"id":"r1","ms":5}}}`, string(n.Params))
}

func TestAResourceHandlerReturningNothingIsResourceNotFound(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://gone", Name: "gone"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return nil, nil
		}))
	c := dial(t, s, clientOptions{})
	_, rerr := c.call(t, "resources/read", map[string]any{"uri": "test://gone"})
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeResourceNotFound, rerr.Code)
}

func TestRegistrationsRejectIncompleteDefinitions(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	read := func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return nil, nil
	}
	prompt := func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) { return nil, nil }
	for name, tc := range map[string]struct {
		err  error
		want string
	}{
		"resource without uri":      {s.AddResource(&mcp.Resource{Name: "n"}, read), "uri, name and handler are required"},
		"resource without handler":  {s.AddResource(&mcp.Resource{URI: "a://b", Name: "n"}, nil), "uri, name and handler are required"},
		"template without name":     {s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "a://{x}"}, read), "name and handler are required"},
		"template that is not 6570": {s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "a://{x", Name: "n"}, read), `"a://{x"`},
		"prompt without name":       {s.AddPrompt(&mcp.Prompt{}, prompt), "name and handler are required"},
		"typed tool nil handler":    {mcp.AddTool[struct{}, any](s, &mcp.Tool{Name: "t"}, nil), "nil handler"},
	} {
		t.Run(name, func(t *testing.T) {
			require.Error(t, tc.err)
			assert.Contains(t, tc.err.Error(), tc.want)
		})
	}
}
