package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// richServer offers five tools, three resources, a template, three prompts
// and completions, two to a page.
func richServer(t *testing.T) *mcp.Server {
	t.Helper()
	s := newServer(t, &mcp.ServerOptions{PageSize: 2, HasResources: true})
	for i := range 4 {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: fmt.Sprintf("tool-%d", i), InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(req.Params.Name)}}, nil
			}))
	}
	for i := range 3 {
		require.NoError(t, s.AddResource(&mcp.Resource{URI: fmt.Sprintf("test://r/%d", i), Name: fmt.Sprintf("r%d", i)},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", "text of "+req.Params.URI)}}, nil
			}))
	}
	require.NoError(t, s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "test://item/{id}", Name: "item"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", "item "+mcp.TemplateVars(ctx)["id"])}}, nil
		}))
	for i := range 3 {
		require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: fmt.Sprintf("p%d", i), Arguments: []mcp.PromptArgument{{Name: "who"}}},
			func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
				return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.Text("hello " + req.Params.Arguments["who"])}}}, nil
			}))
	}
	s.SetCompletionHandler(func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		return &mcp.CompleteResult{Completion: mcp.CompleteResultCompletion{Values: []string{req.Params.Argument.Value + "1", req.Params.Argument.Value + "2"}}}, nil
	})
	return s
}

// everyVersion lists each protocol version with the client options that
// make a session of it.
var everyVersion = []string{mcp.Version20260728, mcp.Version20251125, mcp.Version20250618, mcp.Version20250326, mcp.Version20241105}

// versionOptions returns client options that speak only version v.
func versionOptions(v string) *mcp.ClientOptions {
	return &mcp.ClientOptions{ProtocolVersions: []string{v}}
}

// Every typed method works in every version, against our server; the
// messages of each session validate against the version's schemas.
func TestTypedMethodsInEveryVersion(t *testing.T) {
	for _, v := range everyVersion {
		t.Run(v, func(t *testing.T) {
			s := connect(t, richServer(t), versionOptions(v)).session
			ctx := bg(t)
			require.Equal(t, v, s.ProtocolVersion())

			page, err := s.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Len(t, page.Tools, 2)
			assert.NotEmpty(t, page.NextCursor)
			var names []string
			for tool, err := range s.Tools(ctx) {
				require.NoError(t, err)
				names = append(names, tool.Name)
			}
			assert.Equal(t, []string{"echo", "tool-0", "tool-1", "tool-2", "tool-3"}, names)

			res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: "tool-2"})
			require.NoError(t, err)
			assert.Equal(t, "tool-2", toolText(t, res))

			var uris []string
			for r, err := range s.Resources(ctx) {
				require.NoError(t, err)
				uris = append(uris, r.URI)
			}
			assert.Equal(t, []string{"test://r/0", "test://r/1", "test://r/2"}, uris)
			var templates []string
			for tmpl, err := range s.ResourceTemplates(ctx) {
				require.NoError(t, err)
				templates = append(templates, tmpl.URITemplate)
			}
			assert.Equal(t, []string{"test://item/{id}"}, templates)
			read, err := s.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "test://item/42"})
			require.NoError(t, err)
			require.Len(t, read.Contents, 1)
			assert.Contains(t, string(mustJSON(t, read.Contents[0])), `"text":"item 42"`)

			var prompts []string
			for p, err := range s.Prompts(ctx) {
				require.NoError(t, err)
				prompts = append(prompts, p.Name)
			}
			assert.Equal(t, []string{"p0", "p1", "p2"}, prompts)
			got, err := s.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "p1", Arguments: map[string]string{"who": "ann"}})
			require.NoError(t, err)
			assert.Contains(t, string(mustJSON(t, got.Messages[0].Content)), "hello ann")

			if v != mcp.Version20241105 { // completions are gated from 2025-03-26
				comp, err := s.Complete(ctx, &mcp.CompleteRequestParams{
					Ref:      mcp.CompleteRequestParamsRef{Value: mcp.PromptReference{Name: "p1"}},
					Argument: mcp.CompleteRequestParamsArgument{Name: "who", Value: "a"},
				})
				require.NoError(t, err)
				assert.Equal(t, []string{"a1", "a2"}, comp.Completion.Values)
			}
			require.NoError(t, s.SetLoggingLevel(ctx, "info"))

			if v == mcp.Version20260728 {
				d, err := s.Discover(ctx)
				require.NoError(t, err)
				assert.Contains(t, d.SupportedVersions, v)
				assert.ErrorIs(t, s.Ping(ctx), mcp.ErrUnsupportedMethod)
				assert.ErrorIs(t, s.Subscribe(ctx, "test://r/0"), mcp.ErrUnsupportedMethod)
				assert.ErrorIs(t, s.NotifyRootsListChanged(ctx), mcp.ErrUnsupportedMethod)
				return
			}
			require.NoError(t, s.Ping(ctx))
			_, err = s.Discover(ctx)
			assert.ErrorIs(t, err, mcp.ErrUnsupportedMethod)
			assert.ErrorIs(t, s.Listen(ctx, nil), mcp.ErrUnsupportedMethod)
		})
	}
}

