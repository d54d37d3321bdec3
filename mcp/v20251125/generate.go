package v20251125

// The bindings in this directory are generated from the schemas under
// schema/mcp/2025-11-25; rpcgen.json names the input and the few locations
// that are kept as raw JSON (JSON Schema objects, tool arguments and
// structured output, request ids as rpc.ID).

//go:generate go run ../../cmd/rpcgen gen --config rpcgen.json
