package mcpcheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

const (
	c2s = mcpcheck.ClientToServer
	s2c = mcpcheck.ServerToClient
)

// step is one message of a session and the problem it must be reported
// with ("" for a valid message).
type step struct {
	dir  mcpcheck.Direction
	msg  string
	want string
}

const (
	toolCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
)

func TestCheckerFollowsASession(t *testing.T) {
	cases := []struct {
		name    string
		version string
		steps   []step
	}{
		{"a handshake and a tool call are valid", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}}`, ""},
			{c2s, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, ""},
			{c2s, toolCall, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5,"total":1}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}],"structuredContent":{"text":"hi"}}}`, ""},
		}},
		{"a task-augmented tool call may answer with a task", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"slow","task":{"ttl":60000}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":"a","result":{"task":{"taskId":"t1","status":"working","createdAt":"2025-11-25T00:00:00Z","lastUpdatedAt":"2025-11-25T00:00:00Z","ttl":null}}}`, ""},
		}},
		{"ping results are empty objects, in both directions", "2024-11-05", []step{
			{s2c, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":7,"result":{}}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":7,"result":{}}`, ""},
		}},
		{"a response to an id nobody sent is reported", "2025-11-25", []step{
			{s2c, `{"jsonrpc":"2.0","id":99,"result":{}}`, "did not send"},
		}},
		{"a response is matched once only", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":3,"result":{}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":3,"result":{}}`, "already answered"},
		}},
		{"a string id and a number id are different requests", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":"3","method":"ping"}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":3,"result":{}}`, "did not send"},
		}},
		{"a response is checked against the result of its request", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":4,"result":{"prompts":[]}}`, "ListToolsResult"},
		}},
		{"an error response with the id null is accepted", "2025-06-18", []step{
			{s2c, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`, ""},
		}},
		{"a request for an unknown method is reported, and only an error may answer it", "2025-06-18", []step{
			{c2s, `{"jsonrpc":"2.0","id":8,"method":"tasks/list"}`, "does not exist in protocol version 2025-06-18"},
			{s2c, `{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"method not found"}}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":9,"method":"no/such"}`, "not an MCP method"},
			{s2c, `{"jsonrpc":"2.0","id":9,"result":{}}`, "has no result"},
		}},
		{"an error response answers its request", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":5,"method":"prompts/get","params":{"name":"nope"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"unknown prompt"}}`, ""},
		}},
		{"invalid params are reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"arguments":{}}}`, "params of \"tools/call\""},
		}},
		{"missing required params are reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":6,"method":"resources/read"}`, "missing property 'uri'"},
		}},
		{"a request id of null is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":null,"method":"ping"}`, "id null"},
		}},
		{"a request id already in flight is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":8,"method":"ping"}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, "already in flight"},
		}},
		{"a method sent the wrong way is reported", "2025-11-25", []step{
			{s2c, toolCall, "client-to-server only"},
			{c2s, `{"jsonrpc":"2.0","id":9,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, "server-to-client only"},
		}},
		{"a notification sent as a request is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":10,"method":"notifications/initialized"}`, "it is a notification"},
			{c2s, `{"jsonrpc":"2.0","method":"ping"}`, "it is a request"},
		}},
		{"an unknown method is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":11,"method":"tools/frobnicate"}`, "not an MCP method"},
		}},
		{"a method newer than the session is reported", "2025-03-26", []step{
			{s2c, `{"jsonrpc":"2.0","id":12,"method":"elicitation/create","params":{"message":"m","requestedSchema":{"type":"object","properties":{}}}}`, "appeared in 2025-06-18"},
			{c2s, `{"jsonrpc":"2.0","id":13,"method":"tasks/list"}`, "appeared in 2025-11-25"},
		}},
		{"a message that is not JSON-RPC is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"1.0","id":1,"method":"ping"}`, "not a JSON-RPC 2.0 message"},
			{c2s, `{"jsonrpc":"2.0",`, "not JSON"},
		}},
		{"the error answering an unknown method matches its request", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":20,"method":"tools/frobnicate"}`, "not an MCP method"},
			{s2c, `{"jsonrpc":"2.0","id":20,"error":{"code":-32601,"message":"method not found"}}`, ""},
		}},
		{"the error answering a malformed request matches its request", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":"x","method":7}`, "not a JSON-RPC 2.0 message"},
			{s2c, `{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"invalid request"}}`, ""},
		}},
		{"a result answering an unknown method is reported", "2025-11-25", []step{
			{c2s, `{"jsonrpc":"2.0","id":21,"method":"tools/frobnicate"}`, "not an MCP method"},
			{s2c, `{"jsonrpc":"2.0","id":21,"result":{}}`, "has no result"},
		}},
		{"a batch is accepted in a 2025-03-26 session", "2025-03-26", []step{
			{c2s, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`, ""},
			{s2c, `[{"jsonrpc":"2.0","id":2,"result":{"tools":[]}},{"jsonrpc":"2.0","id":1,"result":{}}]`, ""},
		}},
		{"a batch member is checked like a single message", "2025-03-26", []step{
			{c2s, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{}}]`, "batch member 1"},
		}},
		{"an empty batch is reported", "2025-03-26", []step{
			{c2s, `[]`, "empty batch"},
		}},
		{"a batch outside 2025-03-26 is reported", "2025-06-18", []step{
			{c2s, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "batches exist only in 2025-03-26"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpcheck.New(tc.version)
			require.NoError(t, err)
			for i, s := range tc.steps {
				err := c.Check(s.dir, []byte(s.msg))
				if s.want == "" {
					assert.NoError(t, err, "step %d", i)
				} else if assert.Error(t, err, "step %d", i) {
					assert.Contains(t, err.Error(), s.want, "step %d", i)
				}
			}
		})
	}
}

func TestNewRefusesAnUnknownVersion(t *testing.T) {
	for _, v := range []string{"2026-07-29", "2024-11-04", "draft", ""} {
		_, err := mcpcheck.New(v)
		require.ErrorContains(t, err, "unknown protocol version", v)
	}
}

func TestPublishedSchemaCatchesWhatAnOlderVersionLacks(t *testing.T) {
	cases := []struct {
		name, version, result, want string
	}{
		{"audio content did not exist in 2024-11-05", "2024-11-05",
			`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`, "published 2024-11-05 CallToolResult"},
		{"resource links did not exist in 2025-03-26", "2025-03-26",
			`{"content":[{"type":"resource_link","uri":"file:///a","name":"a"}]}`, "published 2025-03-26 CallToolResult"},
		{"audio content exists in 2025-03-26", "2025-03-26",
			`{"content":[{"type":"audio","data":"AAAA","mimeType":"audio/wav"}]}`, ""},
		{"structured content exists in 2025-06-18", "2025-06-18",
			`{"content":[],"structuredContent":{"a":1}}`, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpcheck.New(tc.version)
			require.NoError(t, err)
			if !c.Published() {
				t.Skip("no shared/mcp-spec above the working directory: the published schemas are not available")
			}
			require.NoError(t, c.Check(c2s, []byte(toolCall)))
			err = c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":`+tc.result+`}`))
			if tc.want == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestWithoutThePublishedSchemasOurSchemaStillChecks(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := mcpcheck.New("2025-11-25")
	require.NoError(t, err)
	assert.False(t, c.Published())
	require.NoError(t, c.Check(c2s, []byte(toolCall)))
	require.ErrorContains(t, c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":{}}`)), "CallToolOutcome")
}
