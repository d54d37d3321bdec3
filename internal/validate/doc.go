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
//
// # Following a conversation
//
// The built-in set "mcp" (FollowSet) checks each conversation under the MCP
// version it is in, as a peer would: the version the initialize handshake
// negotiates, the version each stateless (2026-07-28) request carries in
// params._meta, the MCP-Protocol-Version header of Streamable HTTP, and,
// before any of these, every version a message can belong to (FollowSet
// has the rules). A response whose input holds no request it could answer
// (a fixture) is checked against every result schema that could fit, and
// is an "unmatched response" when none does (UnmatchedResponse).
//
// To check a live conversation message by message, in both directions,
// open the set once and make one Checker per conversation:
//
//	set, err := validate.Open(validate.FollowSet)
//	...
//	c := set.NewChecker()
//	for each message, in the order it travelled:
//		findings := c.Check(msg, validate.FromClient, validate.Position{Index: n})
//		// or, with the MCP-Protocol-Version header of its HTTP request:
//		findings = c.CheckItem(validate.Item{Bytes: msg, ProtocolVersion: h}, validate.FromClient)
//
// Each Finding has the JSON pointer of the offending value in the message
// (Pointer), the reason (Reason), the JSON-RPC code and the side that sent
// it; Checker.Version says which version governs the conversation so far.
// A Set is safe for concurrent use by many Checkers; a Checker is not.
package validate
