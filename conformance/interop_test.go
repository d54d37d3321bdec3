package conformance_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
)

// summary is the JSON line both interop clients print (see interop/client.mjs and client.py).
type summary struct {
	Client          string `json:"client"`
	Transport       string `json:"transport"`
	ProtocolVersion string `json:"protocolVersion"`
	Server          *struct {
		Name string `json:"name"`
	} `json:"server"`
	Ping        bool `json:"ping"`
	LogLevelSet bool `json:"logLevelSet"`
	Tools       struct {
		Listed int `json:"listed"`
		Called int `json:"called"`
		// TaskOnly counts the tools whose execution.taskSupport is required,
		// which a client without tasks does not call.
		TaskOnly int      `json:"taskOnly"`
		Errors   []string `json:"errors"`
	} `json:"tools"`
	Resources struct {
		Listed int `json:"listed"`
		Read   int `json:"read"`
	} `json:"resources"`
	Templates struct {
		Listed int `json:"listed"`
		Read   int `json:"read"`
	} `json:"templates"`
	Prompts struct {
		Listed  int `json:"listed"`
		Got     int `json:"got"`
		Skipped int `json:"skipped"`
	} `json:"prompts"`
	Completions   int  `json:"completions"`
	Cancelled     bool `json:"cancelled"`
	Subscribed    bool `json:"subscribed"`
	Unsubscribed  bool `json:"unsubscribed"`
	Notifications struct {
		Progress        int `json:"progress"`
		Message         int `json:"message"`
		ResourceUpdated int `json:"resourceUpdated"`
	} `json:"notifications"`
	Requests struct {
		Sampling    int `json:"sampling"`
		Elicitation int `json:"elicitation"`
		Roots       int `json:"roots"`
	} `json:"requests"`
	Problems []string `json:"problems"`
}

// The everything surface as the clients must see it: at least this many of each,
// exactly one tool that answers with isError, and the tools of the tasks extension
// scenarios that run only as tasks (failing_job, protocol_error_job, test_tool_with_task).
const (
	minTools       = 16
	minResources   = 3
	minTemplates   = 1
	minPrompts     = 4
	minProgress    = 3
	minLogMessages = 3
	minElicitation = 4
	errorTool      = "test_error_handling"
	taskOnlyTools  = 3
)

// serverArgs make the lists span several pages, so that both clients paginate.
var serverArgs = []string{"-page-size", "3"}

// serverMode says whether the server sends anything unasked during the run.
type serverMode int

const (
	// watchedServer changes test://watched-resource often enough that a subscribed client
	// hears of it, and adds test_dynamic_tool after its default delay.
	watchedServer serverMode = iota
	// quietServer changes nothing, so that nothing but answers reaches the client; over
	// HTTP the session's GET stream then stays idle, which a server must handle too.
	quietServer
)

func (m serverMode) args() []string {
	if m == quietServer {
		return []string{"-watch-interval", "0", "-dynamic-after", "0"}
	}
	return []string{"-watch-interval", "200ms"}
}

// client is one official SDK client and how to run it.
type client struct {
	name  string
	check func(harness.Tools) error
	argv  func(harness.Tools) []string
}

var (
	typeScript = client{
		name:  "typescript",
		check: harness.Tools.CheckNode,
		argv:  func(t harness.Tools) []string { return []string{t.Node(), t.TypeScriptClient()} },
	}
	python = client{
		name:  "python",
		check: harness.Tools.CheckPython,
		argv:  func(t harness.Tools) []string { return []string{t.Python(), t.PythonClient()} },
	}
)

func TestInteropTypeScriptStdio(t *testing.T) { runInterop(t, typeScript, "stdio", watchedServer) }
func TestInteropPythonStdio(t *testing.T)     { runInterop(t, python, "stdio", watchedServer) }

func TestInteropTypeScriptHTTP(t *testing.T) {
	t.Run("watched", func(t *testing.T) { runInterop(t, typeScript, "http", watchedServer) })
	t.Run("quiet", func(t *testing.T) { runInterop(t, typeScript, "http", quietServer) })
}

func TestInteropPythonHTTP(t *testing.T) {
	t.Run("watched", func(t *testing.T) { runInterop(t, python, "http", watchedServer) })
	t.Run("quiet", func(t *testing.T) { runInterop(t, python, "http", quietServer) })
}

