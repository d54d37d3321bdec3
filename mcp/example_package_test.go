package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
)

type greetArgs struct {
	Name string `json:"name" jsonschema:"who to greet"`
}

// newGreeter is the server of the package overview: one tool, its input
// schema derived from greetArgs.
func newGreeter() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Says hello."},
		func(ctx context.Context, req *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("hello, " + in.Name)}}, nil, nil
		})
	return s
}

// The server and the client of the package overview, connected in one
// process instead of over stdio.
func Example() {
	ctx := context.Background()
	c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1.0.0"}, nil)
	session, err := c.Connect(ctx, inProcess(newGreeter()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer session.Close()
	res, err := session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Content[0].Value.(mcp.TextContent).Text)

	// Arguments that break the input schema come back as a tool error the
	// model can act on.
	res, err = session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet", Arguments: json.RawMessage(`{"name":7}`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(*res.IsError)
	// Output:
	// hello, Ada
	// true
}
