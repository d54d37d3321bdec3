package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

func TestProtocolVersionsFollowTheRequestedRevision(t *testing.T) {
	tests := []struct {
		requested string
		want      []string
		err       string
	}{
		{"", []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}, ""},
		{"2025-11-25", []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"}, ""},
		{"2025-06-18", []string{"2025-06-18", "2025-03-26", "2024-11-05"}, ""},
		{"2026-07-28", []string{"2026-07-28"}, ""},
		{"1999-01-01", nil, `"1999-01-01" is no version`},
	}
	for _, tt := range tests {
		t.Run("requested "+tt.requested, func(t *testing.T) {
			got, err := protocolVersions(tt.requested)
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestEveryScenarioOfTheCoreFamilyIsKnown(t *testing.T) {
	for _, name := range []string{
		"initialize", "tools_call", "elicitation-sep1034-client-defaults", "sse-retry", "request-metadata",
		"sep-2322-client-request-state", "http-standard-headers", "http-custom-headers", "http-invalid-tool-headers",
		"json-schema-ref-no-deref", "json-schema-2020-12-preservation",
	} {
		assert.Contains(t, scenarios(), name)
	}
}

func TestContextToolCalls(t *testing.T) {
	got, err := contextToolCalls(json.RawMessage(`{"toolCalls":[{"name":"a","arguments":{"x":null,"y":3.14159}},{"name":"b"}]}`))
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "a", got[0].Name)
	assert.JSONEq(t, `{"x":null,"y":3.14159}`, string(got[0].Arguments), "arguments are passed on as written")
	assert.Empty(t, got[1].Arguments)

	for _, tt := range []struct{ context, err string }{
		{"", "MCP_CONFORMANCE_CONTEXT is missing"},
		{`[1]`, "MCP_CONFORMANCE_CONTEXT"},
		{`{"toolCalls":[]}`, "lists no toolCalls"},
		{`{"toolCalls":[{"arguments":{}}]}`, "toolCalls[0] has no name"},
	} {
		_, err := contextToolCalls(json.RawMessage(tt.context))
		assert.ErrorContains(t, err, tt.err, tt.context)
	}
}

func TestPlaceholderArgumentsFillEveryRequiredPropertyByType(t *testing.T) {
	got, err := placeholderArguments(json.RawMessage(`{"type":"object","properties":{
		"s":{"type":"string"},"i":{"type":"integer"},"n":{"type":"number"},"b":{"type":"boolean"},
		"o":{"type":"object"},"a":{"type":"array"},"z":{"type":"null"},"optional":{"type":"string"}},
		"required":["s","i","n","b","o","a","z"]}`))
	require.NoError(t, err)
	assert.JSONEq(t, `{"s":"us-west1","i":1,"n":1,"b":true,"o":{},"a":[],"z":null}`, string(got))

	got, err = placeholderArguments(nil)
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(got))

	_, err = placeholderArguments(json.RawMessage(`[]`))
	assert.ErrorContains(t, err, "input schema")
}

func TestResultTextJoinsTheTextBlocks(t *testing.T) {
	res := &mcp.CallToolResult{Content: []mcp.ContentBlock{
		{Value: mcp.TextContent{Type: "text", Text: "one"}},
		{Value: mcp.ImageContent{Type: "image", Data: "AA==", MIMEType: "image/png"}},
		{Value: &mcp.TextContent{Type: "text", Text: "two"}},
	}}
	assert.Equal(t, "one\ntwo", resultText(res))
}

func TestExpectText(t *testing.T) {
	assert.NoError(t, expectText("tool", "The sum of 1 and 2 is 3", "3"))
	assert.ErrorContains(t, expectText("tool", "nothing", "3"), `tool answered "nothing", want it to contain "3"`)
}

func TestFindToolNamesWhatTheServerListed(t *testing.T) {
	tools := []*mcp.Tool{{Name: "a"}, {Name: "b"}}
	got, err := findTool(tools, "b")
	require.NoError(t, err)
	assert.Same(t, tools[1], got)
	_, err = findTool(tools, "c")
	assert.ErrorContains(t, err, `no tool "c" (it lists [a b])`)
}
