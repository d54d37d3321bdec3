package conformance_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/conformance/harness"
	"github.com/schemarpc/schemarpc/mcp"
)

// toolCase is how the interop tests call one tool of a peer and what must come back.
type toolCase struct {
	// args are the arguments (a JSON object; empty means none).
	args string
	// want is text the result must contain ("" accepts any successful result).
	want string
	// fails says the call must fail (a JSON-RPC error or isError), with why.
	fails string
}

// interopPeer is a server on an official SDK that our client is tested against.
type interopPeer struct {
	name string
	// check reports a missing prerequisite.
	check func(harness.Tools) error
	// stdio returns the command serving MCP on its stdin and stdout.
	stdio func(harness.Tools) *exec.Cmd
	// http returns the argv of a process serving Streamable HTTP at http://ADDR/mcp.
	http func(t harness.Tools, addr string) []string
	// tools are the calls, by tool name; a listed tool without a case fails the test.
	tools map[string]toolCase
	// minimum counts of what the peer offers and asks for.
	minTools, minResources, minTemplates, minPrompts int
	sampling, elicitation, roots                     bool
}

// promptValues are the argument values the prompts of the peers accept, by argument name.
var promptValues = map[string]string{
	"city": "Paris", "state": "TX", "department": "Engineering", "name": "Alice",
	"resourceType": "Text", "resourceId": "1", "code": "x := 1",
}

// sampledText is what our sampling handler answers.
const sampledText = "Paris"

var (
	// everythingPeer is @modelcontextprotocol/server-everything (TypeScript SDK).
	everythingPeer = interopPeer{
		name:  "typescript server-everything",
		check: checkEverythingServer,
		stdio: func(t harness.Tools) *exec.Cmd {
			return exec.Command(t.Node(), everythingScript(t), "stdio")
		},
		http: func(t harness.Tools, addr string) []string {
			_, port, _ := net.SplitHostPort(addr)
			return []string{"/usr/bin/env", "PORT=" + port, t.Node(), everythingScript(t), "streamableHttp"}
		},
		tools: map[string]toolCase{
			"echo":                   {args: `{"message":"interop"}`, want: "Echo: interop"},
			"get-annotated-message":  {args: `{"messageType":"success","includeImage":true}`},
			"get-env":                {want: "PATH"},
			"get-resource-links":     {args: `{"count":2}`, want: "resource links"},
			"get-resource-reference": {args: `{"resourceType":"Text","resourceId":1}`},
			"get-structured-content": {args: `{"location":"Chicago"}`},
			"get-sum":                {args: `{"a":2,"b":3}`, want: "5"},
			"get-tiny-image":         {},
			"gzip-file-as-resource": {
				args: `{"name":"hello.txt.gz","data":"data:text/plain;base64,aGVsbG8gaW50ZXJvcA==","outputType":"resource"}`,
			},
			"toggle-simulated-logging":       {},
			"toggle-subscriber-updates":      {},
			"trigger-long-running-operation": {args: `{"duration":0.2,"steps":2}`},
			"get-roots-list":                 {want: "file:///tmp/schemarpc-interop"},
			"trigger-elicitation-request":    {want: "accept"},
			"trigger-sampling-request":       {args: `{"prompt":"Capital of France?","maxTokens":10}`, want: sampledText},
			"simulate-research-query": {args: `{"topic":"interop"}`,
				fails: "its execution.taskSupport is required and this client does not implement the tasks extension"},
		},
		minTools: 15, minResources: 1, minTemplates: 2, minPrompts: 4,
		sampling: true, elicitation: true, roots: true,
	}
	// pythonPeer is conformance/interop/server.py on the Python SDK.
	pythonPeer = interopPeer{
		name:  "python interop/server.py",
		check: harness.Tools.CheckPython,
		stdio: func(t harness.Tools) *exec.Cmd {
			return exec.Command(t.Python(), filepath.Join(t.Dir, "interop", "server.py"), "stdio")
		},
		http: func(t harness.Tools, addr string) []string {
			_, port, _ := net.SplitHostPort(addr)
			return []string{t.Python(), filepath.Join(t.Dir, "interop", "server.py"), "http", port}
		},
		tools: map[string]toolCase{
			"add":             {args: `{"a":2,"b":3}`, want: "sum=5"},
			"echo":            {args: `{"message":"interop"}`, want: "echo:interop"},
			"ask_sampling":    {want: "sampled:" + sampledText},
			"ask_elicitation": {want: "elicited:accept colour=blue shade=3"},
		},
		minTools: 4, minResources: 1, minTemplates: 1, minPrompts: 1,
		sampling: true, elicitation: true,
	}
)

