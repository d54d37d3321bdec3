package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// versionedServer registers one of each kind of primitive, each using every
// optional field some version added.
func versionedServer(t *testing.T) *mcp.Server {
	t.Helper()
	icons := []mcp.Icon{{Src: "data:image/png;base64,AA=="}}
	meta := mcp.Meta{"com.example/k": json.RawMessage(`1`)}
	prio := 0.5
	notes := &mcp.Annotations{Priority: &prio, LastModified: "2025-01-01T00:00:00Z"}
	yes := true
	s := mcp.NewServer(&mcp.Implementation{Name: "v", Version: "1", Title: "Versioned", Description: "d",
		Icons: icons, WebsiteURL: "https://example.com"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "t", Title: "T", Icons: icons, Meta: meta,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: &yes},
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{
				Content:           []mcp.ContentBlock{{Value: mcp.TextContent{Text: "x", Meta: meta, Annotations: notes}}},
				StructuredContent: json.RawMessage(`{"n":1}`)}, nil
		}))
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://r", Name: "r", Title: "R", Icons: icons, Meta: meta, Annotations: notes},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{
				{Value: mcp.TextResourceContents{URI: "test://r", Text: "r", Meta: meta}}}}, nil
		}))
	require.NoError(t, s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://t/{x}", Name: "tt", Title: "TT", Icons: icons, Meta: meta},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "", "t")}}, nil
		}))
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "p", Title: "P", Icons: icons, Meta: meta,
		Arguments: []mcp.PromptArgument{{Name: "a", Title: "A"}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser,
				Content: mcp.ContentBlock{Value: mcp.TextContent{Text: "p", Meta: meta, Annotations: notes}}}}}, nil
		}))
	s.SetCompletionHandler(func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		return &mcp.CompleteResult{Completion: mcp.CompleteResultCompletion{Values: []string{"one"}}}, nil
	})
	return s
}

// has reports whether the JSON value has a member at path: object member
// names and array indexes.
func has(t *testing.T, raw json.RawMessage, path ...any) bool {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	for _, step := range path {
		switch k := step.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return false
			}
			if v, ok = m[k]; !ok {
				return false
			}
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				return false
			}
			v = a[k]
		}
	}
	return true
}

