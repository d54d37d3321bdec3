package mcpotel_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/mcpotel"
	"github.com/schemarpc/schemarpc/rpc"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	"go.opentelemetry.io/otel/propagation"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// BenchmarkToolsCallInstrumented measures a handshake-era tools/call over
// a pipe: bare, with no-op providers (the cost of the middleware itself),
// and with the SDK recording everything.
func BenchmarkToolsCallInstrumented(b *testing.B) {
	cases := map[string]func() *telemetry{
		"bare": nil,
		"noop": func() *telemetry {
			opts := []mcpotel.Option{mcpotel.WithTracerProvider(tracenoop.NewTracerProvider()),
				mcpotel.WithMeterProvider(metricnoop.NewMeterProvider()), mcpotel.WithPropagators(propagation.TraceContext{})}
			return &telemetry{server: mcpotel.New(opts...), client: mcpotel.New(opts...)}
		},
		"sdk": func() *telemetry { return newTelemetry(b) },
	}
	for _, name := range []string{"bare", "noop", "sdk"} {
		b.Run(name, func(b *testing.B) {
			sopts, copts := &mcp.ServerOptions{}, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}}
			if mk := cases[name]; mk != nil {
				tm := mk()
				sopts, copts = tm.server.Instrument(sopts), tm.client.InstrumentClient(copts)
			}
			s := mcp.NewServer(&mcp.Implementation{Name: "b", Version: "1"}, sopts)
			s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("ok")}}, nil
				})
			srvEnd, cliEnd := rpc.NewPipe()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			go s.Serve(ctx, srvEnd)
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, copts).Connect(ctx, &mcp.StreamTransport{Transport: cliEnd})
			if err != nil {
				b.Fatal(err)
			}
			defer cs.Close()
			p := &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{}`)}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := cs.CallTool(ctx, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
