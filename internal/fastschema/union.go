package fastschema

import "github.com/schemarpc/schemarpc/internal/jsonscan"

// union speeds up an anyOf or oneOf whose alternatives are objects told
// apart by one member holding a different string constant in each (the
// "type" of MCP content blocks). Every alternative requires the member and
// accepts only its own constant there, so at most one alternative can
// accept a value: the one named by the member. The others need not be
// tried.
type union struct {
	member string
	values []string // values[i] selects alternative branches[i]
	nodes  []*node
}

// maxRefHops bounds how far discriminator detection follows $ref chains.
const maxRefHops = 16

// newUnion returns the union of the alternatives, or nil when they are not
// told apart by one constant member.
func newUnion(alts []*node) *union {
	if len(alts) < 2 {
		return nil
	}
	var candidates []string
	for _, name := range discriminators(alts[0]) {
		candidates = append(candidates, name)
	}
	for _, name := range candidates {
		u := &union{member: name}
		seen := map[string]bool{}
		for _, alt := range alts {
			v, ok := tagOf(alt, name)
			if !ok || seen[v] {
				u = nil
				break
			}
			seen[v] = true
			u.values = append(u.values, v)
			u.nodes = append(u.nodes, alt)
		}
		if u != nil {
			return u
		}
	}
	return nil
}

// objectCore follows n through $ref to the node holding the object
// keywords: one that only accepts objects. Every node on the way accepts a
// value only if the node returned does.
func objectCore(n *node) *node {
	for hops := 0; n != nil && hops < maxRefHops; hops++ {
		if n.types == kObject && n.obj != nil {
			return n
		}
		n = n.ref
	}
	return nil
}

// discriminators lists the required members of n whose schema is a string
// constant.
func discriminators(n *node) []string {
	core := objectCore(n)
	if core == nil {
		return nil
	}
	var out []string
	for _, r := range core.obj.required {
		name := core.obj.names[r].name
		if _, ok := tagOf(n, name); ok {
			out = append(out, name)
		}
	}
	return out
}

// tagOf returns the string constant member name must hold for n to accept
// an object, when n requires the member and pins it to one string.
func tagOf(n *node, name string) (string, bool) {
	core := objectCore(n)
	if core == nil {
		return "", false
	}
	o := core.obj
	required := false
	for _, r := range o.required {
		if o.names[r].name == name {
			required = true
		}
	}
	if !required {
		return "", false
	}
	for _, e := range o.names {
		if e.name == name {
			return stringConst(e.prop)
		}
	}
	return "", false
}

// stringConst returns the one string n accepts, following $ref, when n
// accepts only one string.
func stringConst(n *node) (string, bool) {
	for hops := 0; n != nil && hops < maxRefHops; hops++ {
		if len(n.consts) == 1 && n.consts[0].kind == kString {
			return n.consts[0].s, true
		}
		if len(n.enum) == 1 && n.enum[0].kind == kString {
			return n.enum[0].s, true
		}
		n = n.ref
	}
	return "", false
}

// pick returns the alternative the object at i selects, or nil when it
// selects none: the member is missing or holds another value. The result
// is rBad on malformed input.
func (s *state) pick(u *union, i int) (*node, result) {
	if s.data[i] != '{' {
		return nil, rOK
	}
	var m members
	m.open(s, i)
	defer m.close(s)
	for m.next(s) {
		mark := len(s.buf)
		key := s.decodedKey(m.key)
		match := string(key) == u.member
		s.buf = s.buf[:mark]
		if match {
			v := m.val
			if s.data[v] != '"' {
				return nil, rOK
			}
			e, esc, ok := s.scanString(v)
			if !ok {
				return nil, rBad
			}
			val := s.data[v+1 : e-1]
			if esc {
				val = jsonscan.AppendUnescaped(s.buf, val)[mark:]
			}
			for k, want := range u.values {
				if string(val) == want {
					return u.nodes[k], rOK
				}
			}
			return nil, rOK
		}
		e, ok := s.skip(m.val)
		if !ok {
			return nil, rBad
		}
		m.after(s, e)
	}
	if !m.ok {
		return nil, rBad
	}
	return nil, rOK
}
