package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
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
		name   string
		modern bool
		method string
		params map[string]any
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
			if tc.modern {
				c = dialModern(t, s)
				params = modernParams(params, "", nil)
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

// boundError cuts at a character boundary, leaves errors without an
// *rpc.Error alone, and replaces data that is not JSON, or that stays too
// long with its strings cut, by one marker string.
func TestBoundErrorCutsWhatItMust(t *testing.T) {
	long := strings.Repeat("a", 1023) + "é" + strings.Repeat("b", 100)
	cases := []struct {
		name     string
		in       error
		message  string
		data     string
		dataLike string
	}{
		{name: "not an rpc error", in: errors.New(long), message: long},
		{name: "cut before a split character", in: rpc.NewError(1, long), message: strings.Repeat("a", 1023) + "…[102 bytes cut]"},
		{name: "data not JSON", in: &rpc.Error{Code: 1, Message: "m", Data: json.RawMessage(strings.Repeat("x", 2000))}, message: "m", data: `"…[2000 bytes cut]"`},
		{name: "data of many short strings", in: &rpc.Error{Code: 1, Message: "m", Data: manyStrings(2000)}, message: "m", dataLike: "bytes cut]"},
		{name: "data strings and names cut", in: &rpc.Error{Code: 1, Message: "m", Data: mustJSON(t, map[string]any{long: []any{long, 1}})}, message: "m",
			data: mustJSONString(t, map[string]any{strings.Repeat("a", 1023) + "…[102 bytes cut]": []any{strings.Repeat("a", 1023) + "…[102 bytes cut]", 1}})},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := mcp.BoundErrorForTest(tc.in)
			assert.Equal(t, tc.message, messageOf(out))
			var rerr *rpc.Error
			if !errors.As(out, &rerr) {
				return
			}
			switch {
			case tc.data != "":
				assert.JSONEq(t, tc.data, string(rerr.Data))
			case tc.dataLike != "":
				assert.Contains(t, string(rerr.Data), tc.dataLike)
				assert.LessOrEqual(t, len(rerr.Data), 8<<10)
			}
		})
	}
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

// messageOf is an error's wire message, or its text when it is no
// *rpc.Error.
func messageOf(err error) string {
	var rerr *rpc.Error
	if errors.As(err, &rerr) {
		return rerr.Message
	}
	return err.Error()
}

// manyStrings is a JSON array of n short strings.
func manyStrings(n int) json.RawMessage {
	items := make([]string, n)
	for i := range items {
		items[i] = "short"
	}
	b, _ := json.Marshal(items)
	return b
}

func mustJSONString(t *testing.T, v any) string { return string(mustJSON(t, v)) }
