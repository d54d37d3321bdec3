package extradiff_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestDecodeErrorsNameTheMember(t *testing.T) {
	tests := []struct {
		name string
		in   string
		into func() any
		want []string // parts of the error text
	}{
		{"a string given a number", `{"name": 5}`, func() any { return new(v20251125.CallToolRequestParams) },
			[]string{`JSON number`, `Go string`, `at "/name"`}},
		{"a number written as a fraction into an integer", `{"maxTokens": 1.5, "messages": []}`, func() any { return new(v20251125.CreateMessageRequestParams) },
			[]string{`JSON number 1.5`, `Go int64`, `at "/maxTokens"`}},
		{"a number past the range of float64", `{"temperature": 1e400, "maxTokens": 1, "messages": []}`, func() any { return new(v20251125.CreateMessageRequestParams) },
			[]string{`1e400`, `Go float64`, `at "/temperature"`, `out of range`}},
		{"a bool given a string", `{"name": "t", "inputSchema": {}, "annotations": {"readOnlyHint": "yes"}}`, func() any { return new(v20251125.Tool) },
			[]string{`JSON string`, `Go bool`, `at "/annotations/readOnlyHint"`}},
		{"deep inside _meta", `{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":1,"version":"1"}}}`,
			func() any { return new(v20260728.CallToolResult) },
			[]string{`JSON number`, `Go string`, `at "/_meta/io.modelcontextprotocol~1serverInfo/name"`}},
		{"a member of a request's _meta", `{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":1}}`,
			func() any { return new(v20260728.CallToolRequestParams) },
			[]string{`JSON number`, `Go v20260728.LoggingLevel`, `at "/_meta/io.modelcontextprotocol~1logLevel"`}},
		{"an element of an array", `{"messages": [{"role": "user", "content": {"type": "text", "text": "x"}}, {"role": 7}], "maxTokens": 1}`,
			func() any { return new(v20251125.CreateMessageRequestParams) },
			[]string{`JSON number`, `at "/messages/1/role"`}},
		{"an object given an array", `{"name": "t", "_meta": []}`, func() any { return new(v20251125.CallToolRequestParams) },
			[]string{`JSON array`, `at "/_meta"`}},
		{"a repeated member", `{"name": "a", "name": "b"}`, func() any { return new(v20251125.CallToolRequestParams) },
			[]string{`duplicate member name "name"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := rpc.DecodeJSON([]byte(tt.in), tt.into())
			require.Error(t, err)
			for _, part := range tt.want {
				assert.Contains(t, err.Error(), part)
			}
		})
	}
}
