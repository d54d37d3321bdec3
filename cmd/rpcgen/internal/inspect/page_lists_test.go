package inspect_test

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

func TestPageGetsPromptsReadsResourcesAndTemplatesWithCompletion(t *testing.T) {
	in := start(t, everythingStdio(t), "2025-11-25")
	ctx := open(t, in)
	screenshot(t, ctx, "server")

	// A prompt, its argument completed from the server's suggestions.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#tab-prompts")),
		chromedp.Click(chromedp.CSS(`#prompt-list button[data-name="test_prompt_with_arguments"]`), chromedp.NodeVisible),
		chromedp.SendKeys(chromedp.CSS(`#prompt-detail input[name="arg1"]`), "pa")))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll("#prompt-detail datalist option")].map(o => o.value).join(",") === "paris,park"`, chromedp.WithPollingTimeout(pageBound)))
	require.NoError(t, err, "completion of arg1")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS(`#prompt-detail input[name="arg2"]`), "lima"),
		chromedp.Click(chromedp.CSS(`#prompt-detail button.primary`))))
	waitText(t, ctx, "#prompt-detail", "arg1='pa', arg2='lima'")

	// A resource, then a template with its variable filled in.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#tab-resources")),
		chromedp.Click(chromedp.CSS(`#resource-list button[data-name="static-text"]`), chromedp.NodeVisible),
		chromedp.Click(chromedp.CSS(`#resource-detail button.primary`), chromedp.NodeVisible)))
	waitText(t, ctx, "#resource-detail", "test://static-text")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`#template-list button[data-name="template-data"]`), chromedp.NodeVisible),
		chromedp.SendKeys(chromedp.CSS(`#resource-detail input[name="id"]`), "12")))
	_, err = chromedp.Run(ctx, chromedp.Poll[bool](`[...document.querySelectorAll("#resource-detail datalist option")].map(o => o.value).join(",") === "123"`, chromedp.WithPollingTimeout(pageBound)))
	require.NoError(t, err, "completion of id")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#resource-detail button.primary`))))
	waitText(t, ctx, "#resource-detail", "test://template/12/data")

	// An elicitation waiting for the person, for the docs.
	callTool(t, ctx, "test_elicitation_sep1034_defaults", nil)
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#asks input[name="name"]`))))
	screenshot(t, ctx, "elicitation")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#asks button.primary`))))
	waitText(t, ctx, "#tool-result", `"name":"John Doe"`)
	screenshot(t, ctx, "tools")
}