// A method the negotiated version lacks fails without a byte sent.
func TestAMethodTheVersionLacksIsNotSent(t *testing.T) {
	f := connect(t, newServer(t, nil), nil)
	before := len(f.wire.sent())
	err := f.session.Ping(bg(t))
	var ume *mcp.UnsupportedMethodError
	require.True(t, errors.As(err, &ume))
	assert.Equal(t, "ping", ume.Method)
	assert.Equal(t, mcp.Version20260728, ume.Version)
	assert.Contains(t, err.Error(), "nothing was sent")
	assert.Len(t, f.wire.sent(), before)
}

// Subscribe and Unsubscribe in a handshake session; OnResourceUpdated is
// told of a change.
func TestSubscribeDeliversResourceUpdates(t *testing.T) {
	srv := richServer(t)
	updated := make(chan string, 1)
	f := connect(t, srv, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125},
		OnResourceUpdated: func(_ context.Context, p *mcp.ResourceUpdatedNotificationParams) { updated <- p.URI }})
	if caps := f.session.ServerCapabilities(); caps.Resources == nil || caps.Resources.Subscribe == nil || !*caps.Resources.Subscribe {
		t.Skip("the server does not offer resources.subscribe")
	}
	require.NoError(t, f.session.Subscribe(bg(t), "test://r/1"))
	srv.ResourceUpdated(bg(t), "test://r/1")
	assert.Equal(t, "test://r/1", receive(t, updated))
	require.NoError(t, f.session.Unsubscribe(bg(t), "test://r/1"))
}

// The typed methods refuse nil params where the method needs some.
func TestTypedMethodsNeedTheirParams(t *testing.T) {
	s := connect(t, newServer(t, nil), nil).session
	_, err := s.CallTool(bg(t), nil)
	assert.Error(t, err)
	_, err = s.ReadResource(bg(t), nil)
	assert.Error(t, err)
	_, err = s.GetPrompt(bg(t), nil)
	assert.Error(t, err)
	_, err = s.Complete(bg(t), nil)
	assert.Error(t, err)
	assert.Error(t, s.SetLoggingLevel(bg(t), "loud"))
}

