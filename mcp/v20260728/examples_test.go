package v20260728_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	mcp "github.com/schemarpc/schemarpc/mcp/v20260728"
)

// exampleTypes maps the definitions of the published example corpus to the
// generated Go types of the same name. The elicitation field schemas
// (StringSchema, NumberSchema, BooleanSchema and the four enum schemas)
// have none: ElicitRequestFormParams.requestedSchema is raw JSON, because
// nothing in a field schema tells its eight forms apart, so the generator
// never reaches them.
var exampleTypes = map[string]func() any{
	"AudioContent":                          func() any { return new(mcp.AudioContent) },
	"BlobResourceContents":                  func() any { return new(mcp.BlobResourceContents) },
	"CallToolRequest":                       func() any { return new(mcp.CallToolRequest) },
	"CallToolRequestParams":                 func() any { return new(mcp.CallToolRequestParams) },
	"CallToolResult":                        func() any { return new(mcp.CallToolResult) },
	"CallToolResultResponse":                func() any { return new(mcp.CallToolResultResponse) },
	"CancelledNotification":                 func() any { return new(mcp.CancelledNotification) },
	"CancelledNotificationParams":           func() any { return new(mcp.CancelledNotificationParams) },
	"ClientCapabilities":                    func() any { return new(mcp.ClientCapabilities) },
	"CompleteRequest":                       func() any { return new(mcp.CompleteRequest) },
	"CompleteRequestParams":                 func() any { return new(mcp.CompleteRequestParams) },
	"CompleteResult":                        func() any { return new(mcp.CompleteResult) },
	"CompleteResultResponse":                func() any { return new(mcp.CompleteResultResponse) },
	"CreateMessageRequest":                  func() any { return new(mcp.CreateMessageRequest) },
	"CreateMessageRequestParams":            func() any { return new(mcp.CreateMessageRequestParams) },
	"CreateMessageResult":                   func() any { return new(mcp.CreateMessageResult) },
	"DiscoverRequest":                       func() any { return new(mcp.DiscoverRequest) },
	"DiscoverResult":                        func() any { return new(mcp.DiscoverResult) },
	"DiscoverResultResponse":                func() any { return new(mcp.DiscoverResultResponse) },
	"ElicitRequest":                         func() any { return new(mcp.ElicitRequest) },
	"ElicitRequestFormParams":               func() any { return new(mcp.ElicitRequestFormParams) },
	"ElicitRequestURLParams":                func() any { return new(mcp.ElicitRequestURLParams) },
	"ElicitResult":                          func() any { return new(mcp.ElicitResult) },
	"EmbeddedResource":                      func() any { return new(mcp.EmbeddedResource) },
	"GetPromptRequest":                      func() any { return new(mcp.GetPromptRequest) },
	"GetPromptRequestParams":                func() any { return new(mcp.GetPromptRequestParams) },
	"GetPromptResult":                       func() any { return new(mcp.GetPromptResult) },
	"GetPromptResultResponse":               func() any { return new(mcp.GetPromptResultResponse) },
	"HeaderMismatchError":                   func() any { return new(mcp.HeaderMismatchError) },
	"ImageContent":                          func() any { return new(mcp.ImageContent) },
	"InputRequests":                         func() any { return new(mcp.InputRequests) },
	"InputRequiredResult":                   func() any { return new(mcp.InputRequiredResult) },
	"InputResponses":                        func() any { return new(mcp.InputResponses) },
	"InternalError":                         func() any { return new(mcp.InternalError) },
	"InvalidParamsError":                    func() any { return new(mcp.InvalidParamsError) },
	"ListPromptsRequest":                    func() any { return new(mcp.ListPromptsRequest) },
	"ListPromptsResult":                     func() any { return new(mcp.ListPromptsResult) },
	"ListPromptsResultResponse":             func() any { return new(mcp.ListPromptsResultResponse) },
	"ListResourceTemplatesRequest":          func() any { return new(mcp.ListResourceTemplatesRequest) },
	"ListResourceTemplatesResult":           func() any { return new(mcp.ListResourceTemplatesResult) },
	"ListResourceTemplatesResultResponse":   func() any { return new(mcp.ListResourceTemplatesResultResponse) },
	"ListResourcesRequest":                  func() any { return new(mcp.ListResourcesRequest) },
	"ListResourcesResult":                   func() any { return new(mcp.ListResourcesResult) },
	"ListResourcesResultResponse":           func() any { return new(mcp.ListResourcesResultResponse) },
	"ListRootsRequest":                      func() any { return new(mcp.ListRootsRequest) },
	"ListRootsResult":                       func() any { return new(mcp.ListRootsResult) },
	"ListToolsRequest":                      func() any { return new(mcp.ListToolsRequest) },
	"ListToolsResult":                       func() any { return new(mcp.ListToolsResult) },
	"ListToolsResultResponse":               func() any { return new(mcp.ListToolsResultResponse) },
	"LoggingMessageNotification":            func() any { return new(mcp.LoggingMessageNotification) },
	"LoggingMessageNotificationParams":      func() any { return new(mcp.LoggingMessageNotificationParams) },
	"MethodNotFoundError":                   func() any { return new(mcp.MethodNotFoundError) },
	"MissingRequiredClientCapabilityError":  func() any { return new(mcp.MissingRequiredClientCapabilityError) },
	"ModelPreferences":                      func() any { return new(mcp.ModelPreferences) },
	"PaginatedRequestParams":                func() any { return new(mcp.PaginatedRequestParams) },
	"ParseError":                            func() any { return new(mcp.ParseError) },
	"ProgressNotification":                  func() any { return new(mcp.ProgressNotification) },
	"ProgressNotificationParams":            func() any { return new(mcp.ProgressNotificationParams) },
	"PromptListChangedNotification":         func() any { return new(mcp.PromptListChangedNotification) },
	"ReadResourceRequest":                   func() any { return new(mcp.ReadResourceRequest) },
	"ReadResourceResult":                    func() any { return new(mcp.ReadResourceResult) },
	"ReadResourceResultResponse":            func() any { return new(mcp.ReadResourceResultResponse) },
	"Resource":                              func() any { return new(mcp.Resource) },
	"ResourceLink":                          func() any { return new(mcp.ResourceLink) },
	"ResourceListChangedNotification":       func() any { return new(mcp.ResourceListChangedNotification) },
	"ResourceUpdatedNotification":           func() any { return new(mcp.ResourceUpdatedNotification) },
	"ResourceUpdatedNotificationParams":     func() any { return new(mcp.ResourceUpdatedNotificationParams) },
	"Root":                                  func() any { return new(mcp.Root) },
	"SamplingMessage":                       func() any { return new(mcp.SamplingMessage) },
	"ServerCapabilities":                    func() any { return new(mcp.ServerCapabilities) },
	"SubscriptionsAcknowledgedNotification": func() any { return new(mcp.SubscriptionsAcknowledgedNotification) },
	"SubscriptionsListenRequest":            func() any { return new(mcp.SubscriptionsListenRequest) },
	"SubscriptionsListenResult":             func() any { return new(mcp.SubscriptionsListenResult) },
	"SubscriptionsListenResultResponse":     func() any { return new(mcp.SubscriptionsListenResultResponse) },
	"TextContent":                           func() any { return new(mcp.TextContent) },
	"TextResourceContents":                  func() any { return new(mcp.TextResourceContents) },
	"Tool":                                  func() any { return new(mcp.Tool) },
	"ToolListChangedNotification":           func() any { return new(mcp.ToolListChangedNotification) },
	"ToolResultContent":                     func() any { return new(mcp.ToolResultContent) },
	"ToolUseContent":                        func() any { return new(mcp.ToolUseContent) },
	"UnsupportedProtocolVersionError":       func() any { return new(mcp.UnsupportedProtocolVersionError) },
}

