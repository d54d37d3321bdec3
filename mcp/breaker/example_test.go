package breaker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/breaker"
	"github.com/schemarpc/schemarpc/rpc"
)

// A server whose "search" tool calls a back end that is down: after three
// failures in a row within a minute, the tool's circuit opens for 30
// seconds and calls are refused at once, with a retry hint, while the
// other tools are served.
func Example() {
	breakers, err := breaker.New(breaker.Options{Logger: slog.New(slog.DiscardHandler)},
		breaker.Rule{Failures: 3, Window: time.Minute, OpenFor: 30 * time.Second}.For("tools/call", ""))
	if err != nil {
		panic(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "search", Version: "1"}, &mcp.ServerOptions{
		Middleware: []rpc.Middleware{breakers.Middleware()},
	})
	s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("the search index is unreachable")
		})
	s.AddTool(&mcp.Tool{Name: "time", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("noon")}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil))
	defer srv.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: srv.URL})
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	call := func(tool string) (*mcp.CallToolResult, error) {
		return cs.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: tool, Arguments: json.RawMessage(`{}`)})
	}
	for i := range 4 {
		res, err := call("search")
		if err != nil {
			wait, _ := rpc.RetryAfter(err)
			fmt.Printf("call %d: %s; retry in %s\n", i+1, strings.TrimPrefix(err.Error(), "mcp: "), wait.Round(time.Minute/2))
			continue
		}
		fmt.Printf("call %d: isError %v\n", i+1, *res.IsError)
	}
	fmt.Println("search:", breakers.State("tools/call", "search"), "time:", breakers.State("tools/call", "time"))
	if _, err := call("time"); err == nil {
		fmt.Println("time still answers")
	}
	// Output:
	// call 1: isError true
	// call 2: isError true
	// call 3: isError true
	// call 4: HTTP 429 Too Many Requests: jsonrpc error -32000: circuit open; retry in 30s
	// search: open time: closed
	// time still answers
}
