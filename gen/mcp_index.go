package gen

import (
	"slices"
	"strconv"
	"strings"
)

// mcpMethod is one method of an MCP schema.json, derived by convention
// (mcp-protocol conventions, never written down in the file itself).
type mcpMethod struct {
	def            string // the definition declaring the message: CallToolRequest
	at             loc    // that definition
	name           string // wire name, from properties.method.const
	notification   bool
	direction      direction
	params         *node // properties.params; nil when the message has none
	paramsRequired bool  // "params" is in the definition's required list
	result         string
	altResults     []string
}

// mcpIndex derives the method index from the definitions container of an
// MCP schema.json:
//
//   - every definition with properties.method.const is a message, except the
//     Client…/Server… union definitions themselves (2026-07-28 collapses the
//     one-member ClientNotification into a copy of its member) and the
//     listed multi-round-trip payloads (mcpPayloads);
//   - a request has properties.id where requests carry their envelope
//     (≥ 2025-11-25); before that, membership in ClientRequest/ServerRequest
//     or ClientNotification/ServerNotification decides, then the name suffix;
//   - the direction comes from the Client…/Server… unions (both → both);
//   - the result of FooRequest is FooResult, or the override table's.
//
// Methods come back in the order of their definitions. Anything the
// conventions cannot decide fails with the definition's pointer: a union
// member without a method const, a duplicate method, a request without a
// result, a message in no union.
func mcpIndex(doc *document, container string, defs *node, p *problems) []*mcpMethod {
	defAt := func(name string) loc { return loc{doc, pointerJoin("", container, name)} }
	members := mcpUnionMembers(doc, container, defs, p)
	envelope := false // requests carry their id (≥ 2025-11-25)
	for _, m := range defs.members {
		if methodConst(m.val) != nil && m.val.get("properties").get("id") != nil {
			envelope = true
		}
	}
	isUnion := func(name string) bool {
		return slices.ContainsFunc(mcpUnions, func(u mcpUnionSpec) bool { return u.name == name })
	}

	var out []*mcpMethod
	declared := map[string]loc{}
	for _, d := range defs.members {
		k := methodConst(d.val)
		if k == nil || isUnion(d.key) {
			continue
		}
		at := defAt(d.key)
		if k.kind != kindString || k.str == "" {
			p.add(at.at("properties", "method", "const"), "the method const of %s must be a non-empty string, not %s", d.key, describe(k))
			continue
		}
		if prev, dup := declared[k.str]; dup {
			p.add(at.at("properties", "method", "const"), "method %q is already declared by %s", k.str, prev)
			continue
		}
		declared[k.str] = at
		inRequests, inNotifications := members.has(k.str, false), members.has(k.str, true)
		props := d.val.get("properties")
		m := &mcpMethod{def: d.key, at: at, name: k.str}
		switch {
		case inRequests && inNotifications:
			p.add(at, "%s (method %q) is in both a …Request and a …Notification union", d.key, k.str)
			continue
		case envelope && props.get("id") != nil:
			if inNotifications {
				p.add(at.at("properties", "id"), "%s (method %q) has an id, which makes it a request, but is in a …Notification union", d.key, k.str)
				continue
			}
		case envelope && (inNotifications || !inRequests && strings.HasSuffix(d.key, "Notification")):
			m.notification = true
		case envelope && !inRequests && mcpPayloads[d.key] == k.str:
			continue // a payload inside InputRequiredResult, not a message
		case envelope:
			p.add(at, "%s (method %q) has neither an id (a request) nor a place in a …Notification union, and is not a known multi-round-trip payload: cannot tell what it is", d.key, k.str)
			continue
		case inRequests:
		case inNotifications:
			m.notification = true
		case strings.HasSuffix(d.key, "Request"):
		case strings.HasSuffix(d.key, "Notification"):
			m.notification = true
		default:
			p.add(at, "%s (method %q) is in no …Request or …Notification union and its name ends in neither Request nor Notification: cannot tell a request from a notification", d.key, k.str)
			continue
		}
		var ok bool
		if m.direction, ok = members.direction(m.name, m.notification); !ok {
			p.add(at, "%s (method %q) is in none of %s, so which side sends it is unknown", d.key, m.name, mcpUnionList(m.notification))
			continue
		}
		if m.params = props.get("params"); m.params != nil {
			if r := d.val.get("required"); r != nil && r.kind == kindArray {
				m.paramsRequired = slices.ContainsFunc(r.items, func(n *node) bool { return n.kind == kindString && n.str == "params" })
			}
		}
		if !m.notification && !mcpResult(m, defs) {
			p.add(at, "request %s (method %q) has no result: there is no definition %s and no override for it", d.key, m.name, resultRuleName(d.key))
			continue
		}
		out = append(out, m)
	}
	for _, u := range members.unions {
		for _, name := range sortedKeys(u.listed) {
			if _, ok := declared[name]; !ok {
				p.add(u.listed[name], "%s lists method %q, which no definition declares as a message", u.name, name)
			}
		}
	}
	return out
}

