package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sort"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// scenarioTools are the tools the conformance scenarios call by name.
var scenarioTools = []string{
	"confirm_delete",
	"failing_job",
	"greet",
	"json_schema_2020_12_tool",
	"multi_input",
	"protocol_error_job",
	"slow_compute",
	"test_audio_content",
	"test_elicitation",
	"test_elicitation_sep1034_defaults",
	"test_elicitation_sep1330_enums",
	"test_elicitation_url",
	"test_embedded_resource",
	"test_error_handling",
	"test_header_region",
	"test_image_content",
	"test_input_required_result_capabilities",
	"test_input_required_result_elicitation",
	"test_input_required_result_list_roots",
	"test_input_required_result_multi_round",
	"test_input_required_result_multiple_inputs",
	"test_input_required_result_request_state",
	"test_input_required_result_sampling",
	"test_input_required_result_tampered_state",
	"test_list_roots",
	"test_logging_tool",
	"test_missing_capability",
	"test_multiple_content_types",
	"test_reconnection",
	"test_sampling",
	"test_simple_text",
	"test_streaming_elicitation",
	"test_tool_with_logging",
	"test_tool_with_progress",
	"test_tool_with_task",
	"test_trigger_prompt_change",
	"test_trigger_tool_change",
}

type listedTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// listAll pages through a list method and returns the items under key.
func listAll[T any](s *session, method, key string) []T {
	s.t.Helper()
	var all []T
	cursor := ""
	for range 50 {
		params := `{}`
		if cursor != "" {
			params = fmt.Sprintf(`{"cursor":%q}`, cursor)
		}
		var page map[string]json.RawMessage
		s.call(method, params, &page)
		var items []T
		require.NoError(s.t, json.Unmarshal(page[key], &items))
		all = append(all, items...)
		cursor = ""
		if next, ok := page["nextCursor"]; ok {
			require.NoError(s.t, json.Unmarshal(next, &cursor))
		}
		if cursor == "" {
			return all
		}
	}
	s.t.Fatalf("%s: more than 50 pages", method)
	return nil
}

func TestEveryScenarioToolIsListedWithDescriptionAndSchema(t *testing.T) {
	for _, pageSize := range []int{0, 4} {
		t.Run(fmt.Sprintf("page size %d", pageSize), func(t *testing.T) {
			s := connect(t, clientOptions{pageSize: pageSize})
			tools := listAll[listedTool](s, "tools/list", "tools")
			var names []string
			for _, tool := range tools {
				names = append(names, tool.Name)
				assert.NotEmpty(t, tool.Description, tool.Name)
				assert.NotEmpty(t, tool.InputSchema, tool.Name)
			}
			sort.Strings(names)
			assert.Equal(t, scenarioTools, names)
		})
	}
}

func TestJSONSchema202012ToolIsListedVerbatim(t *testing.T) {
	s := connect(t, clientOptions{})
	for _, tool := range listAll[listedTool](s, "tools/list", "tools") {
		if tool.Name == "json_schema_2020_12_tool" {
			assert.JSONEq(t, jsonSchema202012, string(tool.InputSchema))
			return
		}
	}
	t.Fatal("json_schema_2020_12_tool is not listed")
}

func TestToolsAnswerWithTheScenarioPayloads(t *testing.T) {
	tests := []struct {
		tool, arguments, want string
	}{
		{"test_simple_text", "", `{"content":[{"type":"text","text":"This is a simple text response for testing."}]}`},
		{"test_simple_text", "{}", `{"content":[{"type":"text","text":"This is a simple text response for testing."}]}`},
		{"test_image_content", "", `{"content":[{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}]}`},
		{"test_audio_content", "", `{"content":[{"type":"audio","data":"` + wavBase64 + `","mimeType":"audio/wav"}]}`},
		{"test_embedded_resource", "", `{"content":[{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}]}`},
		{"test_multiple_content_types", "", `{"content":[
			{"type":"text","text":"Multiple content types test:"},
			{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"},
			{"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}]}`},
		{"test_error_handling", "", `{"content":[{"type":"text","text":"This tool intentionally returns an error for testing."}],"isError":true}`},
		{"test_reconnection", "", `{"content":[{"type":"text","text":"Reconnection test completed successfully"}]}`},
		{"json_schema_2020_12_tool", `{"name":"Ada","address":{"city":"London"},"email":"ada@example.com"}`,
			`{"content":[{"type":"text","text":"Received arguments: {\"name\":\"Ada\",\"address\":{\"city\":\"London\"},\"email\":\"ada@example.com\"}"}]}`},
	}
	s := connect(t, clientOptions{})
	for _, tt := range tests {
		t.Run(tt.tool+" "+tt.arguments, func(t *testing.T) {
			assert.JSONEq(t, tt.want, string(s.callTool(tt.tool, tt.arguments)))
		})
	}
}

