package gen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mcpSpecDir holds the published MCP schemas, when the checkout has them.
const mcpSpecDir = "../../shared/mcp-spec"

// mcpVersions are the published versions, oldest first.
var mcpVersions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// mcpExpect is what the index of one published version must say.
type mcpExpect struct {
	requests, notifications int
	// methods maps a method to "kind direction params result alt…", with
	// "-" for no params or no result.
	methods map[string]string
	absent  []string // methods the version must not have (payloads, removed)
}

var mcpExpected = map[string]mcpExpect{
	"2024-11-05": {requests: 15, notifications: 9, methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
		"tools/call":              "request client-to-server CallToolRequestParams CallToolResult",
		"logging/setLevel":        "request client-to-server SetLevelRequestParams EmptyResult",
		"resources/subscribe":     "request client-to-server SubscribeRequestParams EmptyResult",
		"resources/unsubscribe":   "request client-to-server UnsubscribeRequestParams EmptyResult",
		"roots/list":              "request server-to-client ListRootsRequestParams ListRootsResult",
	}, absent: []string{"elicitation/create"}},
	"2025-03-26": {requests: 15, notifications: 9, methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
	}},
	"2025-06-18": {requests: 16, notifications: 9, methods: map[string]string{
		"ping":                    "request both PingRequestParams EmptyResult",
		"notifications/progress":  "notification both ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"sampling/createMessage":  "request server-to-client CreateMessageRequestParams CreateMessageResult",
		"elicitation/create":      "request server-to-client ElicitRequestParams ElicitResult",
	}},
	"2025-11-25": {requests: 20, notifications: 11, methods: map[string]string{
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
	"2026-07-28": {requests: 10, notifications: 8, methods: map[string]string{
		"server/discover":         "request client-to-server RequestParams DiscoverResult",
		"notifications/progress":  "notification server-to-client ProgressNotificationParams -",
		"notifications/cancelled": "notification both CancelledNotificationParams -",
		"tools/call":              "request client-to-server CallToolRequestParams CallToolResult InputRequiredResult",
		"prompts/get":             "request client-to-server GetPromptRequestParams GetPromptResult InputRequiredResult",
		"resources/read":          "request client-to-server ReadResourceRequestParams ReadResourceResult InputRequiredResult",
		"subscriptions/listen":    "request client-to-server SubscriptionsListenRequestParams SubscriptionsListenResult",
	}, absent: []string{"sampling/createMessage", "elicitation/create", "roots/list", "ping", "initialize"}},
}

// TestMCPIndexOfThePublishedSchemas derives the method index of each
// published schema and checks it against what the MCP specification says.
// The generated code and methods.lock.json are checked end to end in
// mcp_test.go.
func TestMCPIndexOfThePublishedSchemas(t *testing.T) {
	if _, err := os.Stat(mcpSpecDir); err != nil {
		t.Skipf("the published MCP schemas are not here (%s): %v", mcpSpecDir, err)
	}
	for _, v := range mcpVersions {
		t.Run(v, func(t *testing.T) {
			_, doc, err := readIndex(filepath.Join(mcpSpecDir, v, "schema.json"))
			require.NoError(t, err)
			var p problems
			container := mcpLayout(doc, &p)
			index := mcpIndex(doc, container, doc.root.get(container), &p)
			require.NoError(t, p.err())
			want := mcpExpected[v]
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
			assert.Equal(t, want.requests, requests, "requests")
			assert.Equal(t, want.notifications, notifications, "notifications")
			for name, desc := range want.methods {
				assert.Equal(t, desc, got[name], "%s", name)
			}
			for _, name := range want.absent {
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
