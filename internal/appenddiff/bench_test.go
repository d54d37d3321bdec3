package appenddiff_test

import (
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
)

// benchResult is the result of the benchmark's add tool: text and
// structured content.
var benchResult = v20251125.CallToolResult{
	Content:           []v20251125.ContentBlock{{Value: v20251125.TextContent{Type: "text", Text: "3"}}},
	StructuredContent: json.RawMessage(`{"sum":3}`),
}

// BenchmarkEncodeCallToolResult encodes a tools/call result with
// AppendJSON into a reused buffer (how the runtime writes a response), with
// MarshalJSON, and with json.Marshal (which calls MarshalJSON and then
// checks and compacts its output).
func BenchmarkEncodeCallToolResult(b *testing.B) {
	b.Run("AppendJSON", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 512)
		for b.Loop() {
			var err error
			if buf, err = benchResult.AppendJSON(buf[:0]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("MarshalJSON", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := benchResult.MarshalJSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json.Marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(benchResult); err != nil {
				b.Fatal(err)
			}
		}
	})
}
