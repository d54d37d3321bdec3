// Package tasksext holds the bindings of the 2026-07-28 tasks extension
// (io.modelcontextprotocol/tasks): tasks/get, tasks/update and
// tasks/cancel, their types and method facts, and notifications/tasks.
// They are generated from schema/mcp/extensions/tasks, whose params carry
// the 2026-07-28 request _meta; mcp serves them beside v20260728's methods.
package tasksext

// rpcgen.json lets the extension's $refs reach the 2026-07-28 documents and
// the JSON-RPC error object (root), and keeps as raw JSON what mcp stores
// as raw JSON: a completed task's result, the input requests a task waits
// for and any-JSON values.

//go:generate go run ../../../cmd/rpcgen gen --config rpcgen.json