// checkEverythingServer reports harness.ErrNotInstalled unless Node 22 and server-everything are installed.
func checkEverythingServer(t harness.Tools) error {
	if err := t.CheckNode(); err != nil {
		return err
	}
	if _, err := os.Stat(everythingScript(t)); err != nil {
		return fmt.Errorf("%s %w: run `make conformance-deps`", everythingScript(t), harness.ErrNotInstalled)
	}
	return nil
}

// everythingScript is the entry point of the installed server-everything package.
func everythingScript(t harness.Tools) string {
	return filepath.Join(t.Dir, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js")
}

// TestClientInteropTypeScriptServer drives server-everything (a handshake-era server:
// the client's server/discover probe finds no stateless protocol and it initializes).
func TestClientInteropTypeScriptServer(t *testing.T) {
	t.Run("stdio", func(t *testing.T) { runClientInterop(t, everythingPeer, "stdio", nil) })
	t.Run("http", func(t *testing.T) { runClientInterop(t, everythingPeer, "http", nil) })
}

// TestClientInteropPythonServer drives the Python SDK server in both eras: by default the
// client finds the stateless 2026-07-28 protocol (sampling and elicitation as
// input_required rounds), restricted to the handshake versions it initializes (sampling
// and elicitation as server requests).
func TestClientInteropPythonServer(t *testing.T) {
	t.Run("stdio", func(t *testing.T) { runClientInterop(t, pythonPeer, "stdio", nil) })
	t.Run("http", func(t *testing.T) { runClientInterop(t, pythonPeer, "http", nil) })
	t.Run("stdio-handshake", func(t *testing.T) { runClientInterop(t, pythonPeer, "stdio", mcp.SupportedVersions()) })
	t.Run("http-handshake", func(t *testing.T) { runClientInterop(t, pythonPeer, "http", mcp.SupportedVersions()) })
}

// requests counts what the peer asked the client.
type requests struct{ sampling, elicitation, roots atomic.Int32 }

// interopOptions answers the peer's requests: a fixed sampled text, a form filled for
// every field without a default (the library fills in the defaults), one root.
func interopOptions(t *testing.T, got *requests) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		CreateMessage: func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
			got.sampling.Add(1)
			return &mcp.CreateMessageResult{
				Role:    "assistant",
				Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Type: "text", Text: sampledText}},
				Model:   "schemarpc-interop-model",
			}, nil
		},
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			got.elicitation.Add(1)
			content, err := fillForm(p)
			if err != nil {
				t.Errorf("elicitation: %v", err)
				return &mcp.ElicitResult{Action: mcp.ElicitResultActionCancel}, nil
			}
			return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept, Content: content}, nil
		},
		ListRoots: func(ctx context.Context) (*mcp.ListRootsResult, error) {
			got.roots.Add(1)
			return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///tmp/schemarpc-interop", Name: "interop"}}}, nil
		},
	}
}

