// Package schema embeds the JSON Schema documents that define the protocols
// schemarpc speaks. They are the source of truth: the generator reads them and
// the runtime validates every message against them.
//
// Each document carries an absolute "$id" under https://schemarpc.dev/schema/,
// so documents can refer to each other and be compiled without the network.
package schema

import "embed"

// FS holds the embedded schema tree. The "jsonrpc" directory defines the
// JSON-RPC 2.0 envelopes: request, notification, response, error-response,
// error and batch. "mcp/<version>" holds the Model Context Protocol of that
// revision in the schemarpc index format: index.json lists the methods and
// the sibling documents hold the types, one file per method family;
// "mcp/extensions/<name>" holds an extension of it, in the same format.
// The generated MCP packages read their documents from FS rather than
// hold copies of them (their rpcgen.json names it in "documents").
//
//go:embed jsonrpc/*.json mcp/*/*.json mcp/extensions/*/*.json
var FS embed.FS

// BaseURL is the URL prefix of every embedded document's "$id": the document
// at path P in FS has the id BaseURL + P.
const BaseURL = "https://schemarpc.dev/schema/"
