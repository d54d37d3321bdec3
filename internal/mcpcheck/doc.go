// Package mcpcheck validates MCP wire messages against two sets of
// schemas: the project's own, embedded from schema/mcp/<version> for each
// protocol version (2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25 for
// the handshake era, 2026-07-28 for the stateless revision), and the
// published schema.json of the same version, read at run time from a
// shared/mcp-spec directory when one is found above the working directory.
//
// A [Checker] follows one session or connection: it remembers the requests
// each side sent, so that a response is checked against the result schema
// of the request it answers, and it reports responses to ids nobody asked
// about. Server tests feed it every message their server emits (and, when
// they like, every message the client sends).
package mcpcheck
