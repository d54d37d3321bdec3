package gen

import (
	"slices"
	"strings"
)

// A $ref may point anywhere in a document, not only at a definitions entry:
// into another schema's properties (#/components/schemas/X/properties/y),
// at an array's items, at a method's params. Such a target gets the Go type
// its own schema gives it where it stands, so the reference and the place it
// points at share one type.

// isEntry reports whether the target is a whole document or an entry of a
// definitions container ($defs or definitions at any depth, or one of the
// document's containers), which namedAt names after the entry.
func isEntry(t target) bool {
	if t.ptr == "" {
		return true
	}
	container, _, ok := splitDefPointer(t.ptr)
	if !ok {
		return false
	}
	if slices.Contains(t.doc.defsContainers(), container) {
		return true
	}
	last := container[strings.LastIndex(container, "/")+1:]
	return last == "$defs" || last == "definitions"
}

// entryAncestor returns the nearest definitions entry that contains the
// target, if any.
func entryAncestor(t target) (target, bool) {
	ptr := t.ptr
	for {
		i := strings.LastIndex(ptr, "/")
		if i <= 0 {
			return target{}, false
		}
		ptr = ptr[:i]
		if anc := (target{t.doc, ptr}); isEntry(anc) {
			return anc, true
		}
	}
}

// refConv resolves the $ref of the schema at `at` and returns the Go type of
// what it points at.
func (c *converter) refConv(ref *node, at loc) (conv, bool) {
	tgt, ok := c.l.resolve(at.at("$ref"), ref.str, c.p)
	if !ok {
		return conv{t: raw}, false
	}
	if isEntry(tgt) {
		nt := c.namedAt(tgt, at.at("$ref"))
		if nt == nil {
			return conv{t: raw}, false
		}
		return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
	}
	return c.pointerConv(tgt, at.at("$ref"))
}

// pointerConv converts a target inside another schema. The definition that
// holds it is converted first, so the target keeps the name and type it has
// there; a target outside any definition is converted on its own, named
// after its pointer.
func (c *converter) pointerConv(t target, from loc) (conv, bool) {
	key := t.doc.rel + "#" + t.ptr
	if res, ok := c.inline[key]; ok {
		return res, true
	}
	if nt := c.declared[key]; nt != nil {
		// Being converted where it stands: a reference from inside it.
		return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
	}
	if nt, ok := c.byTarget[key]; ok {
		if nt == nil {
			return conv{t: raw}, false
		}
		c.pointedAgain[nt] = true
		return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
	}
	n, ok := t.doc.root.lookup(t.ptr)
	if !ok {
		c.p.add(from, "$ref target %s#%s does not exist", t.doc.rel, t.ptr)
		return conv{t: raw}, false
	}
	if anc, ok := entryAncestor(t); ok {
		c.namedAt(anc, from)
		if res, ok := c.inline[key]; ok {
			return res, true
		}
	}
	origin := loc{t.doc, t.ptr}
	name := c.rename(c.pointerName(t), origin)
	if !c.claim(name, origin) {
		return conv{t: raw}, false
	}
	// The target is declared before its body is converted, so that a
	// reference back to it from inside is a reference to the type.
	nt := &namedType{name: name, origin: origin, nullable: peekNullable(n)}
	nt.doc, nt.deprecated = c.typeAnnotations(n, name)
	c.byTarget[key] = nt
	c.types = append(c.types, nt)
	res, ok := c.convert(n, origin, name, nt, false)
	if nt.kind == namedPending && !c.pointedAgain[nt] {
		// Nothing named was needed: the target's own type (string,
		// []T, another named type) is the type of the reference.
		c.types = slices.DeleteFunc(c.types, func(x *namedType) bool { return x == nt })
		delete(c.names, name)
		delete(c.byTarget, key)
		c.inline[key] = res
		return res, ok
	}
	if nt.kind == namedPending {
		nt.kind, nt.underlying = namedDefined, res.t
	}
	nt.note = joinNote(nt.note, res.note)
	nt.nullable = nt.nullable || res.nullable
	out := conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}
	c.inline[key] = out
	return out, ok
}

// pointerName proposes a Go name for a target inside another schema: the
// name of the definition that holds it, followed by the property names on
// the way ("Item" for array items, "Value" for map values); keywords and
// list positions add nothing.
func (c *converter) pointerName(t target) string {
	ptr := t.ptr
	var name string
	if anc, ok := entryAncestor(t); ok {
		_, entry, _ := splitDefPointer(anc.ptr)
		name = c.exportedName(entry)
		ptr = strings.TrimPrefix(ptr, anc.ptr)
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapePointerToken(tok)
		switch {
		case tok == "items" || tok == "prefixItems" || tok == "additionalItems":
			name += "Item"
		case tok == "additionalProperties":
			name += "Value"
		case shapingKeywords[tok] || constraintKeywords[tok] || tok == "$defs" || tok == "definitions" || tok == "components" || tok == "schemas":
		case tok == "" || strings.Trim(tok, "0123456789") == "":
		default:
			name += c.exportedName(tok)
		}
	}
	if name == "" {
		name = "Ref"
	}
	return name
}
