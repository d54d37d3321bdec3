package main

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// server is the running HTTP server.
type server struct {
	url   string
	close func()
}

// newMCPServer is an instrumented MCP server with one tool, echo, and one
// that fails, broken.
func newMCPServer(tel *telemetry) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "telemetry-example", Version: "1.0.0"}, tel.inst.Instrument(&mcp.ServerOptions{}))
	s.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes its text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil
		})
	s.AddTool(&mcp.Tool{Name: "broken", Description: "Always fails.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.ToolError("this tool always fails"), nil
		})
	return s
}

// serve listens on addr and serves MCP on /mcp and Prometheus on /metrics.
func serve(addr string, tel *telemetry) (*server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	h := mcp.NewStreamableHTTPHandler(newMCPServer(tel), nil)
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/metrics", tel.metrics)
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			panic(err)
		}
	}()
	return &server{url: "http://" + ln.Addr().String(), close: func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.Close()
		hs.Shutdown(ctx)
		<-done
	}}, nil
}
