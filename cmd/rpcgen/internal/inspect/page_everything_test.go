package inspect_test

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// tour calls a tool of every kind examples/everything has in the page,
// answering its requests (elicitation, sampling, roots) in the page.
func tour(t *testing.T, ctx context.Context) {
	t.Helper()
	result := "#tool-result .call-result"
	steps := []struct {
		tool string
		fill map[string]string
		// answer answers the server's request in the page, if it makes one.
		answer []chromedp.Action[chromedp.Void]
		// want is a selector that must be visible, and text it must hold.
		want, text string
	}{
		{tool: "test_simple_text", want: result, text: "This is a simple text response for testing."},
		{tool: "test_image_content", want: result + " img"},
		{tool: "test_audio_content", want: result + " audio"},
		{tool: "test_embedded_resource", want: result, text: "resource"},
		{tool: "test_error_handling", want: result, text: "Tool error"},
		{tool: "test_tool_with_progress", want: "#activity .act-progress", text: "100"},
		{tool: "test_tool_with_logging", want: "#activity .act-info", text: "Tool execution"},
		{tool: "test_elicitation", fill: map[string]string{`#tool-detail input[name="message"]`: "Who are you?"},
			answer: []chromedp.Action[chromedp.Void]{
				chromedp.WaitVisible(chromedp.CSS(`#asks input[name="username"]`)),
				chromedp.SetValue(chromedp.CSS(`#asks input[name="username"]`), "ada"),
				chromedp.SetValue(chromedp.CSS(`#asks input[name="email"]`), "ada@example.com"),
				chromedp.Click(chromedp.CSS(`#asks button.primary`)),
			}, want: result, text: "ada@example.com"},
		{tool: "test_sampling", fill: map[string]string{`#tool-detail input[name="prompt"]`: "What is 2+2?"},
			answer: []chromedp.Action[chromedp.Void]{
				chromedp.WaitVisible(chromedp.CSS(`#asks textarea[name="reply"]`)),
				chromedp.SetValue(chromedp.CSS(`#asks textarea[name="reply"]`), "four, says the person"),
				chromedp.Click(chromedp.CSS(`#asks button.primary`)),
			}, want: result, text: "four, says the person"},
		{tool: "test_list_roots", answer: []chromedp.Action[chromedp.Void]{
			chromedp.WaitVisible(chromedp.CSS(`#asks textarea[name="roots"]`)),
			chromedp.SetValue(chromedp.CSS(`#asks textarea[name="roots"]`), "file:///work/project"),
			chromedp.Click(chromedp.CSS(`#asks button.primary`)),
		}, want: result, text: "file:///work/project"},
		{tool: "test_elicitation_url", answer: []chromedp.Action[chromedp.Void]{
			chromedp.WaitVisible(chromedp.CSS(`#asks a[rel="noopener noreferrer"]`)),
			chromedp.Click(chromedp.CSS(`#asks button.primary`)),
		}, want: result, text: "action=accept"},
	}
	for _, s := range steps {
		callTool(t, ctx, s.tool, s.fill)
		if s.answer != nil {
			require.NoError(t, chromedp.Do(ctx, s.answer...), s.tool)
		}
		require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(s.want))), s.tool)
		if s.text != "" {
			waitText(t, ctx, s.want, s.text)
		}
		// The next call starts from an empty result.
		require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("tool-result").replaceChildren()`)))
	}
	// Every message of the tour passed the validator.
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`traffic.findings`))
	require.NoError(t, err)
	assert.Zero(t, n, "findings in the traffic of examples/everything")
}

func TestPageToursEverythingOverStdioAndHTTPInBothEras(t *testing.T) {
	for _, tr := range []struct {
		name   string
		server func(*testing.T) mcp.ClientTransport
	}{{"stdio", everythingStdio}, {"http", everythingHTTP}} {
		for _, era := range []struct{ version, name string }{{"2025-11-25", "handshake"}, {"2026-07-28", "stateless"}} {
			t.Run(tr.name+" "+era.version, func(t *testing.T) {
				in := start(t, tr.server(t), era.version)
				ctx := open(t, in)
				assert.Equal(t, "everything", text(t, ctx, "#server-name"))
				assert.Equal(t, era.version, text(t, ctx, "#protocol-version"))
				assert.Equal(t, era.name, text(t, ctx, "#era"))
				// The tool's log messages come at the level asked for (in
				// 2026-07-28, with each later request).
				require.NoError(t, chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS("#log-level"), "debug"),
					chromedp.Evaluate[chromedp.Void](`document.getElementById("log-level").dispatchEvent(new Event("change"))`)))
				tour(t, ctx)
			})
		}
	}
}
