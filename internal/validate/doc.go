// Package validate checks recorded JSON-RPC traffic against a schema set:
// each message's envelope, the params of every call against its method's
// params schema and, in a transcript, every result against the result
// schema of the request it answers. It backs "rpcgen validate" and
// "rpcgen proxy".
//
// The verdicts are the runtime's: messages are read with rpc.ParseFrame and
// params checked with Request.CheckParams, so each finding carries the
// JSON-RPC code a schemarpc server would answer with (-32700, -32600,
// -32601, -32602) — or -32603 for a result that breaks its schema, the code
// a schemarpc server uses when its own output is wrong.
package validate