// methodConst returns properties.method.const of a definition, or nil.
func methodConst(def *node) *node {
	return def.get("properties").get("method").get("const")
}

// resultRuleName is the result definition the name rule gives a request:
// FooRequest → FooResult.
func resultRuleName(def string) string {
	return strings.TrimSuffix(def, "Request") + "Result"
}

// mcpResult fills the result and alternative results of a request; false
// when it has none.
func mcpResult(m *mcpMethod, defs *node) bool {
	if strings.HasSuffix(m.def, "Request") && defs.get(resultRuleName(m.def)) != nil {
		m.result = resultRuleName(m.def)
	} else {
		for _, r := range mcpResultOverrides[m.name] {
			if defs.get(r) != nil {
				m.result = r
				break
			}
		}
	}
	for _, alt := range mcpAltResults {
		if alt.method == m.name && defs.get(alt.result) != nil && alt.result != m.result {
			m.altResults = append(m.altResults, alt.result)
		}
	}
	return m.result != ""
}

// mcpUnion is one Client…/Server… union: the methods it lists, by name,
// with the place that lists each.
type mcpUnion struct {
	name         string
	notification bool
	sender       direction
	listed       map[string]loc
}

type mcpMembership struct{ unions []*mcpUnion }

// mcpUnionMembers reads the Client…/Server… unions: an anyOf of $refs to
// message definitions, a single $ref, or (2026-07-28's collapsed
// ClientNotification) a copy of its one member with the member's method
// const. A union that is absent lists nothing (2026-07-28 has no
// ServerRequest).
func mcpUnionMembers(doc *document, container string, defs *node, p *problems) mcpMembership {
	var out mcpMembership
	for _, spec := range mcpUnions {
		u := &mcpUnion{name: spec.name, notification: spec.notification, sender: spec.sender, listed: map[string]loc{}}
		out.unions = append(out.unions, u)
		def := defs.get(spec.name)
		if def == nil {
			continue
		}
		at := loc{doc, pointerJoin("", container, spec.name)}
		var refs []loc // places of the $refs naming members
		switch {
		case def.get("anyOf") != nil && def.get("anyOf").kind == kindArray:
			for i := range def.get("anyOf").items {
				refs = append(refs, at.at("anyOf", strconv.Itoa(i)))
			}
		case def.get("$ref") != nil:
			refs = append(refs, at)
		case methodConst(def) != nil && methodConst(def).kind == kindString:
			u.listed[methodConst(def).str] = at
			continue
		default:
			p.add(at, "%s is neither an anyOf of message definitions, nor a $ref to one, nor a copy of one (with a method const)", spec.name)
			continue
		}
		for _, ref := range refs {
			n, _ := doc.root.lookup(ref.ptr)
			member, ok := mcpMemberDef(n.get("$ref"), container, defs)
			if !ok {
				p.add(ref, "a member of %s must be a $ref to a definition in %s", spec.name, "/"+container)
				continue
			}
			k := methodConst(defs.get(member))
			if k == nil || k.kind != kindString {
				p.add(loc{doc, pointerJoin("", container, member, "properties", "method")}, "%s is a member of %s but has no method const, so it names no method", member, spec.name)
				continue
			}
			u.listed[k.str] = ref.at("$ref")
		}
	}
	return out
}

// mcpMemberDef reads a union member's $ref: "#/<container>/Name".
func mcpMemberDef(ref *node, container string, defs *node) (string, bool) {
	if ref == nil || ref.kind != kindString {
		return "", false
	}
	prefix := "#/" + container + "/"
	if !strings.HasPrefix(ref.str, prefix) {
		return "", false
	}
	name := unescapePointerToken(strings.TrimPrefix(ref.str, prefix))
	if strings.Contains(strings.TrimPrefix(ref.str, prefix), "/") || defs.get(name) == nil {
		return "", false
	}
	return name, true
}

// has reports whether a union of the kind lists the method.
func (ms mcpMembership) has(method string, notification bool) bool {
	for _, u := range ms.unions {
		if _, ok := u.listed[method]; ok && u.notification == notification {
			return true
		}
	}
	return false
}

// direction is the side that handles a method: the other side from the
// unions that list it.
func (ms mcpMembership) direction(method string, notification bool) (direction, bool) {
	var byClient, byServer bool
	for _, u := range ms.unions {
		if _, ok := u.listed[method]; ok && u.notification == notification {
			byClient = byClient || u.sender == toServer
			byServer = byServer || u.sender == toClient
		}
	}
	switch {
	case byClient && byServer:
		return bothWays, true
	case byClient:
		return toServer, true
	case byServer:
		return toClient, true
	}
	return toServer, false
}

// mcpUnionList names the unions of one kind, for messages.
func mcpUnionList(notification bool) string {
	var names []string
	for _, u := range mcpUnions {
		if u.notification == notification {
			names = append(names, u.name)
		}
	}
	return strings.Join(names, " and ")
}