// runInterop drives examples/everything with an official SDK client over one transport
// and checks that the client saw the whole surface and no protocol problem.
func runInterop(t *testing.T, c client, transport string, mode serverMode) {
	tools := harness.ToolsAt(repoRoot(t))
	needs(t, c.check(tools))
	binary := everything(t)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	argv := c.argv(tools)
	args := append(mode.args(), serverArgs...)
	serverLog := func() string { return "" }
	switch transport {
	case "stdio":
		argv = append(append(argv, "stdio", binary), args...)
	case "http":
		server, url := serveHTTP(ctx, t, func(addr string) []string {
			return append([]string{binary, "-http", addr}, args...)
		})
		defer server.Stop()
		serverLog = server.Stderr
		argv = append(argv, "http", url)
	}

	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = tools.Dir
	cmd.Env = tools.NodeEnv()
	if mode == quietServer {
		cmd.Env = append(cmd.Env, "INTEROP_UPDATE_WAIT_MS=0") // no update will come
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	defer func() {
		if t.Failed() {
			t.Logf("client stdout:\n%s\nclient stderr:\n%s\nserver stderr:\n%s", stdout.String(), stderr.String(), serverLog())
		}
	}()

	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var s summary
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &s), "the client's last stdout line is its JSON summary")
	assert.Empty(t, s.Problems, "protocol problems the %s client saw", c.name)
	assert.NoError(t, runErr, "the client's exit status")
	assertSurface(t, s, mode == watchedServer)
}

func assertSurface(t *testing.T, s summary, watched bool) {
	t.Helper()
	assert.Equal(t, "2025-11-25", s.ProtocolVersion)
	if assert.NotNil(t, s.Server) {
		assert.Equal(t, "everything", s.Server.Name)
	}
	assert.True(t, s.Ping, "ping answered")
	assert.True(t, s.LogLevelSet, "logging/setLevel answered")
	assert.GreaterOrEqual(t, s.Tools.Listed, minTools, "tools listed")
	assert.Equal(t, taskOnlyTools, s.Tools.TaskOnly, "tools that run only as tasks, which the client does not call")
	assert.Equal(t, s.Tools.Listed, s.Tools.Called+s.Tools.TaskOnly, "every other listed tool called")
	assert.Equal(t, []string{errorTool}, s.Tools.Errors, "tools answering isError")
	assert.GreaterOrEqual(t, s.Resources.Listed, minResources, "resources listed")
	assert.Equal(t, s.Resources.Listed, s.Resources.Read, "every listed resource read")
	assert.GreaterOrEqual(t, s.Templates.Listed, minTemplates, "templates listed")
	assert.Equal(t, s.Templates.Listed, s.Templates.Read, "one instance of every template read")
	assert.GreaterOrEqual(t, s.Prompts.Listed, minPrompts, "prompts listed")
	assert.LessOrEqual(t, s.Prompts.Skipped, 1, "at most the one prompt the TypeScript client skips over HTTP")
	assert.Equal(t, s.Prompts.Listed, s.Prompts.Got+s.Prompts.Skipped, "every listed prompt got")
	assert.Positive(t, s.Completions, "completions answered")
	assert.True(t, s.Cancelled, "a call cancelled in flight, and the session usable afterwards")
	assert.True(t, s.Subscribed, "resources/subscribe answered")
	assert.True(t, s.Unsubscribed, "resources/unsubscribe answered")
	if watched {
		assert.Positive(t, s.Notifications.ResourceUpdated, "notifications/resources/updated while subscribed")
	} else {
		assert.Zero(t, s.Notifications.ResourceUpdated, "notifications/resources/updated from a server that changes nothing")
	}
	assert.GreaterOrEqual(t, s.Notifications.Progress, minProgress, "progress notifications")
	assert.GreaterOrEqual(t, s.Notifications.Message, minLogMessages, "log notifications")
	assert.Positive(t, s.Requests.Sampling, "sampling requests answered")
	assert.GreaterOrEqual(t, s.Requests.Elicitation, minElicitation, "elicitation requests answered (form and URL mode)")
	assert.Positive(t, s.Requests.Roots, "roots/list requests answered")
}
