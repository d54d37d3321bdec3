package inspect_test

import (
	"testing"

	"github.com/chromedp/chromedp"
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
