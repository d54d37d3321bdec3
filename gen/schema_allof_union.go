package gen

import (
	"fmt"
	"slices"
)

// An allOf of a union and shared parts (allOf [{$ref: Union}, {not: …}],
// allOf [{oneOf: [A, B]}, {properties: …}]) is the union of each variant
// with the shared parts: the shared properties and required lists are
// distributed over the variants, so each variant is one flat struct. A
// shared part that only constrains (not, minProperties…) leaves the union as
// it is; the runtime validator checks it.

// distributeAllOf converts the allOf schema n at `at`, whose part
// parts[unionAt] is a union, as a union of its variants each merged with the
// other parts.
func (c *converter) distributeAllOf(n *node, at loc, name string, into *namedType, parts []allOfPart, unionAt int) (conv, bool) {
	u := parts[unionAt]
	kw := "anyOf"
	if u.n.get("oneOf") != nil {
		kw = "oneOf"
	}
	var shared []allOfPart
	for i, p := range parts {
		if i == unionAt {
			p = allOfPart{withoutKeyword(p.n, kw), p.at}
		}
		if isObjectish(p.n) {
			shared = append(shared, p)
		}
	}
	if len(shared) == 0 {
		// Only constraints beside the union: its type is the union's.
		if u.at != at && isEntry(target0(u.at)) {
			if nt := c.namedAt(target0(u.at), at); nt != nil {
				return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
			}
			return conv{t: raw}, false
		}
		return c.convert(u.n, u.at, name, into, false)
	}
	list := u.n.get(kw)
	// Problems are reported where the shared part was written: the allOf,
	// or the schema whose properties stand beside the union.
	shareAt, what := at.at("allOf"), "this allOf"
	if n.get("allOf") == nil {
		shareAt, what = at, "the properties beside "+kw
	}
	variants := &node{kind: kindArray}
	for i, v := range list.items {
		vat := u.at.at(kw, fmt.Sprint(i))
		merged, ok := c.mergeVariant(v, vat, shared, shareAt, what)
		if !ok {
			return conv{t: raw}, false
		}
		variants.items = append(variants.items, merged)
	}
	union := &node{kind: kindObject, members: []member{{key: kw, val: variants}}}
	for _, k := range []string{"title", "description", "deprecated"} {
		if v := n.get(k); v != nil {
			union.members = append(union.members, member{key: k, val: v})
		}
	}
	// The variants are new schemas, located (in names and problems) at
	// the allOf the user wrote: at's kw/i.
	return c.convertSchema(union, at, name, into, false)
}

// mergeVariant returns one variant of a distributed allOf: the variant's
// object schema (its $refs followed) with the shared parts' properties,
// required lists and additionalProperties added. A variant that is not an
// object is an error at shareAt, where the shared part was written.
func (c *converter) mergeVariant(v *node, vat loc, shared []allOfPart, shareAt loc, what string) (*node, bool) {
	title := ""
	for v.kind == kindObject && v.get("$ref") != nil {
		target, tat, ok := c.refNode(v, vat)
		if !ok {
			c.p.add(vat.at("$ref"), "$ref %s cannot be followed", describe(v.get("$ref")))
			return nil, false
		}
		if _, entry, ok := splitDefPointer(tat.ptr); ok && isEntry(target0(tat)) {
			title = entry
		}
		v, vat = target, tat
	}
	if v.kind != kindObject || !isObjectish(v) || v.get("allOf") != nil || v.get("oneOf") != nil || v.get("anyOf") != nil {
		c.p.add(shareAt, "cannot distribute %s over the variant at %s: it is not a plain object schema; list the shared properties in each variant", what, vat)
		return nil, false
	}
	props := &node{kind: kindObject}
	required := &node{kind: kindArray}
	merged := &node{kind: kindObject, members: []member{{key: "type", val: &node{kind: kindString, str: "object"}}}}
	var extra *node
	add := func(part *node, pat loc) {
		if p := part.get("properties"); p != nil && p.kind == kindObject {
			for _, m := range p.members {
				if props.get(m.key) != nil {
					continue // the variant's own property wins
				}
				props.members = append(props.members, m)
				if _, moved := c.origins[m.val]; !moved {
					c.origins[m.val] = pat.at("properties", m.key)
				}
			}
		}
		if r := part.get("required"); r != nil && r.kind == kindArray {
			for _, it := range r.items {
				if !slices.ContainsFunc(required.items, func(x *node) bool { return x.kind == kindString && it.kind == kindString && x.str == it.str }) {
					required.items = append(required.items, it)
				}
			}
		}
		if ap := part.get("additionalProperties"); ap != nil {
			extra = ap
		}
	}
	add(v, vat)
	for _, p := range shared {
		add(p.n, p.at)
	}
	merged.members = append(merged.members, member{key: "properties", val: props}, member{key: "required", val: required})
	if extra != nil {
		merged.members = append(merged.members, member{key: "additionalProperties", val: extra})
	}
	if t := v.get("title"); t != nil {
		merged.members = append(merged.members, member{key: "title", val: t})
	} else if title != "" {
		merged.members = append(merged.members, member{key: "title", val: &node{kind: kindString, str: title}})
	}
	if d := v.get("description"); d != nil {
		merged.members = append(merged.members, member{key: "description", val: d})
	}
	return merged, true
}

// target0 is the target at a location.
func target0(l loc) target { return target{l.doc, l.ptr} }
