package mcp

import "slices"

// The protocol versions a Server speaks. The handshake versions (2024-11-05
// … 2025-11-25) open a session with initialize, and the session uses the
// version agreed there for everything it sends. The stateless version
// (2026-07-28) names itself in every request's params._meta.
const (
	// Version20241105 is the first MCP release: stdio and HTTP+SSE.
	Version20241105 = "2024-11-05"
	// Version20250326 added Streamable HTTP, batches, audio content, tool
	// annotations and the completions capability.
	Version20250326 = "2025-03-26"
	// Version20250618 removed batches and added structured tool output,
	// elicitation, resource links and titles.
	Version20250618 = "2025-06-18"
	// Version20251125 added icons, URL-mode elicitation, sampling with tools,
	// tasks and SSE polling (a priming event, and streams the server may end
	// before the response).
	Version20251125 = "2025-11-25"

	// Version20260728 is the stateless protocol: no initialize and no
	// session; version, client capabilities and identity travel in every
	// request; server/discover, multi-round-trip results and
	// subscriptions/listen.
	Version20260728 = "2026-07-28"

	// LatestVersion is the handshake version a Server offers in initialize
	// when the client asks for one it does not speak.
	LatestVersion = Version20251125
)

// StatelessVersions lists the stateless versions a Server serves, newest
// first.
func StatelessVersions() []string {
	return []string{Version20260728}
}

// servedVersions returns the versions the server serves, stateless first,
// then the handshake versions, each newest first.
func (s *Server) servedVersions() []string {
	var out []string
	for _, v := range append(StatelessVersions(), SupportedVersions()...) {
		if s.serves(v) {
			out = append(out, v)
		}
	}
	return out
}

// serves reports whether the server's configuration includes version v.
func (s *Server) serves(v string) bool {
	known := slices.Contains(StatelessVersions(), v) || slices.Contains(SupportedVersions(), v)
	return known && (s.opts.ProtocolVersions == nil || slices.Contains(s.opts.ProtocolVersions, v))
}

// servesHandshake reports whether the server serves any handshake version.
func (s *Server) servesHandshake() bool { return s.handshake }

// servesStateless reports whether the server serves a stateless version.
func (s *Server) servesStateless() bool { return s.stateless }

// SupportedVersions lists the handshake versions a Server negotiates, newest
// first.
func SupportedVersions() []string {
	return []string{Version20251125, Version20250618, Version20250326, Version20241105}
}

// negotiate picks the session version: the client's when the server
// serves it, otherwise the newest handshake version it serves.
func (s *Server) negotiate(requested string) string {
	if slices.Contains(SupportedVersions(), requested) && s.serves(requested) {
		return requested
	}
	for _, v := range SupportedVersions() {
		if s.serves(v) {
			return v
		}
	}
	return LatestVersion
}

// features says what a protocol version has, for the parts of the protocol
// whose shape changed between versions (docs/versions.md has the table).
type features struct {
	batches       bool // JSON-RPC batches (2025-03-26 only)
	audio         bool // audio content blocks
	annotations   bool // Tool.annotations
	titles        bool // title fields, _meta on protocol objects, Annotations.lastModified
	icons         bool // icons, Implementation.description and websiteUrl
	ssePolling    bool // SSE priming event, retry field, stream closed before the response
	progressText  bool // a message in progress notifications
	completions   bool // the completions capability gates completion/complete
	resourceLink  bool // resource_link content blocks
	structured    bool // Tool.outputSchema and CallToolResult.structuredContent
	anyStructured bool // structured output of any JSON type, not only objects
	elicitation   bool // elicitation/create
	tasks         bool // tasks/* and task-augmented requests
	samplingTools bool // tools and toolChoice in sampling/createMessage
	urlElicit     bool // URL-mode elicitation and notifications/elicitation/complete
}

// featuresOf returns the features of a negotiated version.
func featuresOf(v string) features {
	switch v {
	case Version20241105:
		return features{}
	case Version20250326:
		return features{batches: true, audio: true, annotations: true, progressText: true, completions: true}
	case Version20250618:
		return features{audio: true, annotations: true, titles: true, progressText: true, completions: true,
			resourceLink: true, structured: true, elicitation: true}
	case Version20260728:
		// Tasks left the core for an extension; batches stay gone; a
		// stream cannot be resumed, so it is never primed nor closed early.
		return features{audio: true, annotations: true, titles: true, icons: true, progressText: true, completions: true,
			resourceLink: true, structured: true, anyStructured: true, elicitation: true, urlElicit: true, samplingTools: true}
	default:
		return features{audio: true, annotations: true, titles: true, icons: true, ssePolling: true, progressText: true,
			completions: true, resourceLink: true, structured: true, elicitation: true, tasks: true, urlElicit: true,
			samplingTools: true}
	}
}
