package inproc_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/bench/surface/mcpgo"
)

// BenchmarkMCPGoHandleMessage is a reference for BenchmarkToolsCall/mcpgo:
// mcp-go's MCPServer.HandleMessage on one tools/call line and the JSON
// encoding of its reply, with no transport. The handshake era runs without
// an initialize (mcp-go does not require one outside a session).
func BenchmarkMCPGoHandleMessage(b *testing.B) {
	for _, e := range eras {
		b.Run(e.name, func(b *testing.B) {
			for _, c := range toolCalls {
				b.Run(c.tool, func(b *testing.B) {
					s := mcpgo.New()
					ctx := context.Background()
					buf := make([]byte, 0, 512)
					b.ReportAllocs()
					id := 0
					for b.Loop() {
						id++
						buf = c.request(buf[:0], e, id)
						reply, err := json.Marshal(s.HandleMessage(ctx, buf))
						if err != nil {
							b.Fatal(err)
						}
						if got, wrong := c.check(reply, e); wrong != "" || got != id {
							b.Fatalf("call %d: got id %d, %s: %s", id, got, wrong, reply)
						}
					}
				})
			}
		})
	}
}
