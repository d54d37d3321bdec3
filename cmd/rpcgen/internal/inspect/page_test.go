package inspect_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPageShowsTheServerAndCallsATool(t *testing.T) {
	in := start(t, greeter(), "2025-11-25")
	ctx := open(t, in)
	assert.Equal(t, "greeter", text(t, ctx, "#server-name"))
	assert.Equal(t, "2025-11-25", text(t, ctx, "#protocol-version"))
	assert.Equal(t, "handshake", text(t, ctx, "#era"))
	assert.Equal(t, "Say hello.", text(t, ctx, "#instructions"))

	callTool(t, ctx, "greet", map[string]string{`#tool-detail input[name="name"]`: "Ada"})
	waitText(t, ctx, "#tool-result", "hello, Ada")
	waitText(t, ctx, "#tool-result", "Matches the output schema.")
	n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`traffic.all.length`))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, n, 6)
}

func TestPageWorksFromTheKeyboard(t *testing.T) {
	in := start(t, greeter(), "2025-11-25")
	ctx := open(t, in)
	// The tabs: arrow keys move between them.
	require.NoError(t, chromedp.Do(ctx, chromedp.Focus(chromedp.CSS("#tab-server")), chromedp.KeyEvent(kb.ArrowRight)))
	waitText(t, ctx, `[role="tab"][aria-selected="true"]`, "Tools")
	focused, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.activeElement.id`))
	require.NoError(t, err)
	assert.Equal(t, "tab-tools", focused)

	// The traffic: Home, then the arrow keys choose a message.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#tab-traffic")),
		chromedp.WaitVisible(chromedp.CSS("#traffic-list .row")),
		chromedp.Focus(chromedp.CSS("#traffic-list")),
		chromedp.KeyEvent(kb.Home), chromedp.KeyEvent(kb.ArrowDown)))
	waitText(t, ctx, "#traffic-detail h2", "#2 server → client")
	waitText(t, ctx, "#traffic-detail", "No findings")
	selected, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("traffic-list").getAttribute("aria-activedescendant")`))
	require.NoError(t, err)
	assert.Equal(t, "msg-2", selected)
}