// fillForm answers a form-mode elicitation with a value for every requested field that
// has no default, chosen by type and format.
func fillForm(p *mcp.ElicitRequestParams) (map[string]mcp.ElicitResultContentValue, error) {
	var raw json.RawMessage
	switch f := p.Value.(type) {
	case mcp.ElicitRequestFormParams:
		raw = f.RequestedSchema
	case *mcp.ElicitRequestFormParams:
		raw = f.RequestedSchema
	default:
		return nil, fmt.Errorf("not a form request: %T", p.Value)
	}
	var schema struct {
		Properties map[string]struct {
			Type    string                   `json:"type"`
			Format  string                   `json:"format"`
			Enum    []string                 `json:"enum"`
			OneOf   []struct{ Const string } `json:"oneOf"`
			Minimum *float64                 `json:"minimum"`
			Default json.RawMessage          `json:"default"`
			Items   *struct {
				Enum  []string                 `json:"enum"`
				AnyOf []struct{ Const string } `json:"anyOf"`
			} `json:"items"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		return nil, fmt.Errorf("requested schema: %w", err)
	}
	content := map[string]mcp.ElicitResultContentValue{}
	for name, prop := range schema.Properties {
		if len(prop.Default) > 0 {
			continue
		}
		var v mcp.ElicitResultContentValueVariant
		switch {
		case len(prop.Enum) > 0:
			v = mcp.ElicitResultContentValueString(prop.Enum[0])
		case len(prop.OneOf) > 0:
			v = mcp.ElicitResultContentValueString(prop.OneOf[0].Const)
		case prop.Type == "boolean":
			v = mcp.ElicitResultContentValueBoolean(true)
		case prop.Type == "integer" || prop.Type == "number":
			n := 7.0
			if prop.Minimum != nil {
				n = *prop.Minimum
			}
			v = mcp.ElicitResultContentValueNumber(n)
		case prop.Type == "array" && prop.Items != nil && len(prop.Items.Enum) > 0:
			v = mcp.ElicitResultContentValueArray{prop.Items.Enum[0]}
		case prop.Type == "array" && prop.Items != nil && len(prop.Items.AnyOf) > 0:
			v = mcp.ElicitResultContentValueArray{prop.Items.AnyOf[0].Const}
		case prop.Format == "email":
			v = mcp.ElicitResultContentValueString("interop@example.com")
		case prop.Format == "uri":
			v = mcp.ElicitResultContentValueString("https://example.com/interop")
		case prop.Format == "date":
			v = mcp.ElicitResultContentValueString("2000-01-02")
		case prop.Format == "date-time":
			v = mcp.ElicitResultContentValueString("2000-01-02T03:04:05Z")
		case prop.Type == "string":
			v = mcp.ElicitResultContentValueString("blue")
		default:
			return nil, fmt.Errorf("field %q: no value for type %q", name, prop.Type)
		}
		content[name] = mcp.ElicitResultContentValue{Value: v}
	}
	return content, nil
}

// runClientInterop connects our client to peer over transport and goes through its whole
// surface: every tool called (answering its sampling and elicitation requests), every
// resource and one instance of every template read, every prompt got.
// versions restricts the client's protocol versions (nil: all, stateless first).
func runClientInterop(t *testing.T, peer interopPeer, transport string, versions []string) {
	tools := harness.ToolsAt(repoRoot(t))
	needs(t, peer.check(tools))
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	var got requests
	opts := interopOptions(t, &got)
	opts.ProtocolVersions = versions
	client := mcp.NewClient(&mcp.Implementation{Name: "schemarpc-interop-client", Version: "1.0.0"}, opts)
	var ct mcp.ClientTransport
	var serverLog func() string
	switch transport {
	case "stdio":
		cmd := peer.stdio(tools)
		cmd.Dir = tools.Dir
		cmd.Env = tools.NodeEnv()
		stderr := &lockedWriter{w: &strings.Builder{}}
		serverLog = stderr.String
		ct = &mcp.CommandTransport{Command: cmd, Stderr: stderr}
	case "http":
		server, url := serveHTTP(ctx, t, func(addr string) []string { return peer.http(tools, addr) })
		defer server.Stop()
		serverLog = server.Stderr
		ct = &mcp.StreamableHTTPTransport{URL: url}
	}
	defer func() {
		if t.Failed() {
			t.Logf("server stderr:\n%s", serverLog())
		}
	}()

	session, err := client.Connect(ctx, ct)
	require.NoError(t, err)
	defer func() { assert.NoError(t, session.Close(), "closing the session") }()
	t.Logf("%s over %s: protocol %s (stateless: %v), server %+v", peer.name, transport, session.ProtocolVersion(), session.Stateless(), session.ServerInfo())
	if versions != nil {
		assert.Contains(t, versions, session.ProtocolVersion(), "the negotiated version is one the client offered")
	}

	called := exerciseTools(ctx, t, session, peer)
	assert.GreaterOrEqual(t, called, peer.minTools, "tools called")
	read := exerciseResources(ctx, t, session)
	assert.GreaterOrEqual(t, read, peer.minResources, "resources read")
	instances := exerciseTemplates(ctx, t, session)
	assert.GreaterOrEqual(t, instances, peer.minTemplates, "resource templates read")
	prompts := exercisePrompts(ctx, t, session)
	assert.GreaterOrEqual(t, prompts, peer.minPrompts, "prompts got")
	if peer.sampling {
		assert.Positive(t, got.sampling.Load(), "sampling requests answered")
	}
	if peer.elicitation {
		assert.Positive(t, got.elicitation.Load(), "elicitation requests answered")
	}
	if peer.roots {
		assert.Positive(t, got.roots.Load(), "roots requests answered")
	}
}

// exerciseTools calls every listed tool with its case and returns how many were called.
func exerciseTools(ctx context.Context, t *testing.T, s *mcp.ClientSession, peer interopPeer) int {
	t.Helper()
	called := 0
	for tool, err := range s.Tools(ctx) {
		if !assert.NoError(t, err, "tools/list") {
			return called
		}
		tc, ok := peer.tools[tool.Name]
		if !assert.True(t, ok, "the peer lists tool %q, for which the test has no case", tool.Name) {
			continue
		}
		var args json.RawMessage
		if tc.args != "" {
			args = json.RawMessage(tc.args)
		}
		res, err := s.CallTool(ctx, &mcp.CallToolRequestParams{Name: tool.Name, Arguments: args})
		called++
		failed := err != nil || (res.IsError != nil && *res.IsError)
		if tc.fails != "" {
			assert.True(t, failed, "tool %s must fail: %s", tool.Name, tc.fails)
			continue
		}
		if !assert.NoError(t, err, "tools/call %s", tool.Name) {
			continue
		}
		text := toolText(res)
		assert.False(t, failed, "tool %s answered isError: %s", tool.Name, text)
		assert.Contains(t, text, tc.want, "tool %s", tool.Name)
	}
	return called
}

// toolText is the text of a tool result: its text blocks and its structured content.
func toolText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, block := range res.Content {
		switch c := block.Value.(type) {
		case mcp.TextContent:
			b.WriteString(c.Text + "\n")
		case *mcp.TextContent:
			b.WriteString(c.Text + "\n")
		}
	}
	b.Write(res.StructuredContent)
	return b.String()
}

// exerciseResources reads every listed resource and returns how many it read.
func exerciseResources(ctx context.Context, t *testing.T, s *mcp.ClientSession) int {
	t.Helper()
	read := 0
	for r, err := range s.Resources(ctx) {
		if !assert.NoError(t, err, "resources/list") {
			return read
		}
		res, err := s.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: r.URI})
		if assert.NoError(t, err, "resources/read %s", r.URI) {
			assert.NotEmpty(t, res.Contents, "resources/read %s", r.URI)
			read++
		}
	}
	return read
}

// templateVariable matches one {variable} of a URI template.
var templateVariable = regexp.MustCompile(`\{[^}]+\}`)

// exerciseTemplates reads one instance of every listed resource template (each variable
// set to 1) and returns how many it read.
func exerciseTemplates(ctx context.Context, t *testing.T, s *mcp.ClientSession) int {
	t.Helper()
	read := 0
	for tpl, err := range s.ResourceTemplates(ctx) {
		if !assert.NoError(t, err, "resources/templates/list") {
			return read
		}
		uri := templateVariable.ReplaceAllString(tpl.URITemplate, "1")
		res, err := s.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: uri})
		if assert.NoError(t, err, "resources/read %s (template %s)", uri, tpl.URITemplate) {
			assert.NotEmpty(t, res.Contents, "resources/read %s", uri)
			read++
		}
	}
	return read
}

// exercisePrompts gets every listed prompt with its arguments from promptValues and
// returns how many it got.
func exercisePrompts(ctx context.Context, t *testing.T, s *mcp.ClientSession) int {
	t.Helper()
	got := 0
	for p, err := range s.Prompts(ctx) {
		if !assert.NoError(t, err, "prompts/list") {
			return got
		}
		args := map[string]string{}
		for _, a := range p.Arguments {
			v, ok := promptValues[a.Name]
			if !ok && a.Required != nil && *a.Required {
				t.Errorf("prompt %s requires argument %q, for which the test has no value", p.Name, a.Name)
			}
			if ok {
				args[a.Name] = v
			}
		}
		res, err := s.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: p.Name, Arguments: args})
		if assert.NoError(t, err, "prompts/get %s", p.Name) {
			assert.NotEmpty(t, res.Messages, "prompts/get %s", p.Name)
			got++
		}
	}
	return got
}

// lockedWriter serialises writes to w and reads of what it holds.
type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}
