package load

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestCallAtAlternatesToolsAndVariesArguments(t *testing.T) {
	seen := map[string]bool{}
	for n := int64(0); n < 16; n++ {
		c := CallAt(n)
		want := ToolEcho
		if n%2 == 1 {
			want = ToolAdd
		}
		if c.Tool != want {
			t.Fatalf("CallAt(%d).Tool = %q, want %q", n, c.Tool, want)
		}
		key := c.Text + "|" + c.ExpectedText()
		if seen[key] {
			t.Errorf("CallAt(%d) repeats an earlier call: %+v", n, c)
		}
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
		if got := tt.c.ExpectedText(); got != tt.want {
			t.Errorf("%+v: ExpectedText() = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestAppendJSONStringRoundTripsThroughEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"uo\te`, "tab\tnl\ncr\r", "\x00\x1f", "żółw ✓", "bad \xff utf8"} {
		var got string
		enc := appendJSONString(nil, s)
		if err := json.Unmarshal(enc, &got); err != nil {
			t.Fatalf("%q encodes to invalid JSON %s: %v", s, enc, err)
		}
		want := strings.ToValidUTF8(s, "\uFFFD")
		if got != want {
			t.Errorf("%q round-trips to %q", s, got)
		}
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
			got := string(appendToolsCall(nil, tt.protocol, 7, tt.c))
			if got != tt.want {
				t.Errorf("request\n got %s\nwant %s", got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Error("request is not valid JSON")
			}
		})
	}
}

func TestHandshakeMessagesAreValidJSON(t *testing.T) {
	var init struct {
		ID     int `json:"id"`
		Method string
		Params struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
	}
	if err := json.Unmarshal(initializeRequest(), &init); err != nil {
		t.Fatal(err)
	}
	if init.ID != initializeID || init.Method != "initialize" || init.Params.ProtocolVersion != Protocol20251125 {
		t.Errorf("initialize = %+v", init)
	}
	var note map[string]any
	if err := json.Unmarshal(initializedNotification(), &note); err != nil {
		t.Fatal(err)
	}
	if _, hasID := note["id"]; hasID || note["method"] != "notifications/initialized" {
		t.Errorf("initialized notification = %v", note)
	}
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
			if h.Get("Accept") != "application/json, text/event-stream" || h.Get("Content-Type") != "application/json" {
				t.Errorf("Accept/Content-Type = %q/%q", h.Get("Accept"), h.Get("Content-Type"))
			}
			for k, v := range tt.want {
				if got := h.Get(k); got != v {
					t.Errorf("%s = %q, want %q", k, got, v)
				}
			}
		})
	}
}

func TestCheckProtocolRejectsOthers(t *testing.T) {
	for _, p := range []string{Protocol20251125, Protocol20260728} {
		if err := checkProtocol(p); err != nil {
			t.Errorf("checkProtocol(%q) = %v", p, err)
		}
	}
	if err := checkProtocol("2024-11-05"); err == nil {
		t.Error("checkProtocol accepted 2024-11-05")
	}
}
