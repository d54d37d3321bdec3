package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The everything server driven by our own mcp.Client, in both eras (the handshake of
// 2025-11-25 and the stateless 2026-07-28) over both transports (a byte stream as on
// stdio, and Streamable HTTP): every tool, prompt and resource it lists answers what it
// should. The client answers the server's questions (sampling, elicitation, roots) in
// each era's way: requests in a session, input_required rounds without one.

// eraClient is a client of the everything server that records what the server told it.
type eraClient struct {
	session *mcp.ClientSession
	mu      sync.Mutex
	logs    []string
}

// logged returns the data of the log messages received so far.
func (c *eraClient) logged() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.logs)
}

// roots are the client's roots.
var roots = []mcp.Root{{URI: "file:///work", Name: "work"}, {URI: "file:///tmp", Name: "tmp"}}

// formAnswers are the answers the client gives to a form, by field; fields it does not
// know are left out, for the client to fill in with the form's defaults.
var formAnswers = map[string]mcp.ElicitResultContentValueVariant{
	"name":           mcp.ElicitResultContentValueString("Alice"),
	"confirm":        mcp.ElicitResultContentValueBoolean(true),
	"ok":             mcp.ElicitResultContentValueBoolean(true),
	"color":          mcp.ElicitResultContentValueString("blue"),
	"context":        mcp.ElicitResultContentValueString("test context"),
	"username":       mcp.ElicitResultContentValueString("alice"),
	"email":          mcp.ElicitResultContentValueString("alice@example.com"),
	"untitledSingle": mcp.ElicitResultContentValueString("option2"),
	"titledSingle":   mcp.ElicitResultContentValueString("value1"),
	"legacyEnum":     mcp.ElicitResultContentValueString("opt3"),
	"untitledMulti":  mcp.ElicitResultContentValueArray{"option1", "option3"},
	"titledMulti":    mcp.ElicitResultContentValueArray{"value2"},
}

// answerForm accepts a form with the formAnswers of its fields, and a URL at once.
func answerForm(_ context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	form, ok := p.AsForm()
	if !ok {
		return &mcp.ElicitResult{Action: "accept"}, nil
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(form.RequestedSchema, &schema); err != nil {
		return nil, err
	}
	content := map[string]mcp.ElicitResultContentValue{}
	for field := range schema.Properties {
		if v, ok := formAnswers[field]; ok {
			content[field] = mcp.ElicitResultContentValue{Value: v}
		}
	}
	return &mcp.ElicitResult{Action: "accept", Content: content}, nil
}

// answerSampling has the "model" repeat the first message's text.
func answerSampling(_ context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
	text := ""
	if len(p.Messages) > 0 {
		if t, ok := p.Messages[0].Content.AsText(); ok {
			text = t.Text
		}
	}
	return &mcp.CreateMessageResult{Role: "assistant", Model: "echo", StopReason: "endTurn",
		Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "You said: " + text}}}, nil
}

// dialEverything serves a fresh everything server over transport ("stdio" or "http")
// and connects a client speaking only version to it, one that answers sampling,
// elicitation (form and URL) and roots.
func dialEverything(t *testing.T, version, transport string) *eraClient {
	return dialEverythingAs(t, version, transport, true)
}

