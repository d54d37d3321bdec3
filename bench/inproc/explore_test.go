package inproc_test

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

func TestExplore(t *testing.T) {
	msgs := []string{
		`{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}}}`,
		`{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`,
		`{"jsonrpc":"2.0","id":13,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":14,"method":"ping"}`,
	}
	for _, lib := range libraries {
		t.Run(lib.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			go lib.serve(ctx, inR, outW)
			br := bufio.NewReader(outR)
			for _, m := range msgs {
				inW.Write([]byte(m + "\n"))
				if !strings.Contains(m, `"id"`) {
					continue
				}
				done := make(chan string, 1)
				go func() { l, _ := br.ReadString('\n'); done <- l }()
				select {
				case l := <-done:
					t.Logf("%s\n  -> %s", m[:min(60, len(m))], l)
				case <-time.After(2 * time.Second):
					t.Logf("%s\n  -> TIMEOUT", m[:min(60, len(m))])
					return
				}
			}
		})
	}
}