// Each optional member a version added reaches only clients of that
// version or later; the stateless version has them all.
func TestResultsHaveOnlyTheMembersOfTheSessionsVersion(t *testing.T) {
	type probe struct {
		method string
		params map[string]any
		path   []any
		since  string
	}
	probes := []probe{
		{"tools/list", nil, []any{"tools", 0, "annotations"}, mcp.Version20250326},
		{"tools/list", nil, []any{"tools", 0, "title"}, mcp.Version20250618},
		{"tools/list", nil, []any{"tools", 0, "_meta"}, mcp.Version20250618},
		{"tools/list", nil, []any{"tools", 0, "outputSchema"}, mcp.Version20250618},
		{"tools/list", nil, []any{"tools", 0, "icons"}, mcp.Version20251125},
		{"tools/list", nil, []any{"tools", 0, "inputSchema"}, mcp.Version20241105},
		{"tools/list", nil, []any{"resultType"}, mcp.Version20260728},
		{"tools/list", nil, []any{"ttlMs"}, mcp.Version20260728},
		{"tools/list", nil, []any{"cacheScope"}, mcp.Version20260728},
		{"tools/list", nil, []any{"_meta", "io.modelcontextprotocol/serverInfo"}, mcp.Version20260728},
		{"tools/call", map[string]any{"name": "t"}, []any{"resultType"}, mcp.Version20260728},
		{"tools/call", map[string]any{"name": "t"}, []any{"structuredContent"}, mcp.Version20250618},
		{"tools/call", map[string]any{"name": "t"}, []any{"content", 0, "_meta"}, mcp.Version20250618},
		{"tools/call", map[string]any{"name": "t"}, []any{"content", 0, "annotations", "lastModified"}, mcp.Version20250618},
		{"tools/call", map[string]any{"name": "t"}, []any{"content", 0, "annotations", "priority"}, mcp.Version20241105},
		{"resources/list", nil, []any{"resources", 0, "title"}, mcp.Version20250618},
		{"resources/list", nil, []any{"resources", 0, "_meta"}, mcp.Version20250618},
		{"resources/list", nil, []any{"resources", 0, "annotations", "lastModified"}, mcp.Version20250618},
		{"resources/list", nil, []any{"resources", 0, "annotations", "priority"}, mcp.Version20241105},
		{"resources/list", nil, []any{"resources", 0, "icons"}, mcp.Version20251125},
		{"resources/templates/list", nil, []any{"resourceTemplates", 0, "title"}, mcp.Version20250618},
		{"resources/templates/list", nil, []any{"resourceTemplates", 0, "_meta"}, mcp.Version20250618},
		{"resources/templates/list", nil, []any{"resourceTemplates", 0, "icons"}, mcp.Version20251125},
		{"resources/read", map[string]any{"uri": "test://r"}, []any{"contents", 0, "_meta"}, mcp.Version20250618},
		{"prompts/list", nil, []any{"prompts", 0, "title"}, mcp.Version20250618},
		{"prompts/list", nil, []any{"prompts", 0, "_meta"}, mcp.Version20250618},
		{"prompts/list", nil, []any{"prompts", 0, "arguments", 0, "title"}, mcp.Version20250618},
		{"prompts/list", nil, []any{"prompts", 0, "icons"}, mcp.Version20251125},
		{"prompts/get", map[string]any{"name": "p"}, []any{"messages", 0, "content", "_meta"}, mcp.Version20250618},
		{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "p"},
			"argument": map[string]any{"name": "a", "value": ""}}, []any{"completion", "values", 0}, mcp.Version20241105},
	}
	s := versionedServer(t)
	for _, v := range everyVersion {
		t.Run(v, func(t *testing.T) {
			stateless := v == mcp.Version20260728
			c := dial(t, s, clientOptions{version: v, noInit: stateless})
			for _, p := range probes {
				params := p.params
				if stateless {
					params = statelessParams(p.params, "", nil)
				}
				res, rerr := c.call(t, p.method, params)
				require.Nil(t, rerr, "%s: %v", p.method, rerr)
				assert.Equal(t, v >= p.since, has(t, res, p.path...), "%s %v (since %s): %s", p.method, p.path, p.since, res)
			}
		})
	}
}

// The initialize result announces what the session's version has.
func TestTheInitializeResultHasOnlyTheMembersOfTheVersion(t *testing.T) {
	probes := []struct {
		path  []any
		since string
	}{
		{[]any{"capabilities", "completions"}, mcp.Version20250326},
		{[]any{"capabilities", "tools"}, mcp.Version20241105},
		{[]any{"serverInfo", "title"}, mcp.Version20250618},
		{[]any{"serverInfo", "description"}, mcp.Version20251125},
		{[]any{"serverInfo", "icons"}, mcp.Version20251125},
		{[]any{"serverInfo", "websiteUrl"}, mcp.Version20251125},
	}
	s := versionedServer(t)
	for _, v := range mcp.SupportedVersions() {
		t.Run(v, func(t *testing.T) {
			c := dial(t, s, clientOptions{version: v, noInit: true})
			res, rerr := c.call(t, "initialize", map[string]any{"protocolVersion": v, "capabilities": map[string]any{},
				"clientInfo": map[string]any{"name": "t", "version": "1"}})
			require.Nil(t, rerr)
			for _, p := range probes {
				assert.Equal(t, v >= p.since, has(t, res, p.path...), "%v (since %s): %s", p.path, p.since, res)
			}
		})
	}
}

