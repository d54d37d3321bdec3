package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// A handler's InputRequired in a session over Streamable HTTP: the server
// asks on the call's own stream, the client's answer is accepted at once,
// and the call's response ends the stream — for a prompt as for a tool.
func TestInputRequiredOverHTTPSession(t *testing.T) {
	f := newFixture(t, nil)
	require.NoError(t, f.srv.AddPrompt(&mcp.Prompt{Name: "p"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if r, ok := req.Sampled("q"); ok {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: "user", Content: mcp.Text(r.Model)}}}, nil
		}
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"q": mcp.SampleInput(&mcp.CreateMessageRequestParams{MaxTokens: 5})}}
	}))
	require.NoError(t, f.srv.AddTool(&mcp.Tool{Name: "t"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Sampled("q"); ok {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(r.Model)}}, nil
		}
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"q": mcp.SampleInput(&mcp.CreateMessageRequestParams{MaxTokens: 5})}}
	}))
	session := f.initialize(mcp.Version20251125)
	for _, call := range []string{
		`{"jsonrpc":"2.0","id":"c1","method":"prompts/get","params":{"name":"p"}}`,
		`{"jsonrpc":"2.0","id":"c2","method":"tools/call","params":{"name":"t"}}`,
	} {
		resp := f.post(session, call)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		r := newSSE(t, resp)
		var final map[string]any
		for final == nil {
			ev, err := r.next()
			require.NoError(t, err)
			if len(ev.Data) == 0 {
				continue
			}
			m := decode(t, ev.Data)
			if m.Method == "sampling/createMessage" {
				answer := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"x"},"model":"m1"}}`, m.ID)
				assert.Equal(t, http.StatusAccepted, f.post(session, answer).StatusCode)
				continue
			}
			final = m.Result
			require.NotNil(t, final, string(ev.Data))
		}
		assert.Contains(t, fmt.Sprint(final), "m1")
		_, err := r.next()
		assert.ErrorIs(t, err, io.EOF, "the stream ends after the response")
	}
}
