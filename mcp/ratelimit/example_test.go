package ratelimit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/ratelimit"
	"github.com/schemarpc/schemarpc/rpc"
)

// A server limiting every client to 50 requests a second (bursts of 200),
// and its expensive "search" tool to 10 calls an hour per client.
func Example() {
	limits, err := ratelimit.New(ratelimit.Options{},
		ratelimit.Rule{Rate: 50, Burst: 200, Key: ratelimit.ByClient},
		ratelimit.Quota(10, time.Hour).For("tools/call", "search").By(ratelimit.ByClient),
	)
	if err != nil {
		panic(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "search", Version: "1"}, &mcp.ServerOptions{
		Middleware: []rpc.Middleware{limits.Middleware()},
	})
	s.AddTool(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("found")}}, nil
		})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(s, nil))
	defer srv.Close()

	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableHTTPTransport{URL: srv.URL})
	if err != nil {
		panic(err)
	}
	defer cs.Close()
	for range 11 {
		_, err = cs.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "search", Arguments: json.RawMessage(`{}`)})
	}
	wait, _ := rpc.RetryAfter(err)
	fmt.Println(strings.TrimPrefix(err.Error(), "mcp: "))
	fmt.Println("retry in", wait.Round(time.Minute))
	// Output:
	// HTTP 429 Too Many Requests: jsonrpc error -32000: rate limit exceeded
	// retry in 6m0s
}

// A plain JSON-RPC router: each remote address may call "add" 10 times a
// second.
func ExampleLimiter_Middleware() {
	// A clock that stands still, so that the hint below does not depend on
	// how long the calls take; a server leaves Now nil.
	start := time.Now()
	limits, err := ratelimit.New(ratelimit.Options{Now: func() time.Time { return start }},
		ratelimit.Rule{Method: "add", Rate: 10, Burst: 10, Key: ratelimit.ByRemoteAddr})
	if err != nil {
		panic(err)
	}
	r := rpc.NewRouter()
	r.Use(limits.Middleware())
	r.Register("add", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var xs []float64
		if err := json.Unmarshal(req.Params, &xs); err != nil {
			return nil, rpc.InvalidParams(err.Error())
		}
		return xs[0] + xs[1], nil
	}})
	srv := httptest.NewServer(rpc.NewHTTPHandler(r))
	defer srv.Close()

	c := rpc.NewHTTPClient(srv.URL, nil)
	for i := range 11 {
		var sum float64
		if err := c.Call(context.Background(), "add", []float64{1, 2}, &sum); err != nil {
			var e *rpc.Error
			var hint rpc.RetryData
			if errors.As(err, &e) && json.Unmarshal(e.Data, &hint) == nil {
				wait := time.Duration(hint.RetryAfterMs) * time.Millisecond
				fmt.Printf("call %d: %d %s (%s), retry in %s\n", i+1, e.Code, e.Message, hint.Limit, wait)
			}
		}
	}
	// Output:
	// call 11: -32000 rate limit exceeded (add: 10/s, burst 10), retry in 100ms
}