// Requests the server sends the client fit the session's version too: a
// form elicitation has no mode member before 2025-11-25, and sampling with
// tools needs 2025-11-25 even when the client declares sampling.tools.
func TestRequestsToTheClientFitTheSessionsVersion(t *testing.T) {
	for _, tc := range []struct {
		version      string
		modeSent     bool
		samplingTool bool
	}{
		{mcp.Version20250618, false, false},
		{mcp.Version20251125, true, true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			s := newServer(t, nil)
			errs := make(chan error, 2)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				_, err := req.Session.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Mode: "form", Message: "name?",
					RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}})
				errs <- err
				_, err = req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 1,
					Messages: []mcp.SamplingMessage{{Role: "user", Content: mcp.SamplingMessageContent{Value: mcp.TextContent{Text: "hi"}}}},
					Tools:    []mcp.Tool{{Name: "x", InputSchema: json.RawMessage(`{"type":"object"}`)}}})
				errs <- err
				return nil, nil
			}))
			c := dial(t, s, clientOptions{version: tc.version, caps: json.RawMessage(`{"sampling":{"tools":{}},"elicitation":{}}`), callbacks: fakeClient{}})
			_, rerr := callTool(t, c, "ask", nil)
			require.Nil(t, rerr)
			require.NoError(t, <-errs, "the form elicitation is sent")
			if tc.samplingTool {
				assert.NoError(t, <-errs)
			} else {
				assert.ErrorIs(t, <-errs, mcp.ErrNotDeclared, "no sampling with tools before 2025-11-25")
			}
			var elicit, sampling []byte
			for _, m := range c.server.messages() {
				var msg struct{ Method string }
				require.NoError(t, json.Unmarshal(m, &msg))
				switch msg.Method {
				case "elicitation/create":
					elicit = m
				case "sampling/createMessage":
					sampling = m
				}
			}
			require.NotNil(t, elicit)
			assert.Equal(t, tc.modeSent, has(t, elicit, "params", "mode"), string(elicit))
			assert.Equal(t, tc.samplingTool, sampling != nil, "a refused request is not sent")
		})
	}
}

