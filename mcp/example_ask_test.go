package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// One handler asks the user in both eras: in a 2025-11-25 session the server
// sends elicitation/create and waits for the answer; in a stateless
// 2026-07-28 request the question is an input_required round, which the
// client answers by calling again.
func ExampleRequest_Elicit() {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{Name: "greet", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{
				Message:         "What is your name?",
				RequestedSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			}})
			if err != nil {
				return nil, err // stateless: the question, sent by the server
			}
			name, _ := res.Content["name"].Value.(mcp.ElicitResultContentValueString)
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("Hello, " + string(name) + "!")}}, nil
		})
	for _, version := range []string{mcp.Version20251125, mcp.Version20260728} {
		ctx, cancel := context.WithCancel(context.Background())
		srv, cli := rpc.NewPipe()
		go s.Serve(ctx, srv)
		client := mcp.NewClient(&mcp.Implementation{Name: "example", Version: "1"}, &mcp.ClientOptions{
			ProtocolVersions: []string{version},
			Elicit: func(context.Context, *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
				return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
					"name": {Value: mcp.ElicitResultContentValueString("Ada")}}}, nil
			},
		})
		session, err := client.Connect(ctx, &mcp.StreamTransport{Transport: cli})
		if err != nil {
			fmt.Println(err)
			cancel()
			continue
		}
		res, err := session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet"})
		if err != nil {
			fmt.Println(err)
		} else if t, ok := res.Content[0].AsText(); ok {
			fmt.Println(version, t.Text)
		}
		session.Close()
		cancel()
	}
	// Output:
	// 2025-11-25 Hello, Ada!
	// 2026-07-28 Hello, Ada!
}
