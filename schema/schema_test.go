package schema_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/schema"
)

// compile compiles one embedded document from schema.FS, with every other
// embedded document available to its refs and nothing else.
func compile(t *testing.T, path string) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	err := fs.WalkDir(schema.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, err := schema.FS.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			return err
		}
		require.Equal(t, schema.BaseURL+p, doc.(map[string]any)["$id"], "%s: $id must be BaseURL + path", p)
		return c.AddResource(schema.BaseURL+p, doc)
	})
	require.NoError(t, err)
	sch, err := c.Compile(schema.BaseURL + path)
	require.NoError(t, err)
	return sch
}

func instance(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	require.NoError(t, err)
	return v
}

func TestEnvelopeSchemas(t *testing.T) {
	cases := []struct {
		doc   string
		valid []string
		bad   []string
	}{
		{"jsonrpc/request.json",
			[]string{`{"jsonrpc":"2.0","method":"m","id":1}`, `{"jsonrpc":"2.0","method":"m","params":[],"id":"x"}`, `{"jsonrpc":"2.0","method":"m","params":{},"id":null}`, `{"jsonrpc":"2.0","method":"m","id":1.5}`},
			[]string{`{"jsonrpc":"2.0","method":"m"}`, `{"jsonrpc":"1.0","method":"m","id":1}`, `{"jsonrpc":"2.0","method":1,"id":1}`, `{"jsonrpc":"2.0","method":"m","params":"p","id":1}`, `{"jsonrpc":"2.0","method":"m","id":{}}`, `{"jsonrpc":"2.0","method":"m","id":1,"x":1}`}},
		{"jsonrpc/notification.json",
			[]string{`{"jsonrpc":"2.0","method":"m"}`, `{"jsonrpc":"2.0","method":"m","params":[1]}`},
			[]string{`{"jsonrpc":"2.0","method":"m","id":1}`, `{"method":"m"}`, `{"jsonrpc":"2.0","method":"m","params":null}`}},
		{"jsonrpc/response.json",
			[]string{`{"jsonrpc":"2.0","result":null,"id":1}`, `{"jsonrpc":"2.0","result":{"a":1},"id":"x"}`},
			[]string{`{"jsonrpc":"2.0","id":1}`, `{"jsonrpc":"2.0","result":1}`, `{"jsonrpc":"2.0","result":1,"error":{"code":1,"message":"m"},"id":1}`}},
		{"jsonrpc/error-response.json",
			[]string{`{"jsonrpc":"2.0","error":{"code":-32600,"message":"m"},"id":null}`, `{"jsonrpc":"2.0","error":{"code":42,"message":"m","data":[1]},"id":1}`},
			[]string{`{"jsonrpc":"2.0","error":{"code":1.5,"message":"m"},"id":1}`, `{"jsonrpc":"2.0","error":{"message":"m"},"id":1}`, `{"jsonrpc":"2.0","error":{"code":1,"message":"m","extra":1},"id":1}`}},
		{"jsonrpc/error.json",
			[]string{`{"code":1,"message":""}`},
			[]string{`{"code":"1","message":"m"}`, `{"code":1}`}},
		{"jsonrpc/batch.json",
			[]string{`[{"jsonrpc":"2.0","method":"m","id":1},{"jsonrpc":"2.0","method":"n"}]`, `[{"jsonrpc":"2.0","result":1,"id":1}]`},
			[]string{`[]`, `[1]`, `{"jsonrpc":"2.0","method":"m"}`}},
		{"jsonrpc/message.json",
			[]string{`{"jsonrpc":"2.0","method":"m","id":1}`, `{"jsonrpc":"2.0","method":"m"}`, `{"jsonrpc":"2.0","result":1,"id":1}`, `{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"id":1}`},
			[]string{`{"jsonrpc":"2.0"}`, `[]`, `{"jsonrpc":"2.0","method":"m","result":1,"id":1}`}},
	}
	for _, c := range cases {
		t.Run(c.doc, func(t *testing.T) {
			sch := compile(t, c.doc)
			for _, s := range c.valid {
				assert.NoError(t, sch.Validate(instance(t, s)), s)
			}
			for _, s := range c.bad {
				assert.Error(t, sch.Validate(instance(t, s)), s)
			}
		})
	}
}

