package gen

import (
	"fmt"
	"strings"
)

// allOfPart is one schema whose properties an allOf struct merges: a
// member, a member's $ref target, or the schema holding the allOf itself.
type allOfPart struct {
	n  *node
	at loc
}

// allOfMember is one item of an allOf list.
type allOfMember struct {
	n  *node
	at loc
}

// objectKeywords make a schema describe an object's members.
var objectKeywords = []string{"properties", "additionalProperties", "required"}

func isObjectish(n *node) bool {
	if n.kind != kindObject {
		return false
	}
	for _, k := range objectKeywords {
		if n.get(k) != nil {
			return true
		}
	}
	t := n.get("type")
	return t != nil && t.kind == kindString && t.str == "object"
}

// typed reports whether a schema says anything about the Go type (beyond
// annotations, runtime constraints and allOf).
func typed(n *node) bool {
	if n.kind != kindObject {
		return false
	}
	for _, m := range n.members {
		if shapingKeywords[m.key] && m.key != "allOf" && m.key != "required" {
			return true
		}
	}
	return false
}

// withoutKeyword returns a copy of the schema n without member k.
func withoutKeyword(n *node, k string) *node {
	cp := *n
	cp.members = nil
	for _, m := range n.members {
		if m.key != k {
			cp.members = append(cp.members, m)
		}
	}
	return &cp
}

// convertAllOf maps allOf. Object members are flattened into one struct
// (properties merged in order, required lists joined, $refs followed); a
// member that only constrains (minLength, required…) leaves the type to the
// one member that has one.
func (c *converter) convertAllOf(n *node, at loc, name string, into *namedType) (conv, bool) {
	list := n.get("allOf")
	if list.kind != kindArray || len(list.items) == 0 {
		c.p.add(at.at("allOf"), "allOf must be a non-empty list of schemas")
		return conv{t: raw}, false
	}
	own := withoutKeyword(n, "allOf")
	var members []allOfMember
	for i, m := range list.items {
		mat := at.at("allOf", fmt.Sprint(i))
		if m.kind == kindBool && m.boolean {
			continue
		}
		if m.kind != kindObject {
			c.p.add(mat, "an allOf member must be a schema object, not %s", m.kind)
			return conv{t: raw}, false
		}
		members = append(members, allOfMember{m, mat})
	}
	var parts []allOfPart
	objectish := isObjectish(own)
	for _, m := range members {
		ps, ok := c.allOfParts(m.n, m.at, map[string]bool{at.String(): true}, true)
		if !ok {
			return conv{t: raw}, false
		}
		parts = append(parts, ps...)
	}
	parts = append(parts, allOfPart{own, at})
	unionAt := -1
	for i, p := range parts {
		objectish = objectish || isObjectish(p.n)
		for _, k := range []string{"anyOf", "oneOf"} {
			if u := p.n.get(k); u != nil && !constraintOnly(u) {
				if unionAt >= 0 {
					c.p.add(at.at("allOf"), "allOf of two unions (%s and %s) is not supported: write the combinations as one union", parts[unionAt].at, p.at)
					return conv{t: raw}, false
				}
				unionAt = i
			}
		}
	}
	if unionAt >= 0 {
		return c.distributeAllOf(n, at, name, into, parts, unionAt)
	}
	var typedAt []allOfMember
	requires := 0 // schemas that list required properties
	if typed(own) {
		typedAt = append(typedAt, allOfMember{own, at})
	}
	for _, m := range append([]allOfMember{{own, at}}, members...) {
		if m.n != own && typed(m.n) {
			typedAt = append(typedAt, m)
		}
		if m.n.get("required") != nil {
			requires++
		}
	}
	if len(typedAt) == 1 && (requires == 0 || requires == 1 && typedAt[0].n.get("required") != nil) {
		// One schema gives the type; the others only annotate or
		// constrain it (allOf [{"$ref": …}] with a description, a string
		// with a minLength member): that schema's type is the type.
		return c.convert(typedAt[0].n, typedAt[0].at, name, into, false)
	}
	if !objectish {
		// A string (or number, array…) with extra constraints: the one
		// typed member gives the type.
		switch len(typedAt) {
		case 0:
			return conv{t: raw}, true
		case 1:
			return c.convert(typedAt[0].n, typedAt[0].at, name, into, false)
		}
		if m, ok := narrowingBase(typedAt); ok {
			// The others narrow its values (a const or enum of a $ref'd
			// enum): the type is the base's; the validator checks the rest.
			return c.convert(m.n, m.at, name, into, false)
		}
		var locs []string
		for _, m := range typedAt {
			locs = append(locs, m.at.String())
		}
		c.p.add(at.at("allOf"), "allOf of several schemas that are not objects is not supported (%s): keep the type in one of them", strings.Join(locs, ", "))
		return conv{t: raw}, false
	}
	// Flattening copies the members' properties into a new struct; a
	// property that leads back to this very allOf would be copied again
	// inside the copy, for ever.
	key := at.String()
	if c.merging[key] {
		c.p.add(at.at("allOf"), "this allOf is reached again while its own members are flattened: a struct cannot hold a flattened copy of itself; refer to the type with a plain $ref instead")
		return conv{t: raw}, false
	}
	if c.merging == nil {
		c.merging = map[string]bool{}
	}
	c.merging[key] = true
	defer delete(c.merging, key)
	return c.mergeAllOf(n, at, name, into, members, parts)
}

