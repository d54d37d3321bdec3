package mcp_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/schema"
)

// statelessRequests lists the requests a client sends in 2026-07-28, as
// the project's schema index declares them.
func statelessRequests(t *testing.T) []string {
	t.Helper()
	raw, err := fs.ReadFile(schema.FS, "mcp/2026-07-28/index.json")
	require.NoError(t, err)
	var idx struct {
		Methods []struct {
			Name      string `json:"name"`
			Kind      string `json:"kind"`
			Direction string `json:"direction"`
		} `json:"methods"`
	}
	require.NoError(t, json.Unmarshal(raw, &idx))
	var out []string
	for _, m := range idx.Methods {
		if m.Kind != "notification" && m.Direction != "server-to-client" {
			out = append(out, m.Name)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// TestEveryStatelessRequestOfTheSchemaIsServed calls each request the
// 2026-07-28 schema declares with valid params on a server that has every
// feature: each gets its result (checked against the schemas by the test
// client), none the "method not found" of an unimplemented binding.
func TestEveryStatelessRequestOfTheSchemaIsServed(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "mem://a", Name: "a"},
		func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{{Value: mcp.TextResourceContents{URI: "mem://a", Text: "A"}}}}, nil
		}))
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "p"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.Text("hi")}}}, nil
		}))
	s.SetCompletionHandler(func(context.Context, *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		return &mcp.CompleteResult{Completion: mcp.CompleteResultCompletion{Values: []string{"x"}}}, nil
	})
	params := map[string]map[string]any{
		"server/discover":          nil,
		"tools/list":               nil,
		"tools/call":               {"name": "echo", "arguments": map[string]any{"text": "hi"}},
		"resources/list":           nil,
		"resources/templates/list": nil,
		"resources/read":           {"uri": "mem://a"},
		"prompts/list":             nil,
		"prompts/get":              {"name": "p"},
		"completion/complete":      {"ref": map[string]any{"type": "ref/prompt", "name": "p"}, "argument": map[string]any{"name": "a", "value": "x"}},
	}
	c := dialStateless(t, s)
	for _, method := range statelessRequests(t) {
		t.Run(method, func(t *testing.T) {
			if method == "subscriptions/listen" {
				t.Skip("a listen answers only when it ends: TestListenDeliversChangesUntilTheServerEndsIt drives it")
			}
			p, known := params[method]
			require.True(t, known, "the schema has a request this test does not call: add its params")
			raw, rerr := c.call(t, method, statelessParams(p, "", nil))
			require.Nil(t, rerr)
			assert.Equal(t, "complete", decodeMap(t, raw)["resultType"])
		})
	}
}