// untypedExamples are the example definitions without a Go type, and why.
var untypedExamples = []string{
	"BooleanSchema", "NumberSchema", "StringSchema",
	"TitledMultiSelectEnumSchema", "TitledSingleSelectEnumSchema",
	"UntitledMultiSelectEnumSchema", "UntitledSingleSelectEnumSchema",
}

// invalidExamples are published examples that break the protocol, and why.
// The round trip skips them; the agreement test shows that both schemas
// reject them once the result is read by its resultType.
var invalidExamples = map[string]string{
	"ReadResourceResultResponse/read-resource-result-response.json": "a complete resources/read result without ttlMs and cacheScope, which are required; the published schema accepts it only through its InputRequiredResult branch",
}

func TestPublishedExamplesRoundTripThroughTheGeneratedTypes(t *testing.T) {
	_, specDir := published(t)
	dir := examplesDir(specDir)
	folders, err := os.ReadDir(dir)
	if err != nil {
		t.Skipf("no example corpus at %s: %v", dir, err)
	}
	files, typed, skipped := 0, 0, 0
	for _, folder := range folders {
		newValue, ok := exampleTypes[folder.Name()]
		if !ok {
			require.Contains(t, untypedExamples, folder.Name(), "an example definition with neither a Go type nor a reason")
			continue
		}
		typed++
		paths, err := filepath.Glob(filepath.Join(dir, folder.Name(), "*.json"))
		require.NoError(t, err)
		for _, path := range paths {
			files++
			name := folder.Name() + "/" + filepath.Base(path)
			if why, bad := invalidExamples[name]; bad {
				t.Logf("skipping %s: %s", name, why)
				skipped++
				continue
			}
			t.Run(name, func(t *testing.T) {
				raw, err := os.ReadFile(path)
				require.NoError(t, err)
				roundTrip(t, raw, newValue())
			})
		}
	}
	require.Equal(t, len(folders), typed+len(untypedExamples))
	t.Logf("%d examples of %d definitions decode into their Go types and encode to the same JSON (%d invalid ones skipped); %d definitions have no Go type", files-skipped, typed, skipped, len(untypedExamples))
}

func TestTheInvalidExamplesAreRejectedByOurSchema(t *testing.T) {
	_, specDir := published(t)
	o := ours(t)
	for name := range invalidExamples {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(examplesDir(specDir), name))
			require.NoError(t, err)
			defer f.Close()
			doc, err := jsonschema.UnmarshalJSON(f)
			require.NoError(t, err)
			sch, err := o.Def(filepath.Dir(name))
			require.NoError(t, err)
			require.Error(t, sch.Validate(doc))
		})
	}
}
