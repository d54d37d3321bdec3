package inspect_test

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
	"github.com/schemarpc/schemarpc/conformance/harness"
)

// updateScreenshots rewrites docs/inspect/*.png from the browser tests
// (make inspect-screenshots); a normal run never writes them.
var updateScreenshots = flag.Bool("update-screenshots", false, "write the screenshots of docs/inspect/ from the browser tests")

// pageBound is how long a browser step may wait for the page.
const pageBound = 60 * time.Second

var (
	browserOnce   sync.Once
	browserCtx    context.Context
	browserCancel context.CancelFunc
	browserErr    error
)

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if browserCancel != nil {
		browserCancel()
	}
	os.Exit(code)
}

// chromiumPath finds Debian's chromium, or skips the test (fails it when
// SCHEMARPC_REQUIRE_BROWSER=1, as in CI).
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("SCHEMARPC_REQUIRE_BROWSER") == "1" {
		t.Fatal("chromium is not installed, and SCHEMARPC_REQUIRE_BROWSER=1 requires the browser tests to run")
	}
	t.Skip("chromium is not installed (apt-get install chromium): the browser tests are skipped")
	return ""
}

// tab opens a new tab of the one headless browser the tests share, bounded
// by pageBound.
func tab(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath(t)
	if testing.Short() {
		t.Skip("drives a browser; skipped with -short")
	}
	browserOnce.Do(func() {
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.WindowSize(1280, 860))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(alloc)
		browserCtx = ctx
		browserCancel = func() { cancel(); cancelAlloc() }
		browserErr = chromedp.Do(ctx)
	})
	require.NoError(t, browserErr)
	ctx, cancel := chromedp.NewContext(browserCtx)
	t.Cleanup(cancel)
	ctx, cancelBound := context.WithTimeout(ctx, pageBound)
	t.Cleanup(cancelBound)
	return ctx
}

// open loads the inspector's page and waits until it has the session.
func open(t *testing.T, in *inspect.Inspector) context.Context {
	t.Helper()
	ctx := tab(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(in.URL()), chromedp.WaitVisible(chromedp.CSS(`body[data-ready="true"]`))))
	return ctx
}

// text returns the text of the first element sel matches, once visible.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	require.NoError(t, err)
	return s
}

// waitText waits until the element sel matches contains want.
func waitText(t *testing.T, ctx context.Context, sel, want string) {
	t.Helper()
	js := `(() => { const el = document.querySelector(` + quoteJS(sel) + `); return !!el && el.textContent.includes(` + quoteJS(want) + `); })()`
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(pageBound)))
	require.NoError(t, err, "waiting for %q in %s", want, sel)
}

func quoteJS(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`).Replace(s) + "'"
}

// callTool chooses a tool in the Tools view, fills the form with fill
// (selector → value), calls it, and waits for its result.
func callTool(t *testing.T, ctx context.Context, name string, fill map[string]string) {
	t.Helper()
	actions := []chromedp.Action[chromedp.Void]{
		chromedp.Click(chromedp.CSS(`#tab-tools`)),
		chromedp.Click(chromedp.CSS(`#tool-list button[data-name="`+name+`"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#call-tool`)),
	}
	for sel, v := range fill {
		actions = append(actions, chromedp.SetValue(chromedp.CSS(sel), v))
	}
	actions = append(actions, chromedp.Click(chromedp.CSS(`#call-tool`)))
	require.NoError(t, chromedp.Do(ctx, actions...))
}

// screenshot writes docs/inspect/NAME.png when asked to.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if !*updateScreenshots {
		return
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	root, err := harness.FindRoot(".")
	require.NoError(t, err)
	dir := filepath.Join(root, "docs", "inspect")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644))
}
