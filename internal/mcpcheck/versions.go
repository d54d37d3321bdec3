package mcpcheck

import "slices"

// Versions are the protocol versions a Checker knows, oldest first: the
// handshake versions, then the stateless ModernVersion.
var Versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", ModernVersion}

// ModernVersion is the stateless revision: no handshake, version and client
// capabilities in every request's _meta. Its messages are checked against
// our schema/mcp/2026-07-28, the older versions' against schema/mcp/2025-11-25.
const ModernVersion = "2026-07-28"

// schemaVersion returns the version of our schema that describes sessions
// of protocol version v: the modern one describes itself, every handshake
// version is a subset of OurVersion.
func schemaVersion(v string) string {
	if v >= ModernVersion {
		return ModernVersion
	}
	return OurVersion
}

// batchVersion is the only version whose sessions may carry JSON-RPC batches.
const batchVersion = "2025-03-26"

// methodSince gives the first version of the methods that did not exist in
// 2024-11-05. Our schema describes 2025-11-25, so a message of a later
// method in an older session is reported without help from the published
// schema.
var methodSince = map[string]string{
	"elicitation/create":                 "2025-06-18",
	"notifications/elicitation/complete": "2025-11-25",
	"tasks/get":                          "2025-11-25",
	"tasks/result":                       "2025-11-25",
	"tasks/list":                         "2025-11-25",
	"tasks/cancel":                       "2025-11-25",
	"notifications/tasks/status":         "2025-11-25",
}

// knownVersion reports whether v is one of Versions.
func knownVersion(v string) bool { return slices.Contains(Versions, v) }

// exists reports whether method is part of version v. Dates compare as
// strings. The modern schema lists exactly its own methods, so the table
// only matters for the handshake versions.
func exists(method, v string) bool {
	if v >= ModernVersion {
		return true
	}
	since, ok := methodSince[method]
	return !ok || v >= since
}
