package mcp_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

type benchEchoIn struct {
	Text string `json:"text"`
}

type benchAddIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type benchAddOut struct {
	Sum float64 `json:"sum"`
}

// benchServer serves the benchmark surface: echo and add.
func benchServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Returns its text."},
		func(ctx context.Context, req *mcp.CallToolRequest, in benchEchoIn) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in benchAddIn) (*mcp.CallToolResult, benchAddOut, error) {
			sum := in.A + in.B
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(strconv.FormatFloat(sum, 'g', -1, 64))}}, benchAddOut{Sum: sum}, nil
		})
	return s
}

// benchClient serves benchServer over an in-memory pipe and returns the
// client's end, past the handshake when handshake is set.
func benchClient(b *testing.B, ctx context.Context, handshake bool) rpc.Transport {
	srv, cli := rpc.NewPipe()
	go benchServer().Serve(ctx, srv)
	if handshake {
		cli.Write(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`))
		if _, err := cli.Read(ctx); err != nil {
			b.Fatal(err)
		}
		cli.Write(ctx, []byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	}
	return cli
}

func benchCalls(b *testing.B, handshake bool, call func(i int) string) {
	ctx := context.Background()
	cli := benchClient(b, ctx, handshake)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		if err := cli.Write(ctx, []byte(call(i))); err != nil {
			b.Fatal(err)
		}
		if _, err := cli.Read(ctx); err != nil {
			b.Fatal(err)
		}
	}
	cli.Close()
}

const statelessMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"b","version":"1"}}`

func BenchmarkToolsCallAdd2025(b *testing.B) { benchCalls(b, true, addCall2025) }

func BenchmarkToolsCallAdd2026(b *testing.B) { benchCalls(b, false, addCall2026) }

func BenchmarkToolsCallEcho2025(b *testing.B) {
	benchCalls(b, true, func(i int) string {
		return `{"jsonrpc":"2.0","id":` + strconv.Itoa(i) + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`
	})
}

// benchPipelined measures tools/call with a client that keeps 64 calls in
// flight over an in-memory pipe, as the load driver's pipelined mode
// does over stdio: the calls run on the process's workers, not in the
// read loop.
func benchPipelined(b *testing.B, handshake bool, call func(i int) string) {
	const depth = 64
	ctx := context.Background()
	cli := benchClient(b, ctx, handshake)
	b.ReportAllocs()
	b.ResetTimer()
	inFlight := make(chan struct{}, depth)
	read := make(chan error, 1)
	go func() {
		for range b.N {
			if _, err := cli.Read(ctx); err != nil {
				read <- err
				return
			}
			<-inFlight
		}
		read <- nil
	}()
	for i := range b.N {
		inFlight <- struct{}{}
		if err := cli.Write(ctx, []byte(call(i+1))); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-read; err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	cli.Close()
}

func BenchmarkToolsCallAddPipelined2025(b *testing.B) { benchPipelined(b, true, addCall2025) }

func BenchmarkToolsCallAddPipelined2026(b *testing.B) { benchPipelined(b, false, addCall2026) }
