package mcpotel_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"github.com/schemarpc/schemarpc/rpc"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
)

// Instrument a server and a client; the client's span becomes the parent
// of the server's through params._meta.
func ExampleInstrumentation_Instrument() {
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	inst := mcpotel.New(mcpotel.WithTracerProvider(tp), mcpotel.WithPropagators(propagation.TraceContext{}))

	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1"}, inst.Instrument(&mcp.ServerOptions{}))
	s.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("hello")}}, nil
		})
	srvEnd, cliEnd := rpc.NewPipe()
	go s.Serve(context.Background(), srvEnd)

	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"},
		inst.InstrumentClient(&mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20260728}}))
	cs, err := c.Connect(context.Background(), &mcp.StreamTransport{Transport: cliEnd})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cs.Close()
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "greet"}); err != nil {
		fmt.Println(err)
		return
	}
	// The server's span ends before the client's, which waits for the answer.
	for _, sp := range spans.Ended() {
		if sp.Name() == "tools/call greet" {
			fmt.Println(sp.SpanKind(), sp.Name(), sp.Parent().IsRemote())
		}
	}
	// Output:
	// server tools/call greet true
	// client tools/call greet false
}