// dialEverythingAs is dialEverything with a client that answers nothing unless able.
func dialEverythingAs(t *testing.T, version, transport string, able bool) *eraClient {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	s, err := newServer(slog.New(slog.NewTextHandler(io.Discard, nil)), 0, &watched{})
	require.NoError(t, err)
	c := &eraClient{}
	opts := &mcp.ClientOptions{
		ProtocolVersions: []string{version},
		OnLog: func(_ context.Context, p *mcp.LoggingMessageNotificationParams) {
			c.mu.Lock()
			c.logs = append(c.logs, string(p.Data))
			c.mu.Unlock()
		},
		Logger: slog.New(slog.DiscardHandler),
	}
	if able {
		opts.CreateMessage = answerSampling
		opts.Elicit = answerForm
		opts.ElicitURL = true
		opts.ListRoots = func(context.Context) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: roots}, nil
		}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "both-eras", Version: "1"}, opts)
	var ct mcp.ClientTransport
	switch transport {
	case "stdio":
		// Two byte pipes, framed as on stdio.
		toServer, fromClient := io.Pipe()
		toClient, fromServer := io.Pipe()
		served := make(chan error, 1)
		go func() { served <- s.Serve(ctx, rpc.NewStreamTransport(toServer, fromServer)) }()
		t.Cleanup(func() {
			fromClient.Close()
			toClient.Close()
			select {
			case <-served:
			case <-time.After(10 * time.Second):
				t.Error("the server did not stop")
			}
		})
		ct = &mcp.StreamTransport{Transport: rpc.NewStreamTransport(toClient, fromClient)}
	case "http":
		h := mcp.NewStreamableHTTPHandler(s, nil)
		ts := httptest.NewServer(h)
		t.Cleanup(func() {
			s.CloseSubscriptions()
			h.Close()
			ts.Close()
		})
		ct = &mcp.StreamableHTTPTransport{URL: ts.URL}
	}
	cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
	defer ccancel()
	c.session, err = client.Connect(cctx, ct)
	require.NoError(t, err)
	t.Cleanup(func() { c.session.Close() })
	require.Equal(t, version, c.session.ProtocolVersion())
	require.NoError(t, c.session.SetLoggingLevel(cctx, "info"))
	return c
}

