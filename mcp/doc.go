// Package mcp serves the Model Context Protocol in both of its eras, from
// one Server: the handshake versions 2024-11-05, 2025-03-26, 2025-06-18 and
// 2025-11-25, and the stateless 2026-07-28.
//
// A server with one tool, on stdio; the tool's input schema is derived from
// greetArgs (see [AddTool]):
//
//	package main
//
//	import (
//		"context"
//		"log"
//
//		"github.com/schemarpc/schemarpc/mcp"
//	)
//
//	type greetArgs struct {
//		Name string `json:"name" jsonschema:"who to greet"`
//	}
//
//	func main() {
//		s := mcp.NewServer(&mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
//		mcp.AddTool(s, &mcp.Tool{Name: "greet", Description: "Says hello."},
//			func(ctx context.Context, req *mcp.CallToolRequest, in greetArgs) (*mcp.CallToolResult, any, error) {
//				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("hello, " + in.Name)}}, nil, nil
//			})
//		if err := s.ServeStdio(context.Background()); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// A client that starts that server (built as greeter) and calls the tool:
//
//	package main
//
//	import (
//		"context"
//		"encoding/json"
//		"fmt"
//		"log"
//		"os/exec"
//
//		"github.com/schemarpc/schemarpc/mcp"
//	)
//
//	func main() {
//		ctx := context.Background()
//		c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1.0.0"}, nil)
//		session, err := c.Connect(ctx, &mcp.CommandTransport{Command: exec.Command("./greeter")})
//		if err != nil {
//			log.Fatal(err)
//		}
//		defer session.Close()
//		res, err := session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "greet", Arguments: json.RawMessage(`{"name":"Ada"}`)})
//		if err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(res.Content[0].Value.(mcp.TextContent).Text) // hello, Ada
//	}
//
// The package example runs both in one process.
//
// # What is in the package
//
// A [Server] holds tools, resources, resource templates, prompts and a
// completion handler, and serves them over stdio ([Server.ServeStdio]), any
// rpc.Transport ([Server.Serve]) or Streamable HTTP
// ([NewStreamableHTTPHandler]). It chooses the era per request, from how the
// client begins: initialize opens a session that negotiates its version
// (methods the version lacks are -32601, content it does not know is
// rewritten as text, batches are accepted only in 2025-03-26); a request
// whose params._meta names the 2026-07-28 version is served on its own,
// without a session, with its result marked by resultType and, for the
// cacheable ones, caching hints. One process, one endpoint, both eras.
//
// Handlers are written once for both eras: [Request] reads the session or
// the request's own _meta, and a handler that needs input from the client
// returns [InputRequired], which a stateless client receives as a
// multi-round-trip result and a session's client as real requests.
//
// Every message's params are validated against the schemas in
// schema/mcp/2025-11-25 or schema/mcp/2026-07-28 before a handler runs; tool
// arguments are validated against the tool's input schema, and structured
// output against its output schema. The protocol types are generated from
// those schemas into package v20251125 and re-exported here as aliases,
// each documented with its fields. A protocol struct (an [Implementation],
// a [Tool], [Resource] or [Prompt], params, results, capabilities) is
// passed and returned by pointer throughout: [NewServer] and [NewClient]
// take *Implementation, handlers and [ToolError] give *CallToolResult.
// Content blocks and resource contents, the elements of lists, are values.
//
// A [Client] is the other side, for both eras too: [Client.Connect] opens a
// [ClientSession] over stdio ([CommandTransport] spawns the server),
// Streamable HTTP or any rpc.Transport ([StreamTransport]), finds out
// whether the server is stateless (a server/discover probe) or wants the
// initialize handshake, and offers typed methods for every client request,
// iterators over paginated lists, cancellation through the context, handlers
// for what the server asks (sampling, elicitation, roots; run for
// 2026-07-28 multi-round-trip results too) and for its notifications, and
// [ClientSession.Listen] for 2026-07-28 subscriptions. Every result is
// validated against the schema of the session's version.
//
// ServerOptions.Logger and ClientOptions.Logger take a log/slog logger
// for the server's and the client's own logs (not to be confused with
// [ServerSession.Log], which sends MCP log messages to the client). They
// use the rpc package's keys and levels (see its "Logs"), in both eras
// and on every transport, plus session (the Mcp-Session-Id), version and
// tool; sessions starting, initialized and ending are logged at info.
// Params, tool arguments, results and headers are never logged unless
// ServerOptions.LogParams or ClientOptions.LogParams asks for the params.
// On stdio, give the logger stderr: stdout carries the protocol. Without
// a logger, the warnings and errors go to slog.Default(), which writes to
// stderr unless the program changed it, so that the cause of a failure a
// peer sees only as -32603 is never lost.
//
// docs/mcp-server.md walks through building a server and docs/mcp-client.md
// through using one; the examples in this package run as tests.
package mcp
