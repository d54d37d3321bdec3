// Package rpc is a JSON-RPC 2.0 runtime that validates every message against
// JSON Schema.
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
package rpc