// Blocks of expected content, as JSON.
func textBlock(s string) string {
	return `{"type":"text","text":` + mustQuote(s) + `}`
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func blocks(bs ...string) string { return "[" + strings.Join(bs, ",") + "]" }

var (
	imageJSON = `{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}`
	audioJSON = `{"type":"audio","data":"` + wavBase64 + `","mimeType":"audio/wav"}`
)

// rootsListing is how the roots tools list the client's roots.
const rootsListing = "2 root(s)\nfile:///work (work)\nfile:///tmp (tmp)"

// toolCase is one tool of the everything server: its arguments and the content it must
// answer with; logs are the log messages it must send first.
type toolCase struct {
	args    string
	content string
	isError bool
	logs    []string
	// taskOnly marks a tool that runs only as a task, which a plain call
	// cannot start: a session answers -32601 (2025-11-25), a stateless
	// request that does not declare the tasks extension -32021.
	taskOnly bool
}

// everythingTools are the expected answers of every tool the everything server lists.
var everythingTools = map[string]toolCase{
	"test_simple_text":            {content: blocks(textBlock(textSimple))},
	"test_image_content":          {content: blocks(imageJSON)},
	"test_audio_content":          {content: blocks(audioJSON)},
	"test_embedded_resource":      {content: blocks(`{"type":"resource","resource":{"uri":"` + uriEmbedded + `","mimeType":"text/plain","text":` + mustQuote(textEmbedded) + `}}`)},
	"test_multiple_content_types": {content: blocks(textBlock("Multiple content types test:"), imageJSON, `{"type":"resource","resource":{"uri":"`+uriMixedContent+`","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}`)},
	"test_tool_with_logging": {content: blocks(textBlock("Tool with logging executed successfully")),
		logs: []string{`"Tool execution started"`, `"Tool processing data"`, `"Tool execution completed"`}},
	"test_tool_with_progress": {content: blocks(textBlock("Tool with progress executed successfully"))},
	"test_error_handling":     {content: blocks(textBlock(textToolFailure)), isError: true},
	"test_elicitation_sep1034_defaults": {content: blocks(textBlock(
		`User response: action=accept, content={"age":30,"name":"Alice","score":95.5,"status":"active","verified":true}`))},
	"test_elicitation_sep1330_enums": {content: blocks(textBlock(
		`User response: action=accept, content={"legacyEnum":"opt3","titledMulti":["value2"],"titledSingle":"value1","untitledMulti":["option1","option3"],"untitledSingle":"option2"}`))},
	"test_elicitation_url":     {content: blocks(textBlock("User response: action=accept"))},
	"test_list_roots":          {content: blocks(textBlock("The client has " + rootsListing))},
	"test_reconnection":        {content: blocks(textBlock("Reconnection test completed successfully"))},
	"json_schema_2020_12_tool": {args: `{"name":"Ada","email":"ada@example.com"}`, content: blocks(textBlock(`Received arguments: {"name":"Ada","email":"ada@example.com"}`))},
	"test_sampling":            {args: `{"prompt":"Hi there"}`, content: blocks(textBlock("LLM response: You said: Hi there"))},
	"test_elicitation": {args: `{"message":"Who are you?"}`, content: blocks(textBlock(
		`User response: action=accept, content={"email":"alice@example.com","username":"alice"}`))},
	"test_input_required_result_elicitation": {content: blocks(textBlock("Hello, Alice!"))},
	"test_input_required_result_sampling":    {content: blocks(textBlock("The model answered: You said: What is the capital of France?"))},
	"test_input_required_result_list_roots":  {content: blocks(textBlock("The client has " + rootsListing))},
	"test_input_required_result_request_state": {content: blocks(textBlock(
		"state-ok: the request state came back intact; action=accept, ok=true"))},
	"test_input_required_result_multiple_inputs": {content: blocks(textBlock(
		"Hello, Alice! The model says: You said: Generate a greeting. The client has " + rootsListing))},
	"test_input_required_result_multi_round":    {content: blocks(textBlock("Alice's favourite colour is blue."))},
	"test_input_required_result_tampered_state": {content: blocks(textBlock("Hello, Alice! The request state was verified."))},
	"test_input_required_result_capabilities": {content: blocks(textBlock(
		"Answered: capability_elicitation, capability_roots, capability_sampling"))},
	"test_missing_capability":    {content: blocks(textBlock("The model answered: You said: Say hello."))},
	"test_streaming_elicitation": {content: blocks(textBlock("Confirmation received: action=accept"))},
	"test_logging_tool": {content: blocks(textBlock("Logging tool done")),
		logs: []string{`"Logging tool started"`, `"Logging tool working"`, `"Logging tool finished"`}},
	"test_header_region":         {args: `{"region":"eu-west"}`, content: blocks(textBlock("Region: eu-west"))},
	"test_trigger_tool_change":   {content: blocks(textBlock("The tool list changed."))},
	"test_trigger_prompt_change": {content: blocks(textBlock("The prompt list changed."))},
	// The tools of the tasks scenarios, called without a task.
	"greet":               {args: `{"name":"Ada"}`, content: blocks(textBlock("Hello, Ada!"))},
	"slow_compute":        {args: `{"seconds":0,"label":"x"}`, content: blocks(textBlock(`Computed "x" in 0 s.`))},
	"confirm_delete":      {args: `{"filename":"a.txt"}`, content: blocks(textBlock("Deleted a.txt."))},
	"multi_input":         {content: blocks(textBlock("Got Alice and Alice."))},
	"failing_job":         {taskOnly: true},
	"protocol_error_job":  {taskOnly: true},
	"test_tool_with_task": {taskOnly: true},
}

// everythingPrompts are the arguments and the expected messages of every prompt.
var everythingPrompts = map[string]struct {
	args     map[string]string
	messages string
}{
	"test_simple_prompt": {messages: `[{"role":"user","content":` + textBlock("This is a simple prompt for testing.") + `}]`},
	"test_prompt_with_arguments": {args: map[string]string{"arg1": "a", "arg2": "b"},
		messages: `[{"role":"user","content":` + textBlock("Prompt with arguments: arg1='a', arg2='b'") + `}]`},
	"test_prompt_with_embedded_resource": {args: map[string]string{"resourceUri": "test://x"},
		messages: `[{"role":"user","content":{"type":"resource","resource":{"uri":"test://x","mimeType":"text/plain","text":"Embedded resource content for testing."}}},` +
			`{"role":"user","content":` + textBlock("Please process the embedded resource above.") + `}]`},
	"test_prompt_with_image":            {messages: `[{"role":"user","content":` + imageJSON + `},{"role":"user","content":` + textBlock("Please analyze the image above.") + `}]`},
	"test_input_required_result_prompt": {messages: `[{"role":"user","content":` + textBlock("Answer with this context in mind: test context") + `}]`},
}

// everythingResources are the expected contents of every listed resource, and of one
// URI of the template.
var everythingResources = map[string]string{
	uriStaticText:   `[{"uri":"` + uriStaticText + `","mimeType":"text/plain","text":` + mustQuote(textStatic) + `}]`,
	uriStaticBinary: `[{"uri":"` + uriStaticBinary + `","mimeType":"image/png","blob":"` + pngBase64 + `"}]`,
	uriWatched:      `[{"uri":"` + uriWatched + `","mimeType":"text/plain","text":"Watched resource content, version 0"}]`,
	"test://template/42/data": `[{"uri":"test://template/42/data","mimeType":"application/json","text":` +
		mustQuote(`{"id":"42","templateTest":true,"data":"Data for ID: 42"}`) + `}]`,
}

// toJSON encodes v for a comparison.
func toJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// callCtx bounds one call of the test.
func callCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// eachEra runs f for both eras over both transports.
func eachEra(t *testing.T, f func(t *testing.T, version, transport string)) {
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		for _, transport := range []string{"stdio", "http"} {
			t.Run(version+"/"+transport, func(t *testing.T) { f(t, version, transport) })
		}
	}
}