// Structured output of any JSON type exists only in 2026-07-28: before,
// a tool whose output schema is not an object has no outputSchema, and
// its result carries the value as text.
func TestNonObjectStructuredOutputOnlyInTheStatelessVersion(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "nums", OutputSchema: json.RawMessage(`{"type":"array","items":{"type":"integer"}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(`[1,2]`)}, nil
		}))
	for _, v := range everyVersion {
		t.Run(v, func(t *testing.T) {
			stateless := v == mcp.Version20260728
			c := dial(t, s, clientOptions{version: v, noInit: stateless})
			params := func(p map[string]any) any {
				if stateless {
					return statelessParams(p, "", nil)
				}
				return p
			}
			list, rerr := c.call(t, "tools/list", params(nil))
			require.Nil(t, rerr)
			assert.Equal(t, stateless, has(t, list, "tools", 0, "outputSchema"), string(list))
			res, rerr := c.call(t, "tools/call", params(map[string]any{"name": "nums"}))
			require.Nil(t, rerr)
			if stateless {
				assert.JSONEq(t, `[1,2]`, string(mustMember(t, res, "structuredContent")))
				return
			}
			assert.False(t, has(t, res, "structuredContent"), string(res))
			assert.JSONEq(t, `[{"type":"text","text":"[1,2]"}]`, string(mustMember(t, res, "content")))
		})
	}
}

// mustMember returns a member of a JSON object.
func mustMember(t *testing.T, raw json.RawMessage, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &m))
	v, ok := m[name]
	require.True(t, ok, "no %s in %s", name, raw)
	return v
}

// A client pinned to a version declares only what that version has: no
// elicitation before 2025-06-18; before 2025-11-25 an empty elicitation
// object (form mode, the only one) and no sampling.tools.
func TestAPinnedClientDeclaresTheCapabilitiesOfItsVersion(t *testing.T) {
	for _, tc := range []struct {
		version string
		want    string
	}{
		{mcp.Version20241105, `{"sampling":{},"roots":{"listChanged":true}}`},
		{mcp.Version20250326, `{"sampling":{},"roots":{"listChanged":true}}`},
		{mcp.Version20250618, `{"sampling":{},"elicitation":{},"roots":{"listChanged":true}}`},
		{mcp.Version20251125, `{"sampling":{"tools":{}},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}}`},
	} {
		t.Run(tc.version, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
			opts := handlersOptions(tc.version)
			opts.SamplingTools, opts.ElicitURL = true, true
			opts.ListRoots = func(ctx context.Context) (*mcp.ListRootsResult, error) { return &mcp.ListRootsResult{}, nil }
			connect(t, s, opts)
			sessions := s.Sessions()
			require.Len(t, sessions, 1)
			assert.JSONEq(t, tc.want, string(sessions[0].ClientCapabilities()))
		})
	}
}

// A progress notification carries its message from 2025-03-26 on.
func TestProgressCarriesAMessageFrom20250326(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "work"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, req.Progress(ctx, 1, 2, "half")
	}))
	for _, v := range mcp.SupportedVersions() {
		t.Run(v, func(t *testing.T) {
			c := dial(t, s, clientOptions{version: v})
			_, rerr := c.call(t, "tools/call", map[string]any{"name": "work", "_meta": map[string]any{"progressToken": "p"}})
			require.Nil(t, rerr)
			n := c.note(t, "notifications/progress")
			assert.Equal(t, v >= mcp.Version20250326, has(t, n.Params, "message"), string(n.Params))
			assert.True(t, has(t, n.Params, "total"))
		})
	}
}

// Our client's answer to roots/list has root _meta only from 2025-06-18.
func TestAPinnedClientAnswersRootsInItsVersionsShape(t *testing.T) {
	for _, v := range mcp.SupportedVersions() {
		t.Run(v, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "roots"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				res, err := req.Session.ListRoots(ctx)
				if err != nil {
					return nil, err
				}
				b, err := json.Marshal(res)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(string(b))}}, nil
			}))
			opts := versionOptions(v)
			opts.ListRoots = func(ctx context.Context) (*mcp.ListRootsResult, error) {
				return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///r", Meta: mcp.Meta{"com.example/k": json.RawMessage(`1`)}}}}, nil
			}
			cs := connect(t, s, opts).session
			res, err := cs.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "roots"})
			require.NoError(t, err)
			text := chClientText(t, res)
			assert.Equal(t, v >= mcp.Version20250618, has(t, json.RawMessage(text), "roots", 0, "_meta"), text)
			assert.True(t, has(t, json.RawMessage(text), "roots", 0, "uri"), text)
		})
	}
}

// Our client's sampling answer fits the server's version: audio becomes
// text before 2025-03-26, content _meta is left out before 2025-06-18.
func TestAPinnedClientAnswersSamplingInItsVersionsShape(t *testing.T) {
	for _, tc := range []struct {
		version   string
		audio     bool
		audioMeta bool
	}{
		{mcp.Version20241105, false, false},
		{mcp.Version20250326, true, false},
		{mcp.Version20250618, true, true},
	} {
		t.Run(tc.version, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 1,
					Messages: []mcp.SamplingMessage{{Role: "user", Content: mcp.SamplingMessageContent{Value: mcp.TextContent{Text: "hi"}}}}})
				if err != nil {
					return nil, err
				}
				b, err := json.Marshal(res)
				if err != nil {
					return nil, err
				}
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(string(b))}}, nil
			}))
			opts := versionOptions(tc.version)
			opts.CreateMessage = func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
				return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: mcp.CreateMessageResultContent{
					Value: mcp.AudioContent{Data: "AQ==", MIMEType: "audio/wav", Meta: mcp.Meta{"com.example/k": json.RawMessage(`1`)}}}}, nil
			}
			cs := connect(t, s, opts).session
			res, err := cs.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "ask"})
			require.NoError(t, err)
			text := json.RawMessage(chClientText(t, res))
			var got struct {
				Content struct{ Type string }
			}
			require.NoError(t, json.Unmarshal(text, &got))
			if tc.audio {
				assert.Equal(t, "audio", got.Content.Type, string(text))
			} else {
				assert.Equal(t, "text", got.Content.Type, string(text))
			}
			assert.Equal(t, tc.audioMeta, has(t, text, "content", "_meta"), string(text))
		})
	}
}
