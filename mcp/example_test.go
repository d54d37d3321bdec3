package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// exampleSession serves s over an in-memory pipe and returns a raw client
// connection that has completed the handshake.
func exampleSession(s *mcp.Server) *rpc.Conn {
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	c := rpc.NewConn(cli)
	c.Call(context.Background(), "initialize", map[string]any{
		"protocolVersion": mcp.LatestVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "example", "version": "1"},
	}, nil)
	c.Notify(context.Background(), "notifications/initialized", nil)
	return c
}

// show prints a call's result or error as JSON.
func show(c *rpc.Conn, method string, params any) {
	var res json.RawMessage
	if err := c.Call(context.Background(), method, params, &res); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(res))
}

// A typed tool: the input schema comes from the Go type of its arguments,
// the output schema from its output type.
func ExampleAddTool() {
	type args struct {
		A float64 `json:"a"`
		B float64 `json:"b"`
	}
	type sum struct {
		Sum float64 `json:"sum"`
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "calc", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds two numbers."},
		func(ctx context.Context, req *mcp.CallToolRequest, in args) (*mcp.CallToolResult, sum, error) {
			return nil, sum{Sum: in.A + in.B}, nil
		})
	c := exampleSession(s)
	show(c, "tools/call", map[string]any{"name": "add", "arguments": map[string]any{"a": 2, "b": 3}})
	show(c, "tools/call", map[string]any{"name": "add", "arguments": map[string]any{"a": "two"}})
	// Output:
	// {"content":[{"type":"text","text":"{\"sum\":5}"}],"structuredContent":{"sum":5}}
	// {"content":[{"type":"text","text":"invalid arguments: missing required member \"b\" (and 1 more)"}],"isError":true}
}

// A tool whose schema is written as JSON Schema, and that reports progress.
func ExampleServer_AddTool() {
	s := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "1.0.0"}, nil)
	s.AddTool(&mcp.Tool{
		Name:        "echo",
		Description: "Returns its text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
	}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			Text string `json:"text"`
		}
		if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
			return nil, err
		}
		req.Progress(ctx, 1, 1, "echoed") // sent only when the client asked for progress
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil
	})
	c := exampleSession(s)
	show(c, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hello"}})
	// Output:
	// {"content":[{"type":"text","text":"hello"}]}
}

// Resources and resource templates: a template's variables are read with
// TemplateVars. An unknown URI is -32002.
func ExampleServer_AddResourceTemplate() {
	s := mcp.NewServer(&mcp.Implementation{Name: "files", Version: "1.0.0"}, nil)
	s.AddResourceTemplate(&mcp.ResourceTemplate{URITemplate: "notes://{name}", Name: "note"},
		func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			text := "the note called " + mcp.TemplateVars(ctx)["name"]
			return &mcp.ReadResourceResult{Contents: []mcp.AnyResourceContents{mcp.TextResource(req.Params.URI, "text/plain", text)}}, nil
		})
	c := exampleSession(s)
	show(c, "resources/read", map[string]any{"uri": "notes://shopping"})
	show(c, "resources/read", map[string]any{"uri": "other://x"})
	// Output:
	// {"contents":[{"uri":"notes://shopping","mimeType":"text/plain","text":"the note called shopping"}]}
	// error: jsonrpc error -32002: resource not found: other://x
}

// Prompts with arguments; a missing required argument is -32602.
func ExampleServer_AddPrompt() {
	s := mcp.NewServer(&mcp.Implementation{Name: "prompts", Version: "1.0.0"}, nil)
	required := true
	s.AddPrompt(&mcp.Prompt{Name: "review", Description: "Asks for a code review.",
		Arguments: []mcp.PromptArgument{{Name: "code", Required: &required}}},
		func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{
				{Role: mcp.RoleUser, Content: mcp.Text("Please review:\n" + req.Params.Arguments["code"])},
			}}, nil
		})
	c := exampleSession(s)
	show(c, "prompts/get", map[string]any{"name": "review", "arguments": map[string]string{"code": "x := 1"}})
	show(c, "prompts/get", map[string]any{"name": "review"})
	// Output:
	// {"messages":[{"role":"user","content":{"type":"text","text":"Please review:\nx := 1"}}]}
	// error: jsonrpc error -32602: invalid params: prompt "review": missing required arguments: code
}

// A tool that asks the user a question (multi-round-trip). A stateless
// 2026-07-28 client gets the question as an input_required result and
// retries with the answer and the sealed requestState; the same tool in a
// handshake session would have the server ask the client itself.
func ExampleInputRequired() {
	s := mcp.NewServer(&mcp.Implementation{Name: "travel", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "book"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if who, ok := req.Elicited("who"); ok && who.Action == "accept" {
			name, _ := json.Marshal(who.Content["name"])
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("booked for " + string(name) + " after " + string(req.State()))}}, nil
		}
		return nil, &mcp.InputRequired{
			Requests: map[string]mcp.InputRequest{"who": mcp.FormInput("Who is travelling?",
				json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`))},
			State: []byte("step-1"),
		}
	})
	srv, cli := rpc.NewPipe()
	go s.Serve(context.Background(), srv)
	c := rpc.NewConn(cli)
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}},
	}
	var first struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	if err := c.Call(context.Background(), "tools/call", map[string]any{"_meta": meta, "name": "book"}, &first); err != nil {
		fmt.Println(err)
	}
	fmt.Println(first.ResultType, string(first.InputRequests["who"])[:40])

	var second struct {
		ResultType string `json:"resultType"`
		Content    []struct {
			Text string `json:"text"`
		} `json:"content"`
	}
	c.Call(context.Background(), "tools/call", map[string]any{
		"_meta": meta, "name": "book", "requestState": first.RequestState,
		"inputResponses": map[string]any{"who": map[string]any{"action": "accept", "content": map[string]any{"name": "Ada"}}},
	}, &second)
	fmt.Println(second.ResultType, second.Content[0].Text)
	// Output:
	// input_required {"method":"elicitation/create","params":
	// complete booked for "Ada" after step-1
}