// allOfParts lists the schemas an allOf member contributes: its $ref's
// target (and that target's own allOf members), then the member itself.
func (c *converter) allOfParts(n *node, at loc, seen map[string]bool, check bool) ([]allOfPart, bool) {
	if seen[at.String()] {
		c.p.add(at, "allOf includes itself")
		return nil, false
	}
	seen[at.String()] = true
	defer delete(seen, at.String())
	if check && !c.checkKeywords(n, at, false) {
		return nil, false
	}
	var parts []allOfPart
	if ref := n.get("$ref"); ref != nil {
		if ref.kind != kindString {
			c.p.add(at.at("$ref"), "$ref must be a string, not %s", ref.kind)
			return nil, false
		}
		if _, ok := c.refConv(ref, at); !ok { // reports what is wrong, and declares the base
			return nil, false
		}
		target, tat, _ := c.refNode(n, at)
		ps, ok := c.allOfParts(target, tat, seen, false) // checked when the target was converted
		if !ok {
			return nil, false
		}
		parts = append(parts, ps...)
		n = withoutKeyword(n, "$ref")
	}
	if list := n.get("allOf"); list != nil {
		if list.kind != kindArray {
			c.p.add(at.at("allOf"), "allOf must be a non-empty list of schemas")
			return nil, false
		}
		for i, m := range list.items {
			ps, ok := c.allOfParts(m, at.at("allOf", fmt.Sprint(i)), seen, check)
			if !ok {
				return nil, false
			}
			parts = append(parts, ps...)
		}
		n = withoutKeyword(n, "allOf")
	}
	return append(parts, allOfPart{n, at}), true
}

// mergeAllOf builds the flattened struct of an allOf with object members.
func (c *converter) mergeAllOf(n *node, at loc, name string, into *namedType, members []allOfMember, parts []allOfPart) (conv, bool) {
	ok := true
	spec := structSpec{required: map[string]bool{}}
	declared := map[string]bool{}
	var extraFrom *allOfPart
	for i, p := range parts {
		if t := p.n.get("type"); t != nil && !(t.kind == kindString && t.str == "object") {
			c.p.add(p.at.at("type"), "an allOf member of an object must be an object too, not %s", describe(t))
			ok = false
		}
		if props := p.n.get("properties"); props != nil {
			if props.kind != kindObject {
				c.p.add(p.at.at("properties"), "properties must be an object, not %s", props.kind)
				ok = false
				continue
			}
			for _, m := range props.members {
				spec.props = append(spec.props, propSrc{m.key, m.val, p.at.at("properties", m.key)})
				declared[m.key] = true
			}
		}
		if p.n.get("additionalProperties") != nil {
			extraFrom = &parts[i] // the last one wins: the schema itself comes last
		}
	}
	for _, p := range parts {
		ok = c.readRequired(p.n, p.at, spec.required, func(k string) bool { return declared[k] }) && ok
	}
	for _, m := range members {
		if ref := m.n.get("$ref"); ref != nil {
			if res, ok := c.refConv(ref, m.at); ok && res.t.kind == refNamed {
				spec.bases = append(spec.bases, res.t.named.name)
			}
		}
	}
	nt, claimed := c.named(into, n, name, at)
	if !claimed {
		return conv{t: raw}, false
	}
	if extraFrom != nil {
		switch ap := extraFrom.n.get("additionalProperties"); {
		case ap.kind == kindBool && ap.boolean:
			spec.extra = &raw
		case ap.kind != kindBool:
			t, eok := c.extraType(ap, extraFrom.at, nt.name)
			ok = ok && eok
			spec.extra = &t
		}
	} else if c.keepExtras {
		spec.extra = &raw
	}
	return conv{t: typeRef{kind: refNamed, named: nt}}, c.buildStruct(nt, spec) && ok
}

// narrowingBase finds, among the typed members of a non-object allOf, the
// one that gives the type (a $ref, or else the first with a type) when
// every other one only narrows values with type, const or enum.
func narrowingBase(typedAt []allOfMember) (allOfMember, bool) {
	base := -1
	for i, m := range typedAt {
		if m.n.get("$ref") != nil {
			base = i
			break
		}
	}
	if base < 0 {
		for i, m := range typedAt {
			if m.n.get("type") != nil {
				base = i
				break
			}
		}
	}
	if base < 0 {
		return allOfMember{}, false
	}
	for i, m := range typedAt {
		if i == base {
			continue
		}
		for _, mem := range m.n.members {
			if shapingKeywords[mem.key] && mem.key != "type" && mem.key != "const" && mem.key != "enum" {
				return allOfMember{}, false
			}
		}
		// A type beside the base's must be the same one (or the base a
		// $ref, whose type it restates): string and number allow nothing.
		if t, bt := m.n.get("type"), typedAt[base].n.get("type"); t != nil && bt != nil && nodeJSON(t) != nodeJSON(bt) {
			return allOfMember{}, false
		}
	}
	return typedAt[base], true
}
