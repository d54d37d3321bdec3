package load

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCallAtAlternatesToolsAndVariesArguments(t *testing.T) {
	seen := map[string]bool{}
	for n := int64(0); n < 16; n++ {
		c := CallAt(n)
		want := ToolEcho
		if n%2 == 1 {
			want = ToolAdd
		}
		require.Equal(t, want, c.Tool, "CallAt(%d)", n)
		key := c.Text + "|" + c.ExpectedText()
		assert.False(t, seen[key], "CallAt(%d) repeats an earlier call: %+v", n, c)
		seen[key] = true
	}
}

func TestExpectedTextOfAddIsTheShortestFloatForm(t *testing.T) {
	tests := []struct {
		c    Call
		want string
	}{
		{Call{Tool: ToolAdd, A: 1, B: 2}, "3"},
		{Call{Tool: ToolAdd, A: 3, B: 0.25}, "3.25"},
		{Call{Tool: ToolAdd, A: 1e21, B: 0}, "1e+21"},
		{Call{Tool: ToolEcho, Text: "x"}, "x"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.c.ExpectedText(), "%+v", tt.c)
	}
}

func TestAppendJSONStringRoundTripsThroughEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r", "\x00\x1f", "żółw ✓", "bad \xff utf8"} {
		var got string
		enc := appendJSONString(nil, s)
		require.NoError(t, json.Unmarshal(enc, &got), "%q encodes to %s", s, enc)
		assert.Equal(t, strings.ToValidUTF8(s, "\uFFFD"), got)
	}
}

func TestToolsCallRequestPerProtocol(t *testing.T) {
	echo := Call{Tool: ToolEcho, Text: `say "hi"`}
	add := Call{Tool: ToolAdd, A: 3, B: 0.25}
	tests := []struct {
		name     string
		protocol string
		c        Call
		want     string
	}{
		{"echo in the handshake era", Protocol20251125, echo,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"say \"hi\""}}}`},
		{"add in the handshake era", Protocol20251125, add,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":3,"b":0.25}}}`},
		{"add in the stateless era carries _meta", Protocol20260728, add,
			`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":3,"b":0.25},` +
				`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
				`"io.modelcontextprotocol/clientCapabilities":{},` +
				`"io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"1"}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := appendToolsCall(nil, tt.protocol, 7, tt.c)
			assert.Equal(t, tt.want, string(got))
			assert.True(t, json.Valid(got), "the request is valid JSON")
		})
	}
}

func TestHandshakeMessagesAreValidJSON(t *testing.T) {
	var init struct {
		ID     int    `json:"id"`
		Method string `json:"method"`
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		} `json:"params"`
	}
	require.NoError(t, json.Unmarshal(initializeRequest(), &init))
	assert.Equal(t, initializeID, init.ID)
	assert.Equal(t, "initialize", init.Method)
	assert.Equal(t, Protocol20251125, init.Params.ProtocolVersion)

	var note map[string]any
	require.NoError(t, json.Unmarshal(initializedNotification(), &note))
	assert.NotContains(t, note, "id")
	assert.Equal(t, "notifications/initialized", note["method"])
}

func TestHTTPHeadersPerProtocol(t *testing.T) {
	tests := []struct {
		name                         string
		protocol, method, tool, sess string
		want                         map[string]string
	}{
		{"initialize sends no version and no session", Protocol20251125, "initialize", "", "",
			map[string]string{"MCP-Protocol-Version": "", "Mcp-Session-Id": "", "Mcp-Method": ""}},
		{"calls in a session send version and session", Protocol20251125, "tools/call", "echo", "s1",
			map[string]string{"MCP-Protocol-Version": "2025-11-25", "Mcp-Session-Id": "s1", "Mcp-Method": "", "Mcp-Name": ""}},
		{"stateless calls mirror method and tool name", Protocol20260728, "tools/call", "add", "",
			map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "add", "Mcp-Session-Id": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			setHTTPHeaders(h, tt.protocol, tt.method, tt.tool, tt.sess)
			assert.Equal(t, "application/json, text/event-stream", h.Get("Accept"))
			assert.Equal(t, "application/json", h.Get("Content-Type"))
			for k, v := range tt.want {
				assert.Equal(t, v, h.Get(k), k)
			}
		})
	}
}

func TestCheckProtocolRejectsOthers(t *testing.T) {
	assert.NoError(t, checkProtocol(Protocol20251125))
	assert.NoError(t, checkProtocol(Protocol20260728))
	assert.ErrorContains(t, checkProtocol("2024-11-05"), `unknown protocol "2024-11-05"`)
}