// Every tool the everything server lists answers with its expected content in both
// eras, over both transports; the logging tools' messages reach the client, the
// progress tool's notifications come before its answer.
func TestEveryToolAnswersInBothEras(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		c := dialEverything(t, version, transport)
		var listed []string
		for tool, err := range c.session.Tools(callCtx(t)) {
			require.NoError(t, err)
			listed = append(listed, tool.Name)
		}
		slices.Sort(listed)
		var want []string
		for name := range everythingTools {
			want = append(want, name)
		}
		slices.Sort(want)
		require.Equal(t, want, listed, "every listed tool has a case here, and every case a tool")
		for _, name := range listed {
			tc := everythingTools[name]
			var progress []float64
			ctx := mcp.WithProgressHandler(callCtx(t), func(p *mcp.ProgressNotificationParams) {
				progress = append(progress, p.Progress)
			})
			p := &mcp.CallToolRequestParams{Name: name}
			if tc.args != "" {
				p.Arguments = json.RawMessage(tc.args)
			}
			before := len(c.logged())
			res, err := c.session.CallTool(ctx, p)
			if tc.taskOnly {
				want := int64(rpc.CodeMethodNotFound)
				if version == mcp.Version20260728 {
					want = mcp.CodeMissingCapability
				}
				var rerr *rpc.Error
				require.ErrorAs(t, err, &rerr, name)
				assert.EqualValues(t, want, rerr.Code, "%s: %v", name, err)
				continue
			}
			require.NoError(t, err, name)
			assert.JSONEq(t, tc.content, toJSON(t, res.Content), name)
			assert.Equal(t, tc.isError, res.IsError != nil && *res.IsError, name)
			if name == "test_tool_with_progress" {
				assert.Equal(t, []float64{0, 50, 100}, progress, name)
			}
			if len(tc.logs) > 0 {
				// Log messages are handed to OnLog in order but apart from the call:
				// wait for them.
				require.Eventually(t, func() bool { return len(c.logged()) >= before+len(tc.logs) }, 10*time.Second, 10*time.Millisecond, name)
				assert.Equal(t, tc.logs, c.logged()[before:before+len(tc.logs)], name)
			}
		}
	})
}

// Every prompt the everything server lists expands to its expected messages in both
// eras, over both transports; the one that asks for its context gets it.
func TestEveryPromptExpandsInBothEras(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		c := dialEverything(t, version, transport)
		var listed []string
		for p, err := range c.session.Prompts(callCtx(t)) {
			require.NoError(t, err)
			listed = append(listed, p.Name)
		}
		require.Len(t, listed, len(everythingPrompts))
		for _, name := range listed {
			pc, ok := everythingPrompts[name]
			require.True(t, ok, "prompt %s has a case here", name)
			res, err := c.session.GetPrompt(callCtx(t), &mcp.GetPromptRequestParams{Name: name, Arguments: pc.args})
			require.NoError(t, err, name)
			assert.JSONEq(t, pc.messages, toJSON(t, res.Messages), name)
		}
	})
}

