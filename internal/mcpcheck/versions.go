package mcpcheck

import "slices"

// Versions are the protocol versions a Checker knows, oldest first.
var Versions = []string{"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"}

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
// strings.
func exists(method, v string) bool {
	since, ok := methodSince[method]
	return !ok || v >= since
}
