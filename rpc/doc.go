// Package rpc is a JSON-RPC 2.0 runtime that validates every message against
// JSON Schema.
//
// A server with one method, on stdio (newline-delimited JSON):
//
//	package main
//
//	import (
//		"context"
//		"log"
//		"os"
//
//		"github.com/schemarpc/schemarpc/rpc"
//	)
//
//	func main() {
//		router := rpc.NewRouter()
//		router.Register("add", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
//			var p struct {
//				A float64 `json:"a"`
//				B float64 `json:"b"`
//			}
//			if err := req.DecodeParams(&p); err != nil {
//				return nil, err
//			}
//			return p.A + p.B, nil
//		}})
//		if err := rpc.Serve(context.Background(), rpc.NewStreamTransport(os.Stdin, os.Stdout), router); err != nil {
//			log.Fatal(err)
//		}
//	}
//
// A client that starts that server (built as adder) and calls it:
//
//	package main
//
//	import (
//		"context"
//		"fmt"
//		"log"
//		"os/exec"
//
//		"github.com/schemarpc/schemarpc/rpc"
//	)
//
//	func main() {
//		cmd := exec.Command("./adder")
//		stdin, _ := cmd.StdinPipe()
//		stdout, _ := cmd.StdoutPipe()
//		if err := cmd.Start(); err != nil {
//			log.Fatal(err)
//		}
//		conn := rpc.NewConn(rpc.NewStreamTransport(stdout, stdin))
//		var sum float64
//		if err := conn.Call(context.Background(), "add", map[string]float64{"a": 40, "b": 2}, &sum); err != nil {
//			log.Fatal(err)
//		}
//		fmt.Println(sum) // 42
//		conn.Close()
//		cmd.Wait()
//	}
//
// The package example runs both in one process. A method's params are
// validated when the method has a params schema ([Method]); with a schema
// file and rpcgen, the schema, the types, the server interface and the
// typed client are generated (docs/getting-started.md).
//
// A message flows one way through the package:
//
//	bytes → parse (-32700) → envelope schema (-32600) → Router lookup (-32601)
//	      → params schema (-32602) → middleware → handler → response
//
// Notifications are never answered. Every error response carries the
// request's id, or null when the id could not be read. A handler panic
// becomes -32603 and the connection lives on.
//
// A [Conn] runs both directions over any [Transport]: it serves incoming
// calls with a [Handler] (usually a [Router]) and lets the local side call
// the peer with [Conn.Call], [Conn.Notify] and [Conn.Batch]. Transports:
// newline-delimited streams ([NewStreamTransport], for stdio), an in-memory
// pair ([NewPipe]), WebSocket ([NewWebSocketTransport], [WebSocketHandler]),
// and HTTP ([HTTPHandler], [HTTPClient]).
//
// # Logs
//
// [WithLogger] gives the runtime a log/slog logger. Without one, the
// warnings and errors go to [slog.Default], which writes to standard error
// unless the program changed it (never to stdout, which carries the
// protocol on stdio): a handler's failure reaches the peer as a bare
// -32603 and its cause is never lost. Every line's message is a constant string and its details are
// attributes under one set of keys: method, id (the request id as JSON
// text), code (the JSON-RPC error code), error, transport (stream,
// websocket, pipe, http), bytes, and params or excerpt only when asked.
// The levels:
//
//   - error: a handler failed with an error that is not an [*Error] (the
//     peer gets -32603, the log the error), panicked (with the stack), or
//     its result could not be encoded; always with method, id and code.
//   - warn: refused or dropped messages — a request refused as busy or
//     shutting down, a notification dropped as busy, an invalid request, a
//     malformed or unexpected response, a message over the size limit, a
//     write that failed.
//   - debug: every request, notification and response received; a request
//     answered with an [*Error] its handler chose (with the code); a
//     message that is not JSON (its length and the code answered).
//
// Params, results and the bytes of messages are never logged: they may
// hold secrets. [WithLogParams] adds, at debug level, the params of every
// message received, the reason of every error answer and an excerpt of
// unreadable input, each cut after 1 KiB. Every debug line checks
// Logger.Enabled first, so a logger at info level or above costs a
// message nothing.
package rpc