func TestJSONSchema202012ToolValidatesItsArguments(t *testing.T) {
	tests := []struct {
		name, arguments string
	}{
		{"unknown member (additionalProperties: false)", `{"email":"a@example.com","nickname":"x"}`},
		{"neither phone nor email (allOf/anyOf)", `{"name":"Ada"}`},
		{"phone chosen but missing (if/then)", `{"contactMethod":"phone","email":"a@example.com"}`},
		{"address not an object ($ref into $defs)", `{"email":"a@example.com","address":"London"}`},
	}
	s := connect(t, clientOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res struct {
				IsError bool `json:"isError"`
			}
			require.NoError(t, json.Unmarshal(s.callTool("json_schema_2020_12_tool", tt.arguments), &res))
			assert.True(t, res.IsError)
		})
	}
}

// notificationsBefore calls a tool with a progress token and returns the notifications
// of the given method that reached the client before the call's response.
func notificationsBefore(t *testing.T, s *session, tool, method string) []json.RawMessage {
	t.Helper()
	s.call("tools/call", `{"name":"`+tool+`","_meta":{"progressToken":"progress-test-1"}}`, nil)
	// The call's id is the last id this client used; find its response in the tap.
	var lastID string
	s.tap.mu.Lock()
	for _, raw := range s.tap.seen {
		var m wireMessage
		if json.Unmarshal(raw, &m) == nil && m.Method == "" && len(m.ID) > 0 {
			lastID = string(m.ID)
		}
	}
	s.tap.mu.Unlock()
	before, ok := s.tap.upTo(lastID)
	require.True(t, ok)
	var out []json.RawMessage
	for _, m := range before {
		if m.Method == method {
			out = append(out, m.Params)
		}
	}
	return out
}

func TestLoggingToolSendsThreeInfoMessagesBeforeItsResponse(t *testing.T) {
	s := connect(t, clientOptions{})
	var empty json.RawMessage
	s.call("logging/setLevel", `{"level":"debug"}`, &empty)
	assert.JSONEq(t, `{}`, string(empty), "logging/setLevel answers exactly {}")

	logs := notificationsBefore(t, s, "test_tool_with_logging", "notifications/message")
	require.Len(t, logs, 3)
	for i, want := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		assert.JSONEq(t, `{"level":"info","logger":"everything","data":"`+want+`"}`, string(logs[i]))
	}
}

func TestLoggingToolSendsNothingAboveTheLevel(t *testing.T) {
	s := connect(t, clientOptions{})
	s.call("logging/setLevel", `{"level":"error"}`, nil)
	assert.Empty(t, notificationsBefore(t, s, "test_tool_with_logging", "notifications/message"))
}

func TestProgressToolReportsBeforeItsResponse(t *testing.T) {
	s := connect(t, clientOptions{})
	progress := notificationsBefore(t, s, "test_tool_with_progress", "notifications/progress")
	require.Len(t, progress, 3)
	for i, p := range []int{0, 50, 100} {
		assert.JSONEq(t, fmt.Sprintf(`{"progressToken":"progress-test-1","progress":%d,"total":100,"message":"%d%% done"}`, p, p), string(progress[i]))
	}
}

func TestProgressToolWithoutTokenSendsNoProgress(t *testing.T) {
	s := connect(t, clientOptions{})
	s.callTool("test_tool_with_progress", "")
	before, _ := s.tap.upTo("none")
	for _, m := range before {
		assert.NotEqual(t, "notifications/progress", m.Method)
	}
}

