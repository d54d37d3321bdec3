package mcp_test

import (
	"context"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// echoServer has one tool, one resource and one prompt, so that their
// methods are offered and an unknown name reaches the feature's own error.
func echoServer(t *testing.T) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1"}, nil)
	echoTool(t, s)
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "echo://a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{}, nil
	}))
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "p"}, func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return &mcp.GetPromptResult{}, nil
	}))
	return s
}

// An error answer that would quote 64 KiB of what the client sent (an
// unknown URI, tool, prompt or method) quotes at most about a kilobyte of
// it, marked as cut, in its message and in each string of its data, in
// both eras.
func TestErrorAnswersQuoteABoundedExcerptOfTheInput(t *testing.T) {
	huge := strings.Repeat("é", 32<<10) // 64 KiB, two bytes a character
	cases := []struct {
		name      string
		stateless bool
		method    string
		params    map[string]any
	}{
		{"unknown resource", false, "resources/read", map[string]any{"uri": "echo://" + huge}},
		{"unknown tool", false, "tools/call", map[string]any{"name": huge}},
		{"unknown prompt", false, "prompts/get", map[string]any{"name": huge}},
		{"unknown method", false, huge, map[string]any{}},
		{"unknown resource, stateless", true, "resources/read", map[string]any{"uri": "echo://" + huge}},
		{"unknown tool, stateless", true, "tools/call", map[string]any{"name": huge}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := echoServer(t)
			c := dial(t, s, clientOptions{})
			params := tc.params
			if tc.stateless {
				c = dialStateless(t, s)
				params = statelessParams(params, "", nil)
			}
			_, rerr := c.call(t, tc.method, params)
			require.NotNil(t, rerr)
			assert.LessOrEqual(t, len(rerr.Message), 1100, "the message is cut")
			assert.True(t, strings.HasSuffix(rerr.Message, "bytes cut]"), rerr.Message[:min(len(rerr.Message), 80)])
			assert.GreaterOrEqual(t, cutCount(t, rerr.Message), len(huge)-1024, "the marker counts the bytes cut from the input, once")
			assert.LessOrEqual(t, len(rerr.Data), 8<<10, "the data is cut")
			if len(rerr.Data) > 0 {
				assert.True(t, json.Valid(rerr.Data), "the data stays JSON")
			}
			if strings.HasPrefix(tc.name, "unknown resource") {
				uri, _ := errData(t, rerr)["uri"].(string)
				assert.True(t, strings.HasPrefix(uri, "echo://éé"), "the data keeps the start of the URI")
				assert.True(t, strings.HasSuffix(uri, "bytes cut]"), "and marks the cut")
				assert.GreaterOrEqual(t, cutCount(t, uri), len(huge)-1024, "the marker counts the bytes cut from the URI, once")
			}
		})
	}
}

// An error within the bound is answered exactly as the server made it.
func TestAShortErrorAnswerIsWhole(t *testing.T) {
	c := dial(t, echoServer(t), clientOptions{})
	_, rerr := c.call(t, "resources/read", map[string]any{"uri": "echo://b"})
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeResourceNotFound, rerr.Code)
	assert.Equal(t, "resource not found: echo://b", rerr.Message)
	assert.JSONEq(t, `{"uri":"echo://b"}`, string(rerr.Data))
}

// cutCount reads N from the "…[N bytes cut]" marker that ends s.
func cutCount(t *testing.T, s string) int {
	t.Helper()
	m := regexp.MustCompile(`…\[(\d+) bytes cut\]$`).FindStringSubmatch(s)
	require.NotNil(t, m, "no cut marker at the end")
	n, err := strconv.Atoi(m[1])
	require.NoError(t, err)
	return n
}

// A message the session's HTTP endpoint refuses before any method runs (an
// unknown 64 KiB member name: -32600) is answered, and stored for
// resumption, with a bounded excerpt of the name.
func TestARefusedMessageIsAnsweredAndStoredWithABoundedExcerpt(t *testing.T) {
	hs := newHoldServer(t, nil, nil)
	f := hs.f
	session := f.initialize(mcp.Version20251125)
	before := mcp.EventBytesForTest(f.srv, session)
	huge := strings.Repeat("m", 64<<10)
	resp := f.post(session, `{"jsonrpc":"2.0","id":5,"method":"ping","`+huge+`":1}`)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	assert.Less(t, len(body), 8<<10, "the answer is bounded: %d bytes", len(body))
	assert.True(t, strings.Contains(string(body), "bytes cut]"), "the cut is marked")
	assert.True(t, strings.Contains(string(body), `"id":5`), "the id is echoed")
	assert.Less(t, mcp.EventBytesForTest(f.srv, session)-before, int64(8<<10), "what is stored is bounded too")
}
