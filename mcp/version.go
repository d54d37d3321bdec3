package mcp

import "slices"

// The protocol versions of the handshake era that a Server speaks. A session
// uses the version agreed in initialize for everything it sends.
const (
	// Version20241105 is the first MCP release: stdio and HTTP+SSE.
	Version20241105 = "2024-11-05"
	// Version20250326 added Streamable HTTP, batches, audio content, tool
	// annotations and the completions capability.
	Version20250326 = "2025-03-26"
	// Version20250618 removed batches and added structured tool output,
	// elicitation, resource links and titles.
	Version20250618 = "2025-06-18"
	// Version20251125 added icons, URL-mode elicitation, sampling with tools
	// and tasks.
	Version20251125 = "2025-11-25"

	// LatestVersion is the version a Server offers when the client asks for
	// one it does not speak.
	LatestVersion = Version20251125
)

// SupportedVersions lists the handshake versions a Server negotiates, newest
// first.
func SupportedVersions() []string {
	return []string{Version20251125, Version20250618, Version20250326, Version20241105}
}

// negotiate picks the session version: the client's when supported,
// otherwise the latest.
func negotiate(requested string) string {
	if slices.Contains(SupportedVersions(), requested) {
		return requested
	}
	return LatestVersion
}

// features says what a protocol version has, for the parts of the protocol
// whose shape changed between versions.
type features struct {
	batches      bool // JSON-RPC batches (2025-03-26 only)
	audio        bool // audio content blocks
	progressText bool // a message in progress notifications
	completions  bool // the completions capability gates completion/complete
	resourceLink bool // resource_link content blocks
	structured   bool // Tool.outputSchema and CallToolResult.structuredContent
	elicitation  bool // elicitation/create
	tasks        bool // tasks/* and task-augmented requests
	urlElicit    bool // URL-mode elicitation and notifications/elicitation/complete
}

// featuresOf returns the features of a negotiated version.
func featuresOf(v string) features {
	switch v {
	case Version20241105:
		return features{}
	case Version20250326:
		return features{batches: true, audio: true, progressText: true, completions: true}
	case Version20250618:
		return features{audio: true, progressText: true, completions: true, resourceLink: true, structured: true, elicitation: true}
	default:
		return features{audio: true, progressText: true, completions: true, resourceLink: true, structured: true, elicitation: true,
			tasks: true, urlElicit: true}
	}
}