func TestSamplingToolAsksTheClientsModel(t *testing.T) {
	s := connect(t, clientOptions{})
	res := s.callTool("test_sampling", `{"prompt":"What is the capital of France?"}`)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"LLM response: Paris"}]}`, string(res))

	require.Len(t, s.cb.sampling, 1)
	got, err := json.Marshal(s.cb.sampling[0])
	require.NoError(t, err)
	assert.JSONEq(t, `{"messages":[{"role":"user","content":{"type":"text","text":"What is the capital of France?"}}],"maxTokens":100}`, string(got))
}

func TestSamplingToolNeedsItsPrompt(t *testing.T) {
	s := connect(t, clientOptions{})
	var res struct {
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal(s.callTool("test_sampling", `{}`), &res))
	assert.True(t, res.IsError)
	assert.Empty(t, s.cb.sampling)
}

func TestClientCallbackToolsFailWithoutTheCapability(t *testing.T) {
	tests := []struct{ tool, arguments string }{
		{"test_sampling", `{"prompt":"hi"}`},
		{"test_elicitation", `{"message":"hi"}`},
		{"test_elicitation_sep1034_defaults", ""},
		{"test_elicitation_sep1330_enums", ""},
		{"test_elicitation_url", ""},
		{"test_list_roots", ""},
	}
	s := connect(t, clientOptions{capabilities: `{}`})
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			var res struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			}
			require.NoError(t, json.Unmarshal(s.callTool(tt.tool, tt.arguments), &res))
			assert.True(t, res.IsError)
			require.NotEmpty(t, res.Content)
			assert.Contains(t, res.Content[0].Text, "did not declare")
		})
	}
	assert.Empty(t, s.cb.sampling)
	assert.Empty(t, s.cb.elicitation)
}

func TestElicitationToolsAskForTheScenarioForms(t *testing.T) {
	tests := []struct {
		tool, arguments, message, schema string
	}{
		{"test_elicitation", `{"message":"Who are you?"}`, "Who are you?", userSchema},
		{"test_elicitation_sep1034_defaults", "", "Please review and update the form fields with defaults", defaultsSchema},
		{"test_elicitation_sep1330_enums", "", "Please pick from the enum fields", enumsSchema},
	}
	for _, tt := range tests {
		t.Run(tt.tool, func(t *testing.T) {
			s := connect(t, clientOptions{})
			res := s.callTool(tt.tool, tt.arguments)
			assert.JSONEq(t, `{"content":[{"type":"text","text":"User response: action=accept, content={\"username\":\"alice\"}"}]}`, string(res))
			require.Len(t, s.cb.elicitation, 1)
			form, ok := s.cb.elicitation[0].AsForm()
			require.True(t, ok)
			assert.Equal(t, tt.message, form.Message)
			assert.JSONEq(t, tt.schema, string(form.RequestedSchema))
		})
	}
}

func TestListRootsToolAsksTheClient(t *testing.T) {
	s := connect(t, clientOptions{capabilities: `{"roots":{"listChanged":true}}`})
	res := s.callTool("test_list_roots", "")
	assert.JSONEq(t, `{"content":[{"type":"text","text":"The client has 2 root(s)\nfile:///work (work)\nfile:///tmp (tmp)"}]}`, string(res))
}

func TestURLElicitationToolSendsTheUserToAPage(t *testing.T) {
	s := connect(t, clientOptions{capabilities: `{"elicitation":{"form":{},"url":{}}}`})
	res := s.callTool("test_elicitation_url", "")
	assert.JSONEq(t, `{"content":[{"type":"text","text":"User response: action=accept"}]}`, string(res))
	require.Len(t, s.cb.elicitation, 1)
	u, ok := s.cb.elicitation[0].AsURL()
	require.True(t, ok)
	assert.Equal(t, "url", u.Mode)
	assert.Equal(t, consentURL, u.URL)
	assert.Len(t, u.ElicitationID, 16)
}

func TestURLElicitationToolFailsForAFormOnlyClient(t *testing.T) {
	s := connect(t, clientOptions{})
	var res struct {
		IsError bool `json:"isError"`
	}
	require.NoError(t, json.Unmarshal(s.callTool("test_elicitation_url", ""), &res))
	assert.True(t, res.IsError)
	assert.Empty(t, s.cb.elicitation)
}

func TestDefaultsFormHasTheSEP1034Defaults(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Type    string `json:"type"`
			Default any    `json:"default"`
		} `json:"properties"`
	}
	require.NoError(t, json.Unmarshal([]byte(defaultsSchema), &schema))
	want := map[string][2]any{
		"name": {"string", "John Doe"}, "age": {"integer", float64(30)}, "score": {"number", 95.5},
		"status": {"string", "active"}, "verified": {"boolean", true},
	}
	require.Len(t, schema.Properties, len(want))
	for name, w := range want {
		assert.Equal(t, w[0], schema.Properties[name].Type, name)
		assert.Equal(t, w[1], schema.Properties[name].Default, name)
	}
}

type listedResource struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MIMEType string `json:"mimeType"`
}

func TestResourcesAreListedAndRead(t *testing.T) {
	tests := []struct {
		uri, want string
	}{
		{uriStaticText, `{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}`},
		{uriStaticBinary, `{"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":"` + pngBase64 + `"}]}`},
		{uriWatched, `{"contents":[{"uri":"test://watched-resource","mimeType":"text/plain","text":"Watched resource content, version 0"}]}`},
		{"test://template/123/data", `{"contents":[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}]}`},
	}
	s := connect(t, clientOptions{pageSize: 2})
	var uris []string
	for _, r := range listAll[listedResource](s, "resources/list", "resources") {
		assert.NotEmpty(t, r.Name, r.URI)
		uris = append(uris, r.URI)
	}
	assert.ElementsMatch(t, []string{uriStaticText, uriStaticBinary, uriWatched}, uris)
	templates := listAll[struct {
		URITemplate string `json:"uriTemplate"`
	}](s, "resources/templates/list", "resourceTemplates")
	require.Len(t, templates, 1)
	assert.Equal(t, uriTemplate, templates[0].URITemplate)

	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			var res json.RawMessage
			s.call("resources/read", fmt.Sprintf(`{"uri":%q}`, tt.uri), &res)
			assert.JSONEq(t, tt.want, string(res))
		})
	}
}

func TestDynamicToolAppearsLaterAndSessionsAreTold(t *testing.T) {
	s := connect(t, clientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		addDynamicToolAfter(ctx, s.server, 10*time.Millisecond, slog.New(slog.DiscardHandler))
		close(done)
	}()
	defer func() { cancel(); <-done }()

	select {
	case <-s.cb.toolsChanged:
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/tools/list_changed")
	}
	assert.Len(t, listAll[listedTool](s, "tools/list", "tools"), len(scenarioTools)+1)
	assert.JSONEq(t, `{"content":[{"type":"text","text":"This tool was added while the server was running."}]}`,
		string(s.callTool("test_dynamic_tool", "")))
}

func TestDynamicToolStaysAwayWhenStoppedEarly(t *testing.T) {
	s := connect(t, clientOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	addDynamicToolAfter(ctx, s.server, time.Hour, slog.New(slog.DiscardHandler))
	assert.Len(t, listAll[listedTool](s, "tools/list", "tools"), len(scenarioTools))
}

func TestReadingAnUnknownResourceIsResourceNotFound(t *testing.T) {
	s := connect(t, clientOptions{})
	err := s.try("resources/read", `{"uri":"test://nothing-here"}`, nil)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, -32002, int(rerr.Code))
}

func TestWatchedResourceChangesAndTellsSubscribers(t *testing.T) {
	s := connect(t, clientOptions{})
	var empty json.RawMessage
	s.call("resources/subscribe", `{"uri":"test://watched-resource"}`, &empty)
	assert.JSONEq(t, `{}`, string(empty))

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.watched.run(ctx, s.server, 10*time.Millisecond); close(done) }()
	defer func() { cancel(); <-done }()

	select {
	case uri := <-s.cb.updated:
		assert.Equal(t, uriWatched, uri)
	case <-time.After(5 * time.Second):
		t.Fatal("no notifications/resources/updated")
	}
	var res struct {
		Contents []struct {
			Text string `json:"text"`
		} `json:"contents"`
	}
	s.call("resources/read", `{"uri":"test://watched-resource"}`, &res)
	require.Len(t, res.Contents, 1)
	assert.NotEqual(t, "Watched resource content, version 0", res.Contents[0].Text)

	s.call("resources/unsubscribe", `{"uri":"test://watched-resource"}`, &empty)
	assert.JSONEq(t, `{}`, string(empty))
}

func TestPromptsAreListedWithDescriptionsAndExpand(t *testing.T) {
	tests := []struct {
		name, arguments, want string
	}{
		{"test_simple_prompt", `{}`, `{"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]}`},
		{"test_prompt_with_arguments", `{"arg1":"testValue1","arg2":"testValue2"}`,
			`{"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='testValue1', arg2='testValue2'"}}]}`},
		{"test_prompt_with_embedded_resource", `{"resourceUri":"test://example-resource"}`, `{"messages":[
			{"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Embedded resource content for testing."}}},
			{"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}]}`},
		{"test_prompt_with_image", `{}`, `{"messages":[
			{"role":"user","content":{"type":"image","data":"` + pngBase64 + `","mimeType":"image/png"}},
			{"role":"user","content":{"type":"text","text":"Please analyze the image above."}}]}`},
		{"test_input_required_result_prompt", `{}`,
			`{"messages":[{"role":"user","content":{"type":"text","text":"Answer with this context in mind: test context"}}]}`},
	}
	s := connect(t, clientOptions{pageSize: 3})
	prompts := listAll[struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	}](s, "prompts/list", "prompts")
	var names []string
	for _, p := range prompts {
		assert.NotEmpty(t, p.Description, p.Name)
		names = append(names, p.Name)
	}
	var want []string
	for _, tt := range tests {
		want = append(want, tt.name)
	}
	assert.ElementsMatch(t, want, names)

	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res json.RawMessage
			s.call("prompts/get", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tt.name, tt.arguments), &res)
			assert.JSONEq(t, tt.want, string(res))
		})
	}
}

