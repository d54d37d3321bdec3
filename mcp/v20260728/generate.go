package v20260728

// The bindings in this directory are generated from the schemas under
// schema/mcp/2026-07-28; rpcgen.json names the input, the Go names of the
// io.modelcontextprotocol/… _meta keys, and the few locations kept as raw
// JSON (JSON Schema objects, tool arguments, any-JSON values such as
// structuredContent, request ids as rpc.ID).

//go:generate go run ../../cmd/rpcgen gen --config rpcgen.json
