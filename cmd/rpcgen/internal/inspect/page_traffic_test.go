package inspect_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/conformance/harness"
)

// flood is how many messages the traffic view must stay fast with.
const flood = 10000

func TestPageFlagsAPlantedViolationAtItsPointerAmongTenThousandMessages(t *testing.T) {
	in := start(t, brokenServer(flood), "2025-06-18")
	ctx := open(t, in)
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-traffic"))))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`traffic.all.length > `+strconv.Itoa(flood)+` && traffic.findings === 1`, chromedp.WithPollingTimeout(pageBound)))
	require.NoError(t, err)
	waitText(t, ctx, "#finding-count", "1 finding")

	// Only the rows in view are in the document.
	rows, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#traffic-list .row").length`))
	require.NoError(t, err)
	assert.Positive(t, rows)
	assert.Less(t, rows, 100)
	// Scrolled to the end, it still holds only those.
	require.NoError(t, chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`traffic.list.scrollTop = traffic.list.scrollHeight`)))
	waitText(t, ctx, "#traffic-list", "#"+strconv.Itoa(flood))
	rows, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#traffic-list .row").length`))
	require.NoError(t, err)
	assert.Less(t, rows, 100)

	// Filtered to the messages with findings: the planted one, marked at
	// its pointer.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#filter-findings")),
		chromedp.Click(chromedp.CSS("#traffic-list .row.bad"), chromedp.NodeVisible)))
	waitText(t, ctx, "#traffic-shown", "1 of ")
	waitText(t, ctx, "#traffic-detail .findings", plantedPointer)
	marked, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#message-json span.bad[data-ptr="`+plantedPointer+`"]`), chromedp.NodeVisible))
	require.NoError(t, err)
	assert.Equal(t, `"loud"`, marked)
	screenshot(t, ctx, "traffic")

	// Filtered by method and direction.
	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS("#filter-findings")),
		chromedp.SendKeys(chromedp.CSS("#filter-method"), "initialize"),
		chromedp.SetValue(chromedp.CSS("#filter-from"), "server"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("filter-from").dispatchEvent(new Event("change"))`)))
	waitText(t, ctx, "#traffic-shown", "1 of ")
	waitText(t, ctx, "#traffic-list .row", "initialize response")
}

// rpcgenBuild is rpcgen, built once per test binary.
var rpcgenBuild = &harness.BuildOnce{Pkg: "./cmd/rpcgen"}

// rpcgenBinary returns rpcgen built.
func rpcgenBinary(t *testing.T) string {
	t.Helper()
	path, err := rpcgenBuild.Path()
	require.NoError(t, err)
	return path
}

func TestPageExportsTheJSONLThatRpcgenValidateChecks(t *testing.T) {
	tests := []struct {
		name   string
		server func(*testing.T) *inspect.Inspector
		code   int
		want   string
		// result is what the tool's result shows.
		result string
	}{
		{"everything", func(t *testing.T) *inspect.Inspector { return start(t, everythingStdio(t), "2025-11-25") }, 0, "0 findings", "This is a simple text response"},
		{"broken", func(t *testing.T) *inspect.Inspector { return start(t, brokenServer(0), "2025-06-18") }, 1, plantedPointer, "Breaks the output schema/structuredContent/greeting"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := open(t, tt.server(t))
			callTool(t, ctx, firstTool(t, ctx), nil)
			waitText(t, ctx, "#tool-result", tt.result)
			// The page's export link, fetched as the browser would.
			jsonl, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.getElementById("export").href).then(r => r.text())`, chromedp.EvalAwaitPromise))
			require.NoError(t, err)
			file := filepath.Join(t.TempDir(), "inspect.jsonl")
			require.NoError(t, os.WriteFile(file, []byte(jsonl), 0o644))
			out, err := exec.Command(rpcgenBinary(t), "validate", file).CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else {
				require.NoError(t, err)
			}
			assert.Equal(t, tt.code, code, string(out))
			assert.Contains(t, string(out), tt.want)
		})
	}
}

// firstTool returns the name of the first tool the page lists.
func firstTool(t *testing.T, ctx context.Context) string {
	t.Helper()
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#tab-tools")), chromedp.WaitVisible(chromedp.CSS("#tool-list button"))))
	name, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("#tool-list button").dataset.name`))
	require.NoError(t, err)
	return name
}