func TestPromptWithoutItsRequiredArgumentsIsInvalidParams(t *testing.T) {
	s := connect(t, clientOptions{})
	err := s.try("prompts/get", `{"name":"test_prompt_with_arguments","arguments":{"arg1":"x"}}`, nil)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestCompletionSuggestsByPrefix(t *testing.T) {
	tests := []struct {
		name, params, want string
	}{
		{"prompt argument", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg1","value":"test"}}`,
			`{"completion":{"values":["test","testValue1"]}}`},
		{"template variable", `{"ref":{"type":"ref/resource","uri":"test://template/{id}/data"},"argument":{"name":"id","value":"1"}}`,
			`{"completion":{"values":["1","123"]}}`},
		{"no match", `{"ref":{"type":"ref/prompt","name":"test_prompt_with_arguments"},"argument":{"name":"arg2","value":"zzz"}}`,
			`{"completion":{"values":[]}}`},
		{"unknown prompt", `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"arg1","value":""}}`,
			`{"completion":{"values":[]}}`},
		{"unknown template", `{"ref":{"type":"ref/resource","uri":"test://other/{id}"},"argument":{"name":"id","value":""}}`,
			`{"completion":{"values":[]}}`},
	}
	s := connect(t, clientOptions{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var res json.RawMessage
			s.call("completion/complete", tt.params, &res)
			assert.JSONEq(t, tt.want, string(res))
		})
	}
}

func TestPingAnswersExactlyAnEmptyObject(t *testing.T) {
	s := connect(t, clientOptions{})
	var res json.RawMessage
	s.call("ping", "", &res)
	assert.JSONEq(t, `{}`, string(res))
}

func TestServerAdvertisesWhatTheSuiteNeeds(t *testing.T) {
	s := connect(t, clientOptions{})
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
		ServerInfo   struct{ Name string }      `json:"serverInfo"`
		Instructions string                     `json:"instructions"`
	}
	require.NoError(t, json.Unmarshal(s.init, &init))
	assert.Equal(t, "everything", init.ServerInfo.Name)
	assert.Equal(t, instructions, init.Instructions)
	for _, c := range []string{"tools", "resources", "prompts", "logging", "completions"} {
		assert.Contains(t, init.Capabilities, c)
	}
	assert.JSONEq(t, `{"listChanged":true,"subscribe":true}`, string(init.Capabilities["resources"]))
}
