package mcp_test

import (
	"encoding/base64"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// chB64 is the base64 wrapper of a header value.
func chB64(s string) string { return "=?base64?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }

func TestStreamableHTTPClientMirrors20260728RequestsInHeaders(t *testing.T) {
	// The tools the fake lists: "geo" mirrors four arguments; "broken"
	// annotates a number, which the rules forbid, so it gets no header.
	const tools = `{"tools":[
		{"name":"geo","inputSchema":{"type":"object","properties":{
			"region":{"type":"string","x-mcp-header":"Region"},
			"count":{"type":["integer","null"],"x-mcp-header":"Count"},
			"dry":{"type":"boolean","x-mcp-header":"Dry-Run"},
			"where":{"type":"object","properties":{"zone":{"type":"string","x-mcp-header":"Zone"}}}}}},
		{"name":"broken","inputSchema":{"type":"object","properties":{"n":{"type":"number","x-mcp-header":"N"}}}}],
		"resultType":"complete"}`
	ts, rec := chServe(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m := readFakeMsg(r)
		if m.Method == "tools/list" {
			writeJSON(w, http.StatusOK, chResult(m.ID, tools))
			return
		}
		writeJSON(w, http.StatusOK, chResult(m.ID, `{"content":[],"resultType":"complete"}`))
	}))
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: ts.URL}, nil)
	_, err := c.call(t, "tools/list", chStateless(nil))
	require.NoError(t, err)
	list := rec.last(t, "tools/list").Header
	assert.Equal(t, mcp.Version20260728, list.Get(mcp.HeaderProtocolVersion))
	assert.Equal(t, "tools/list", list.Get(mcp.HeaderMethod))
	assert.Empty(t, list.Values(mcp.HeaderName), "tools/list names nothing")

	tests := []struct {
		name   string
		method string
		params map[string]any
		want   map[string]string // header → value; "" means absent
	}{
		{"plain values", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": "us-west 1", "count": 42, "dry": true, "where": map[string]any{"zone": "b"}}},
			map[string]string{"Mcp-Name": "geo", "Mcp-Param-Region": "us-west 1", "Mcp-Param-Count": "42", "Mcp-Param-Dry-Run": "true", "Mcp-Param-Zone": "b"}},
		{"non-ASCII", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": "Köln"}},
			map[string]string{"Mcp-Param-Region": chB64("Köln"), "Mcp-Param-Count": "", "Mcp-Param-Dry-Run": ""}},
		{"leading and trailing spaces", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": " x "}},
			map[string]string{"Mcp-Param-Region": chB64(" x ")}},
		{"control characters", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": "a\tb\nc"}},
			map[string]string{"Mcp-Param-Region": chB64("a\tb\nc")}},
		{"text that looks like the wrapper", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": "=?base64?eA==?="}},
			map[string]string{"Mcp-Param-Region": chB64("=?base64?eA==?=")}},
		{"the empty string", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": ""}},
			map[string]string{"Mcp-Param-Region": chB64("")}},
		{"null means no header", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"region": nil, "count": nil}},
			map[string]string{"Mcp-Param-Region": "", "Mcp-Param-Count": ""}},
		{"an integral number written as a float", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"count": 7.0, "dry": false}},
			map[string]string{"Mcp-Param-Count": "7", "Mcp-Param-Dry-Run": "false"}},
		{"a big integer", "tools/call", map[string]any{"name": "geo", "arguments": map[string]any{"count": int64(9007199254740991)}},
			map[string]string{"Mcp-Param-Count": "9007199254740991"}},
		{"a tool breaking the rules gets none", "tools/call", map[string]any{"name": "broken", "arguments": map[string]any{"n": 1.5}},
			map[string]string{"Mcp-Name": "broken", "Mcp-Param-N": ""}},
		{"a tool never listed gets none", "tools/call", map[string]any{"name": "other", "arguments": map[string]any{"region": "x"}},
			map[string]string{"Mcp-Name": "other", "Mcp-Param-Region": ""}},
		{"prompts/get names the prompt", "prompts/get", map[string]any{"name": "greet ü"},
			map[string]string{"Mcp-Name": chB64("greet ü")}},
		{"resources/read names the URI", "resources/read", map[string]any{"uri": "file:///a b.txt"},
			map[string]string{"Mcp-Name": "file:///a b.txt"}},
		{"other methods name nothing", "resources/list", map[string]any{"name": "x"},
			map[string]string{"Mcp-Name": ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := c.call(t, tt.method, chStateless(tt.params))
			require.NoError(t, err)
			h := rec.last(t, tt.method).Header
			assert.Equal(t, mcp.Version20260728, h.Get(mcp.HeaderProtocolVersion))
			assert.Equal(t, tt.method, h.Get(mcp.HeaderMethod))
			assert.Empty(t, h.Values(mcp.HeaderSessionID))
			for name, want := range tt.want {
				if want == "" {
					assert.Empty(t, h.Values(name), name)
					continue
				}
				assert.Equal(t, []string{want}, h.Values(name), name)
			}
		})
	}
}
