package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// inProcess serves s on one end of a pipe and returns a transport for the
// other end.
func inProcess(s *mcp.Server) mcp.ClientTransport {
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	return &mcp.StreamTransport{Transport: cli}
}

// greeter is a server with one tool.
func greeter() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, &mcp.ServerOptions{Instructions: "Say hello."})
	s.AddTool(&mcp.Tool{Name: "greet", Description: "Greets someone.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Name string }
			json.Unmarshal(req.Params.Arguments, &in)
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("hello, " + in.Name)}}, nil
		})
	return s
}

// Connect finds out which era the server speaks: ours speaks both, so the
// client, which prefers 2026-07-28, runs stateless.
func ExampleClient_Connect() {
	c := mcp.NewClient(&mcp.Implementation{Name: "example-client", Version: "1.0.0"}, nil)
	s, err := c.Connect(context.Background(), inProcess(greeter()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Println(s.ProtocolVersion(), s.Stateless(), s.ServerInfo().Name, s.Instructions())

	res, err := s.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	text, _ := json.Marshal(res.Content[0])
	fmt.Println(string(text))
	// Output:
	// 2026-07-28 true greeter Say hello.
	// {"type":"text","text":"hello, Ada"}
}

// A client of the handshake versions only opens a session with initialize.
func ExampleClientOptions_protocolVersions() {
	c := mcp.NewClient(&mcp.Implementation{Name: "old-client", Version: "1.0.0"},
		&mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20250618, mcp.Version20250326}})
	s, err := c.Connect(context.Background(), inProcess(greeter()))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Println(s.ProtocolVersion(), s.Stateless(), s.Ping(context.Background()))
	// Output:
	// 2025-06-18 false <nil>
}

// Tools iterates over every page of the server's tools.
func ExampleClientSession_Tools() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "1"}, &mcp.ServerOptions{PageSize: 2})
	for _, name := range []string{"a", "b", "c", "d", "e"} {
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), inProcess(srv))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	for tool, err := range s.Tools(context.Background()) {
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Print(tool.Name, " ")
	}
	fmt.Println()
	// Output:
	// a b c d e
}

// A tool that needs the user's answer asks through the client's Elicit
// handler: in 2026-07-28 the client gets an input_required result, runs
// the handler and retries the call by itself. The answer leaves out
// "seats", so the form's default is filled in.
func ExampleClientOptions_elicit() {
	srv := mcp.NewServer(&mcp.Implementation{Name: "travel", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if who, ok := req.Elicited("who"); ok && who.Action == "accept" {
				answer, _ := json.Marshal(who.Content)
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("booked: " + string(answer))}}, nil
			}
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"who": mcp.FormInput("Who is travelling?",
				json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"},"seats":{"type":"integer","default":1}},"required":["name"]}`))}}
		})
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
				"name": {Value: mcp.ElicitResultContentValueString("Ada")},
			}}, nil
		},
	})
	s, err := c.Connect(context.Background(), inProcess(srv))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	res, err := s.CallTool(context.Background(), &mcp.CallToolRequestParams{Name: "book"})
	if err != nil {
		fmt.Println(err)
		return
	}
	text, _ := json.Marshal(res.Content[0])
	fmt.Println(string(text))
	// Output:
	// {"type":"text","text":"booked: {\"name\":\"Ada\",\"seats\":1}"}
}

// A server to spawn: stdio, closed by closing its stdin, then SIGTERM,
// then SIGKILL.
func ExampleCommandTransport() {
	t := &mcp.CommandTransport{Command: exec.Command("my-mcp-server", "--stdio")}
	s, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(context.Background(), t)
	if err != nil {
		return // my-mcp-server is not installed here
	}
	defer s.Close()
	fmt.Println(s.ProtocolVersion())
}
