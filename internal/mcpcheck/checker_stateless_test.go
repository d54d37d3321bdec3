package mcpcheck_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
)

// meta is the _meta every 2026-07-28 request carries.
const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`

const (
	statelessToolCall = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{` + meta + `,"name":"echo","arguments":{"text":"hi"}}}`
	serverInfo        = `"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}`
)

func TestStatelessCheckerFollowsStatelessRequests(t *testing.T) {
	cases := []struct {
		name  string
		steps []step
	}{
		{"discover and a tool call are valid", []step{
			{c2s, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + meta + `}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],"capabilities":{"tools":{"listChanged":true}},"ttlMs":60000,"cacheScope":"public",` + serverInfo + `}}`, ""},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.5}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"text","text":"hi"}],"structuredContent":[1.5,null],` + serverInfo + `}}`, ""},
		}},
		{"a tool call may ask for input, and the retry answers it", []step{
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}}}}},"requestState":"sealed"}}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + meta + `,"name":"echo","inputResponses":{"who":{"action":"accept","content":{"name":"Ada","age":36}}},"requestState":"sealed"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":3,"result":{"resultType":"complete","content":[]}}`, ""},
		}},
		{"prompts/get and resources/read may ask for input too", []step{
			{c2s, `{"jsonrpc":"2.0","id":4,"method":"prompts/get","params":{` + meta + `,"name":"p"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":4,"result":{"resultType":"input_required","requestState":"s"}}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{` + meta + `,"uri":"file:///a"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}}`, ""},
		}},
		{"other methods may not ask for input", []step{
			{c2s, `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{` + meta + `}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":6,"result":{"resultType":"input_required","requestState":"s"}}`, "ListToolsResult"},
		}},
		{"a request without params is reported: _meta is required", []step{
			{c2s, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, "missing property '_meta'"},
		}},
		{"a request without the protocol version is reported", []step{
			{c2s, `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, "io.modelcontextprotocol/protocolVersion"},
		}},
		{"a result without resultType is reported", []step{
			{c2s, `{"jsonrpc":"2.0","id":9,"method":"completion/complete","params":{` + meta + `,"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":9,"result":{"completion":{"values":[]}}}`, "resultType"},
		}},
		{"a cacheable result without its caching hints is reported", []step{
			{c2s, `{"jsonrpc":"2.0","id":10,"method":"prompts/list","params":{` + meta + `}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":10,"result":{"resultType":"complete","prompts":[]}}`, "ttlMs"},
		}},
		{"handshake methods and input-request payloads are not 2026-07-28 messages", []step{
			{c2s, `{"jsonrpc":"2.0","id":11,"method":"initialize","params":{}}`, "not an MCP method"},
			{c2s, `{"jsonrpc":"2.0","id":12,"method":"ping"}`, "not an MCP method"},
			{s2c, `{"jsonrpc":"2.0","id":13,"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, "not an MCP method"},
			{c2s, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, "not an MCP method"},
		}},
		{"progress comes from the server only; cancellation from either side", []step{
			{c2s, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`, "server-to-client only"},
			{c2s, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"listen-1"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`, "requestId"},
		}},
		{"a listen stream: acknowledgement, notifications, graceful close", []step{
			{c2s, `{"jsonrpc":"2.0","id":"listen-1","method":"subscriptions/listen","params":{` + meta + `,"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"},"uri":"file:///a"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":"listen-1","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"listen-1"}}}`, ""},
		}},
		{"a listen result must name its subscription", []step{
			{c2s, `{"jsonrpc":"2.0","id":"l2","method":"subscriptions/listen","params":{` + meta + `,"notifications":{}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":"l2","result":{"resultType":"complete",` + serverInfo + `}}`, "io.modelcontextprotocol/subscriptionId"},
		}},
		{"the 2026-07-28 errors are checked against their definitions", []step{
			{c2s, `{"jsonrpc":"2.0","id":20,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":20,"error":{"code":-32022,"message":"unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}}}`, ""},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"unsupported protocol version"}}`, "UnsupportedProtocolVersionError"},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32021,"message":"missing capability","data":{"requiredCapabilities":{"sampling":{}}}}}`, ""},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32021,"message":"missing capability","data":{}}}`, "requiredCapabilities"},
			{s2c, `{"jsonrpc":"2.0","id":null,"error":{"code":-32020,"message":"header mismatch"}}`, ""},
		}},
		{"codes 2026-07-28 does not send are reported", []step{
			{c2s, `{"jsonrpc":"2.0","id":30,"method":"resources/read","params":{` + meta + `,"uri":"file:///nope"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":30,"error":{"code":-32002,"message":"resource not found"}}`, "an unknown resource is -32602"},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32042,"message":"url elicitation required"}}`, "defines no such code"},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"error":{"code":-32001,"message":"application defined"}}`, ""},
		}},
		{"the tasks extension: a created task and its methods are checked for their shape", []step{
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":1000,` + serverInfo + `}}`, ""},
			{c2s, statelessToolCall, ""},
			{s2c, `{"jsonrpc":"2.0","id":2,"result":{"resultType":"task","task":{"taskId":"t1"},"ttl":1000}}`, "lacks the string taskId"},
			{c2s, `{"jsonrpc":"2.0","id":40,"method":"tasks/get","params":{` + meta + `,"taskId":"t1"}}`, ""},
			{s2c, `{"jsonrpc":"2.0","id":40,"result":{"resultType":"complete","taskId":"t1","status":"working"}}`, ""},
			{c2s, `{"jsonrpc":"2.0","id":41,"method":"tasks/cancel","params":{` + meta + `}}`, "lack the string taskId"},
			{s2c, `{"jsonrpc":"2.0","id":41,"result":{}}`, "want \"complete\""},
			{c2s, `{"jsonrpc":"2.0","method":"tasks/update","params":{"taskId":"t1"}}`, "wrong kind of message"},
			{s2c, `{"jsonrpc":"2.0","id":42,"method":"tasks/get","params":{"taskId":"t1"}}`, "not sent server-to-client"},
			{s2c, `{"jsonrpc":"2.0","method":"notifications/tasks","params":{"taskId":"t1","status":"completed"}}`, ""},
		}},
		{"batches do not exist", []step{
			{c2s, `[` + statelessToolCall + `]`, "batches exist only in 2025-03-26"},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := mcpcheck.New(mcpcheck.StatelessVersion)
			require.NoError(t, err)
			assert.Equal(t, mcpcheck.StatelessVersion, c.Version())
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

func TestStatelessCheckerUsesThePublishedSchemaWhenFound(t *testing.T) {
	c, err := mcpcheck.New(mcpcheck.StatelessVersion)
	require.NoError(t, err)
	if !c.Published() {
		t.Skip("no shared/mcp-spec above the working directory: the published schemas are not available")
	}
	require.NoError(t, c.Check(c2s, []byte(statelessToolCall)))
	// Ours pins resultType complete, the published schema does not; an
	// unknown member in a result is accepted by both.
	require.NoError(t, c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[],"x.example/extra":true}}`)))
	require.NoError(t, c.Check(c2s, []byte(statelessToolCall)))
	err = c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","content":[{"type":"video"}]}}`))
	require.ErrorContains(t, err, "our tools.json#/$defs/CallToolOutcome")
	// resultType complete selects the published CallToolResult: its
	// InputRequiredResult would accept anything with a resultType.
	require.ErrorContains(t, err, "published 2026-07-28 CallToolResult")

	// The published schema's known defect (mcp-protocol.md §8.3.1): an
	// elicitation answer with a fractional number is valid MCP, which our
	// schema accepts and the published one rejects. The checker reports
	// what the published schema says.
	retry := `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{` + meta + `,"name":"echo","inputResponses":{"who":{"action":"accept","content":{"age":36.5}}},"requestState":"s"}}`
	err = c.Check(c2s, []byte(retry))
	require.ErrorContains(t, err, "published 2026-07-28 CallToolRequest")
	assert.NotContains(t, err.Error(), "our ")
}

func TestStatelessCheckerWithoutThePublishedSchemas(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := mcpcheck.New(mcpcheck.StatelessVersion)
	require.NoError(t, err)
	assert.False(t, c.Published())
	require.NoError(t, c.Check(c2s, []byte(statelessToolCall)))
	require.ErrorContains(t, c.Check(s2c, []byte(`{"jsonrpc":"2.0","id":2,"result":{"content":[]}}`)), "CallToolOutcome")
}

func TestLoadOursForEachEra(t *testing.T) {
	cases := []struct {
		version, has, lacks string
	}{
		{mcpcheck.OurVersion, "initialize", "server/discover"},
		{mcpcheck.StatelessVersion, "server/discover", "initialize"},
	}
	for _, tc := range cases {
		t.Run(tc.version, func(t *testing.T) {
			o, err := mcpcheck.LoadOursFor(tc.version)
			require.NoError(t, err)
			assert.Equal(t, tc.version, o.Version())
			_, ok := o.Method(tc.has)
			assert.True(t, ok, tc.has)
			_, ok = o.Method(tc.lacks)
			assert.False(t, ok, tc.lacks)
		})
	}
	_, err := mcpcheck.LoadOursFor("1999-01-01")
	require.ErrorContains(t, err, "no methods")
}
