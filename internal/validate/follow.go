package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// How a Checker of FollowSet follows its conversation's version is told in
// the doc comment of FollowSet.

// metaVersion is the params._meta member that carries a stateless
// request's protocol version.
const metaVersion = "io.modelcontextprotocol/protocolVersion"

// metaVersionPointer points at metaVersion inside a request.
const metaVersionPointer = "/params/_meta/io.modelcontextprotocol~1protocolVersion"

// Codes of findings about the version a message belongs to: those a
// 2026-07-28 server answers with.
const (
	// CodeHeaderMismatch: the Streamable HTTP headers disagree with the
	// body.
	CodeHeaderMismatch = -32020
	// CodeUnsupportedVersion: a request names a protocol version the
	// checker does not know.
	CodeUnsupportedVersion = -32022
)

// following is the version state of one conversation.
type following struct {
	// negotiated is the version the server answered initialize with.
	negotiated *Set
	// requested is the version set an unanswered initialize asked for
	// (nil for one rpcgen does not know), and asking says one awaits its
	// answer.
	requested *Set
	asking    bool
	// stateless says the conversation has made a stateless request, and
	// lastStateless is the version of the last one.
	stateless     bool
	lastStateless string
}

// Version returns the MCP version that governs the conversation: the one
// negotiated by the initialize handshake, or, in the stateless era, the
// version of the last stateless request. It is "" before either, and the
// version of the set for a Checker of one MCP version.
func (c *Checker) Version() string {
	if c.follow == nil {
		if !c.set.mcp {
			return ""
		}
		return c.set.version
	}
	if c.follow.negotiated != nil {
		return c.follow.negotiated.version
	}
	return c.follow.lastStateless
}

// governing returns the versions a message that carries no version of its
// own may belong to, most likely first.
func (c *Checker) governing() []*Set {
	f := c.follow
	switch {
	case f == nil:
		return c.set.alone
	case f.negotiated != nil:
		return f.negotiated.alone
	case f.asking && f.requested != nil:
		return c.set.handshakePreferring(f.requested)
	case f.asking:
		return c.set.handshake
	case f.stateless:
		return c.set.stateless
	}
	return c.set.versions
}

// handshakePreferring returns the handshake versions with v, one of them,
// first. Only the messages sent while an initialize awaits its answer ask.
func (s *Set) handshakePreferring(v *Set) []*Set {
	p := make([]*Set, 1, len(s.handshake))
	p[0] = v
	for _, o := range s.handshake {
		if o != v {
			p = append(p, o)
		}
	}
	return p
}

// callSets returns the versions a request or notification is checked
// under, with the findings its version raises (an unknown version, a
// header that disagrees).
func (c *Checker) callSets(m *rpc.Message, prefix string, from Direction, at Position, header string, out []Finding) ([]*Set, []Finding) {
	f := c.follow
	if f == nil {
		return c.set.alone, out
	}
	req := m.Request
	kind := m.Kind.String()
	finding := func(pointer string, code int, reason string) {
		out = append(out, Finding{Position: at, Pointer: prefix + pointer, Code: code, Reason: reason, Kind: kind, Method: req.Method, From: from})
	}
	header = strings.TrimSpace(header)
	v, hasMeta := stringAt(req.Params, "_meta", metaVersion)
	if hasMeta {
		// A handshake version in _meta is only a member of _meta, and a
		// notification does not have to carry a version.
		set := c.set.versionSet(v)
		unknown := set == nil && m.Kind == rpc.KindRequest
		if unknown || set != nil && set.statelessEra() {
			if header != "" && header != v {
				finding("", CodeHeaderMismatch, fmt.Sprintf("the MCP-Protocol-Version header says %q, params._meta says %q", header, v))
			}
			f.stateless = true
			if unknown {
				finding(metaVersionPointer, CodeUnsupportedVersion, fmt.Sprintf("protocol version %q is not one rpcgen knows (stateless: %s)", v, versionsText(c.set.stateless)))
				return c.set.stateless, out
			}
			f.lastStateless = v
			return set.alone, out
		}
	}
	if req.Method == "initialize" && m.Kind == rpc.KindRequest {
		f.negotiated, f.requested, f.asking = nil, nil, true
		if v, ok := stringAt(req.Params, "protocolVersion"); ok {
			if set := c.set.versionSet(v); set != nil && !set.statelessEra() {
				f.requested = set
				return set.alone, out
			}
		}
		return c.set.handshake, out
	}
	if header == "" {
		return c.governing(), out
	}
	set := c.set.versionSet(header)
	switch {
	case set != nil && set.statelessEra():
		// A stateless version's header makes the request a stateless one,
		// whatever the conversation negotiated: params._meta must say so.
		if hasMeta && v != header {
			finding("", CodeHeaderMismatch, fmt.Sprintf("the MCP-Protocol-Version header says %q, params._meta says %q", header, v))
		}
		f.stateless, f.lastStateless = true, header
		return set.alone, out
	case set == nil:
		finding("", rpc.CodeInvalidRequest, fmt.Sprintf("the MCP-Protocol-Version header names %q, a version rpcgen does not know", header))
	case f.negotiated != nil && set != f.negotiated:
		finding("", rpc.CodeInvalidRequest, fmt.Sprintf("the MCP-Protocol-Version header says %q, the conversation negotiated %q", header, f.negotiated.version))
	case f.negotiated == nil:
		return set.alone, out
	}
	return c.governing(), out
}

// negotiate reads the server's answer to initialize: the version it
// answers with governs from now on. It returns the versions the result is
// checked under and any finding about the version.
func (c *Checker) negotiate(resp *rpc.Response, prefix string, from Direction, at Position, asked []*Set, out []Finding) ([]*Set, []Finding) {
	f := c.follow
	f.asking = false
	if resp.Error != nil {
		return asked, out
	}
	v, ok := stringAt(resp.Result, "protocolVersion")
	if !ok {
		return asked, out // the result schema says what is missing
	}
	set := c.set.versionSet(v)
	if set == nil || set.statelessEra() {
		return asked, append(out, Finding{Position: at, Pointer: prefix + "/result/protocolVersion", Code: rpc.CodeInternalError,
			Reason: fmt.Sprintf("the server answered initialize with protocol version %q, which is no handshake version rpcgen knows (%s)", v, versionsText(c.set.handshake)),
			Kind:   "response", Method: "initialize", From: from})
	}
	f.negotiated = set
	return set.alone, out
}

// stringAt returns the string at a path of member names inside a JSON
// object.
func stringAt(doc []byte, path ...string) (string, bool) {
	for _, name := range path {
		v, ok := jsonscan.Member(doc, name)
		if !ok {
			return "", false
		}
		doc = v
	}
	return jsonscan.String(doc)
}

// versionsText names the MCP versions of sets for a reason: "2025-11-25"
// or "2024-11-05, 2025-03-26 and 2025-06-18", oldest first.
func versionsText(sets []*Set) string {
	names := make([]string, 0, len(sets))
	for _, s := range sets {
		v := s.version
		if v == "" {
			v = s.name
		}
		names = append(names, v)
	}
	slices.Sort(names)
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}