// An iterator stops at the first error and yields it.
func TestIteratorsYieldTheirError(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "initialize":
			return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"next"}`), nil
		}
		return nil, nil
	})
	c := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}})
	s, err := c.Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithCancel(bg(t))
	defer cancel()
	n := 0
	var last error
	for _, err := range s.Tools(ctx) {
		if err != nil {
			last = err
			break
		}
		n++
		if n == 3 {
			cancel()
		}
	}
	assert.Equal(t, 3, n)
	assert.ErrorIs(t, last, context.Canceled)
}

// A result that breaks the version's schema fails the call with an
// *InvalidResultError naming the method.
func TestAnInvalidResultFailsTheCall(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "initialize":
			return json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"s","version":"1"}}`), nil
		case "tools/list":
			return json.RawMessage(`{"tools":[{"name":"a"}]}`), nil // no inputSchema
		}
		return nil, nil
	})
	s, err := mcp.NewClient(nil, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}}).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.ListTools(bg(t), nil)
	var ire *mcp.InvalidResultError
	require.True(t, errors.As(err, &ire), "got %v", err)
	assert.Equal(t, "tools/list", ire.Method)
	assert.Equal(t, mcp.Version20251125, ire.Version)
	assert.Contains(t, err.Error(), "inputSchema")
}

// mustJSON encodes v.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// receive waits for a value.
func receive[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	ctx := bg(t)
	select {
	case v := <-ch:
		return v
	case <-ctx.Done():
		t.Fatal("nothing arrived")
		var zero T
		return zero
	}
}

// Over HTTP a stateless client leaves out the tools whose x-mcp-header
// annotations break the rules; over a stream it keeps them.
func TestToolsWithInvalidHeaderAnnotationsAreLeftOutOverHTTP(t *testing.T) {
	tools := `{"resultType":"complete","ttlMs":0,"cacheScope":"private","tools":[` +
		`{"name":"good","inputSchema":{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}},` +
		`{"name":"empty","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":""}}}},` +
		`{"name":"object","inputSchema":{"type":"object","properties":{"a":{"type":"object","x-mcp-header":"A"}}}},` +
		`{"name":"twice","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"X"},"b":{"type":"string","x-mcp-header":"x"}}}},` +
		`{"name":"space","inputSchema":{"type":"object","properties":{"a":{"type":"string","x-mcp-header":"A B"}}}}]}`
	answer := func(method string, params json.RawMessage) (any, error) {
		if method == "server/discover" {
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private"}`), nil
		}
		return json.RawMessage(tools), nil
	}
	for _, overHTTP := range []bool{true, false} {
		tr, _ := fakeServer(t, answer)
		var ct mcp.ClientTransport = tr
		if overHTTP {
			ct = mcp.FakeHTTPTransport(tr.Transport)
		}
		s, err := mcp.NewClient(nil, nil).Connect(bg(t), ct)
		require.NoError(t, err)
		res, err := s.ListTools(bg(t), nil)
		require.NoError(t, err)
		var names []string
		for _, tool := range res.Tools {
			names = append(names, tool.Name)
		}
		if overHTTP {
			assert.Equal(t, []string{"good"}, names)
		} else {
			assert.Len(t, names, 5)
		}
		s.Close()
	}
}

// The caching hints of a stateless result are read from its Extra members.
func TestResultCacheHintReadsTheHints(t *testing.T) {
	srv := richServer(t)
	s := connect(t, srv, nil).session
	res, err := s.ListTools(bg(t), nil)
	require.NoError(t, err)
	hint, ok := mcp.ResultCacheHint(res.Extra)
	require.True(t, ok)
	assert.Equal(t, mcp.CacheHint{Scope: mcp.CachePrivate}, hint)

	hint, ok = mcp.ResultCacheHint(map[string]json.RawMessage{"ttlMs": json.RawMessage(`1500`), "cacheScope": json.RawMessage(`"public"`)})
	require.True(t, ok)
	assert.Equal(t, mcp.CacheHint{TTL: 1500 * time.Millisecond, Scope: mcp.CachePublic}, hint)

	handshake := connect(t, srv, versionOptions(mcp.Version20251125)).session
	res, err = handshake.ListTools(bg(t), nil)
	require.NoError(t, err)
	_, ok = mcp.ResultCacheHint(res.Extra)
	assert.False(t, ok)
}
