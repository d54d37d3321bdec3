package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// MCPSpecDir holds the published MCP schemas, when the checkout has them.
// (Exported for the black-box tests, like everything in this file.)
const MCPSpecDir = "../../shared/mcp-spec"

// MCPVersions are the published versions, oldest first.
var MCPVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// MCPExpect is what the index of one published version must say.
type MCPExpect struct {
	Requests, Notifications int
	// Methods maps a method to "kind direction params result alt…", with
	// "-" for no params or no result.
	Methods map[string]string
	Absent  []string // methods the version must not have (payloads, removed)
}

// MCPExpected is the method index of each published version, from the MCP
// specification's method tables.
var MCPExpected = map[string]MCPExpect{
	"2024-11-05": {Requests: 15, Notifications: 9, Methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
		"tools/call":              "request client-to-server CallToolRequestParams CallToolResult",
		"logging/setLevel":        "request client-to-server SetLevelRequestParams EmptyResult",
		"resources/subscribe":     "request client-to-server SubscribeRequestParams EmptyResult",
		"resources/unsubscribe":   "request client-to-server UnsubscribeRequestParams EmptyResult",
		"roots/list":              "request server-to-client ListRootsRequestParams ListRootsResult",
	}, Absent: []string{"elicitation/create"}},
	"2025-03-26": {Requests: 15, Notifications: 9, Methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
	}},
	"2025-06-18": {Requests: 16, Notifications: 9, Methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
		"elicitation/create":      "request server-to-client ElicitRequestParams ElicitResult",
	}},
	"2025-11-25": {Requests: 20, Notifications: 11, Methods: map[string]string{
		"ping":                               "request both RequestParams EmptyResult",
		"notifications/progress":             "notification both ProgressNotificationParams -",
		"notifications/cancelled":            "notification both CancelledNotificationParams -",
		"sampling/createMessage":             "request server-to-client CreateMessageRequestParams CreateMessageResult CreateTaskResult",
		"elicitation/create":                 "request server-to-client ElicitRequestParams ElicitResult CreateTaskResult",
		"tools/call":                         "request client-to-server CallToolRequestParams CallToolResult CreateTaskResult",
		"tasks/get":                          "request both GetTaskRequestParams GetTaskResult",
		"tasks/list":                         "request both PaginatedRequestParams ListTasksResult",
		"notifications/elicitation/complete": "notification server-to-client ElicitationCompleteNotificationParams -",
		"logging/setLevel":                   "request client-to-server SetLevelRequestParams EmptyResult",
	}},
	"2026-07-28": {Requests: 10, Notifications: 8, Methods: map[string]string{
		"server/discover":         "request client-to-server RequestParams DiscoverResult",
		"notifications/progress":  "notification server-to-client ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"tools/call":              "request client-to-server CallToolRequestParams CallToolResult InputRequiredResult",
		"prompts/get":             "request client-to-server GetPromptRequestParams GetPromptResult InputRequiredResult",
		"resources/read":          "request client-to-server ReadResourceRequestParams ReadResourceResult InputRequiredResult",
		"subscriptions/listen":    "request client-to-server SubscriptionsListenRequestParams SubscriptionsListenResult",
	}, Absent: []string{"sampling/createMessage", "elicitation/create", "roots/list", "ping", "initialize"}},
}

// TestMCPIndexOfThePublishedSchemas derives the method index of each
// published schema and checks it against what the MCP specification says.
// The generated code and methods.lock.json are checked end to end in
// mcp_test.go.
func TestMCPIndexOfThePublishedSchemas(t *testing.T) {
	if _, err := os.Stat(MCPSpecDir); err != nil {
		t.Skipf("the published MCP schemas are not here (%s): %v", MCPSpecDir, err)
	}
	for _, v := range MCPVersions {
		t.Run(v, func(t *testing.T) {
			_, doc, err := readIndex(filepath.Join(MCPSpecDir, v, "schema.json"), nil)
			require.NoError(t, err)
			var p problems
			container := mcpLayout(doc, &p)
			index := mcpIndex(doc, container, doc.root.get(container), &p)
			require.NoError(t, p.err())
			want := MCPExpected[v]
			got := map[string]string{}
			var requests, notifications int
			for _, m := range index {
				params := "-"
				switch {
				case m.params == nil:
				case m.params.get("$ref") != nil:
					params = m.params.get("$ref").str[strings.LastIndex(m.params.get("$ref").str, "/")+1:]
				default:
					params = m.def + "Params"
				}
				desc := strings.Join(append([]string{kindName(m.notification), directionNames[m.direction], params, or(m.result, "-")}, m.altResults...), " ")
				got[m.name] = desc
				if m.notification {
					notifications++
				} else {
					requests++
				}
			}
			assert.Equal(t, want.Requests, requests, "requests")
			assert.Equal(t, want.Notifications, notifications, "notifications")
			for name, desc := range want.Methods {
				assert.Equal(t, desc, got[name], "%s", name)
			}
			for _, name := range want.Absent {
				assert.NotContains(t, got, name)
			}
		})
	}
}

func kindName(notification bool) string {
	if notification {
		return "notification"
	}
	return "request"
}

func or(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}
