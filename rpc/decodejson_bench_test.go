package rpc_test

import (
	"testing"

	"github.com/schemarpc/schemarpc/rpc"
)

// toolArguments is a typical tool's arguments beyond the plain fields
// mcp decodes without DecodeJSON: a list, a map, an optional object.
type toolArguments struct {
	Query   string            `json:"query"`
	Limit   int               `json:"limit,omitempty"`
	Tags    []string          `json:"tags,omitempty"`
	Filters map[string]string `json:"filters,omitempty"`
	Deep    *struct {
		On    bool    `json:"on"`
		Level float64 `json:"level"`
	} `json:"deep,omitempty"`
	Score float64 `json:"score"`
}

var toolArgumentsJSON = []byte(`{"query":"weather in Paris","limit":5,"tags":["forecast","today"],"filters":{"lang":"fr","units":"metric"},"deep":{"on":true,"level":2},"score":0.5}`)

func BenchmarkDecodeJSONToolArguments(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var v toolArguments
		if err := rpc.DecodeJSON(toolArgumentsJSON, &v); err != nil {
			b.Fatal(err)
		}
	}
}