// Every resource the everything server lists, and its template, reads as expected in
// both eras, over both transports; completion suggests values for the template.
func TestEveryResourceReadsInBothEras(t *testing.T) {
	eachEra(t, func(t *testing.T, version, transport string) {
		c := dialEverything(t, version, transport)
		var uris []string
		for r, err := range c.session.Resources(callCtx(t)) {
			require.NoError(t, err)
			uris = append(uris, r.URI)
		}
		var templates []string
		for tpl, err := range c.session.ResourceTemplates(callCtx(t)) {
			require.NoError(t, err)
			templates = append(templates, tpl.URITemplate)
		}
		require.Equal(t, []string{uriTemplate}, templates)
		uris = append(uris, "test://template/42/data")
		require.Len(t, uris, len(everythingResources))
		for _, uri := range uris {
			want, ok := everythingResources[uri]
			require.True(t, ok, "resource %s has a case here", uri)
			res, err := c.session.ReadResource(callCtx(t), &mcp.ReadResourceRequestParams{URI: uri})
			require.NoError(t, err, uri)
			assert.JSONEq(t, want, toJSON(t, res.Contents), uri)
		}
		done, err := c.session.Complete(callCtx(t), &mcp.CompleteRequestParams{
			Ref:      mcp.CompleteRequestParamsRef{Value: mcp.ResourceTemplateReference{Type: "ref/resource", URI: uriTemplate}},
			Argument: mcp.CompleteRequestParamsArgument{Name: "id", Value: "1"},
		})
		require.NoError(t, err)
		assert.Equal(t, []string{"1", "123"}, done.Completion.Values, fmt.Sprintf("%s over %s", version, transport))
	})
}

// A client that offers neither sampling, elicitation nor roots learns from every tool and
// prompt that needs one what it lacks, in both eras over both transports: a tool result
// with isError naming it in a session, -32021 with data.requiredCapabilities otherwise.
func TestEverythingSaysWhatAClientWithoutCapabilitiesLacks(t *testing.T) {
	needs := []struct {
		tool, args, missing, required string
	}{
		{"test_sampling", `{"prompt":"Hi"}`, "sampling", `{"sampling":{}}`},
		{"test_elicitation", `{"message":"Who?"}`, "elicitation.form", `{"elicitation":{"form":{}}}`},
		{"test_elicitation_sep1034_defaults", "", "elicitation.form", `{"elicitation":{"form":{}}}`},
		{"test_elicitation_url", "", "elicitation.url", `{"elicitation":{"url":{}}}`},
		{"test_list_roots", "", "roots", `{"roots":{}}`},
		{"test_input_required_result_sampling", "", "sampling", `{"sampling":{}}`},
		{"test_missing_capability", "", "sampling", `{"sampling":{}}`},
	}
	eachEra(t, func(t *testing.T, version, transport string) {
		c := dialEverythingAs(t, version, transport, false)
		for _, n := range needs {
			p := &mcp.CallToolRequestParams{Name: n.tool}
			if n.args != "" {
				p.Arguments = json.RawMessage(n.args)
			}
			res, err := c.session.CallTool(callCtx(t), p)
			if version == mcp.Version20251125 {
				require.NoError(t, err, n.tool)
				assert.True(t, res.IsError != nil && *res.IsError, n.tool)
				assert.JSONEq(t, blocks(textBlock("mcp: the client did not declare this capability: "+n.missing)), toJSON(t, res.Content), n.tool)
				continue
			}
			assertLacks(t, err, n.missing, n.required, n.tool)
		}
		_, err := c.session.GetPrompt(callCtx(t), &mcp.GetPromptRequestParams{Name: "test_input_required_result_prompt"})
		assertLacks(t, err, "elicitation.form", `{"elicitation":{"form":{}}}`, "the prompt")
	})
}

// assertLacks checks that err is -32021 naming missing in its message and required in
// data.requiredCapabilities.
func assertLacks(t *testing.T, err error, missing, required, what string) {
	t.Helper()
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr, what)
	assert.Equal(t, mcp.CodeMissingCapability, rerr.Code, what)
	assert.Equal(t, "the request needs a client capability it did not declare: "+missing, rerr.Message, what)
	assert.JSONEq(t, `{"requiredCapabilities":`+required+`}`, string(rerr.Data), what)
}