// compileDefs compiles every $defs entry of an embedded document.
func compileDefs(t *testing.T, path string) []string {
	t.Helper()
	b, err := fs.ReadFile(schema.FS, path)
	require.NoError(t, err)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(b)))
	require.NoError(t, err)
	defs, _ := doc.(map[string]any)["$defs"].(map[string]any)
	var names []string
	for name := range defs {
		compile(t, path+"#/$defs/"+name)
		names = append(names, name)
	}
	return names
}

func TestEveryMCPDefinitionCompiles(t *testing.T) {
	files, err := fs.Glob(schema.FS, "mcp/*/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			compile(t, f)
			compileDefs(t, f)
		})
	}
}

func TestMCPDefinitionsUseThePublishedNames(t *testing.T) {
	// The names the published 2025-11-25 schema gives these concepts; code
	// built on the generated package depends on them.
	want := []string{
		"CallToolRequestParams", "CallToolResult", "Tool", "ToolAnnotations", "ToolExecution", "ListToolsResult",
		"ContentBlock", "TextContent", "ImageContent", "AudioContent", "ResourceLink", "EmbeddedResource",
		"TextResourceContents", "BlobResourceContents", "Resource", "ResourceTemplate", "ReadResourceRequestParams",
		"ReadResourceResult", "ListResourcesResult", "ListResourceTemplatesResult", "SubscribeRequestParams",
		"UnsubscribeRequestParams", "ResourceUpdatedNotificationParams", "Prompt", "PromptArgument", "PromptMessage",
		"GetPromptRequestParams", "GetPromptResult", "ListPromptsResult", "CompleteRequestParams", "CompleteResult",
		"PromptReference", "ResourceTemplateReference", "SetLevelRequestParams", "LoggingLevel",
		"LoggingMessageNotificationParams", "ProgressNotificationParams", "CancelledNotificationParams",
		"InitializeRequestParams", "InitializeResult", "ClientCapabilities", "ServerCapabilities", "Implementation",
		"Icon", "CreateMessageRequestParams", "CreateMessageResult", "SamplingMessage", "ModelPreferences",
		"ElicitRequestParams", "ElicitRequestFormParams", "ElicitRequestURLParams", "ElicitResult",
		"PrimitiveSchemaDefinition", "StringSchema", "NumberSchema", "BooleanSchema", "UntitledSingleSelectEnumSchema",
		"TitledSingleSelectEnumSchema", "UntitledMultiSelectEnumSchema", "TitledMultiSelectEnumSchema",
		"LegacyTitledEnumSchema", "ListRootsResult", "Root", "Task", "TaskStatus", "CreateTaskResult", "GetTaskResult",
		"GetTaskPayloadResult", "CancelTaskResult", "ListTasksResult", "TaskStatusNotificationParams",
		"PaginatedRequestParams", "RequestParams", "NotificationParams", "EmptyResult", "Result", "Cursor",
		"ProgressToken", "RequestId", "Role", "Annotations", "GetTaskRequestParams", "GetTaskPayloadRequestParams",
		"CancelTaskRequestParams", "ElicitationCompleteNotificationParams", "CallToolOutcome",
	}
	files, err := fs.Glob(schema.FS, "mcp/2025-11-25/*.json")
	require.NoError(t, err)
	have := map[string]string{}
	for _, f := range files {
		for _, name := range compileDefs(t, f) {
			prev, dup := have[name]
			assert.False(t, dup, "%s is defined in %s and %s", name, prev, f)
			have[name] = f
		}
	}
	for _, name := range want {
		assert.Contains(t, have, name)
	}
}
