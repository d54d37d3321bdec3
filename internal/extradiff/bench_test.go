package extradiff_test

import (
	"testing"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// callParams are tools/call params as a 2026-07-28 client sends them: the
// per-request members in _meta, which the 2025-11-25 RequestMeta does not
// name.
var callParams = []byte(`{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1.0.0"}}}`)

// BenchmarkDecodeCallParams decodes the params with the generated
// UnmarshalJSON of each era's bindings.
func BenchmarkDecodeCallParams(b *testing.B) {
	b.Run("v20251125", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p v20251125.CallToolRequestParams
			if err := rpc.DecodeJSON(callParams, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("v20260728", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p v20260728.CallToolRequestParams
			if err := rpc.DecodeJSON(callParams, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
	// As a server decodes them: read and checked with their message, then
	// not checked again (rpc.CheckedUnmarshaler).
	req, _, perr := rpc.ParseRequest(append(append([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`), callParams...), '}'))
	if perr != nil {
		b.Fatal(perr)
	}
	b.Run("v20260728 read with its message", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var p v20260728.CallToolRequestParams
			if err := req.DecodeParams(&p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
