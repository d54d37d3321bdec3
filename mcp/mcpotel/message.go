package mcpotel

import (
	"slices"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/mcp"
)

// metaVersionKey is the _meta member of a 2026-07-28 request that names
// its protocol version.
const metaVersionKey = "io.modelcontextprotocol/protocolVersion"

// message is what the instrumentation reads of a message's params: the
// tool, prompt or resource it is about, its _meta object, and the
// protocol version _meta names.
type message struct {
	tool, prompt, uri string
	meta              []byte
	version           string
}

// scan reads the members of params it needs in one pass, without
// decoding the rest (arguments are never looked at).
func scan(method string, params []byte) message {
	var m message
	if len(params) == 0 {
		return m
	}
	o, ok := jsonscan.NewObject(params)
	if !ok {
		return m
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		switch {
		case jsonscan.NameIs(k, "_meta"):
			if len(v) > 0 && v[0] == '{' {
				m.meta = v
			}
		case jsonscan.NameIs(k, "name"):
			switch method {
			case "tools/call":
				m.tool, _ = jsonscan.String(v)
			case "prompts/get":
				m.prompt, _ = jsonscan.String(v)
			}
		case jsonscan.NameIs(k, "uri"):
			switch method {
			case "resources/read", "resources/subscribe", "resources/unsubscribe", "notifications/resources/updated":
				m.uri, _ = jsonscan.String(v)
			}
		}
	}
	if m.meta != nil {
		if v, ok := jsonscan.Member(m.meta, metaVersionKey); ok {
			m.version, _ = jsonscan.String(v)
		}
	}
	return m
}

// target is the part of a span name after the method: the tool or prompt
// name, or the resource URI when asked for.
func (m *message) target(withURI bool) string {
	switch {
	case m.tool != "":
		return m.tool
	case m.prompt != "":
		return m.prompt
	case withURI:
		return m.uri
	}
	return ""
}

// knownMethods are the methods of MCP, every era: a method a peer sends
// that is not among them is recorded in metrics as _OTHER when it could
// be anything (a notification, or a request answered -32601).
var knownMethods = map[string]bool{}

func init() {
	for _, m := range []string{
		"initialize", "ping", "server/discover", "subscriptions/listen",
		"tools/list", "tools/call", "resources/list", "resources/templates/list",
		"resources/read", "resources/subscribe", "resources/unsubscribe",
		"prompts/list", "prompts/get", "completion/complete", "logging/setLevel",
		"tasks/get", "tasks/result", "tasks/list", "tasks/cancel",
		"sampling/createMessage", "elicitation/create", "roots/list",
		"notifications/initialized", "notifications/cancelled", "notifications/progress",
		"notifications/message", "notifications/roots/list_changed",
		"notifications/tools/list_changed", "notifications/prompts/list_changed",
		"notifications/resources/list_changed", "notifications/resources/updated",
		"notifications/elicitation/complete", "notifications/tasks/status",
		"notifications/subscriptions/acknowledged",
	} {
		knownMethods[m] = true
	}
}

// versions are the protocol versions this module speaks.
var versions = slices.Concat(mcp.StatelessVersions(), mcp.SupportedVersions())

// knownVersion reports whether v is a protocol version this module
// speaks: only those go into metrics, whatever a peer writes in _meta.
func knownVersion(v string) bool { return slices.Contains(versions, v) }
