package gen

import (
	"fmt"
	"strconv"
)

// tuple describes a namedTuple: a struct whose fields are the positions of
// a JSON array.
type tuple struct {
	required int      // leading positions that are always written
	rest     *typeRef // element type of the items after the positions; nil when there are none
}

func (c *converter) convertArray(n *node, at loc, name string, into *namedType) (conv, bool) {
	draft7 := at.doc.dialect == draft07
	items := n.get("items")
	switch pi := n.get("prefixItems"); {
	case pi != nil && draft7:
		c.p.add(at.at("prefixItems"), "prefixItems is JSON Schema 2020-12; draft-07 writes a tuple as items: [...]")
		return conv{t: raw}, false
	case pi != nil:
		return c.convertTuple(n, at, name, into, pi, "prefixItems", items, "items")
	case items != nil && items.kind == kindArray && draft7:
		return c.convertTuple(n, at, name, into, items, "items", n.get("additionalItems"), "additionalItems")
	case items != nil && items.kind == kindArray:
		c.p.add(at.at("items"), "items must be a schema: JSON Schema 2020-12 writes a tuple as prefixItems")
		return conv{t: raw}, false
	case items == nil:
		return conv{t: typeRef{kind: refSlice, elem: &raw}}, true
	case items.kind == kindBool && !items.boolean:
		c.p.add(at.at("items"), "items: false without prefixItems allows only the empty array, which has no useful Go type")
		return conv{t: raw}, false
	}
	elem, ok := c.valueType(items, at.at("items"), name+"Item")
	return conv{t: typeRef{kind: refSlice, elem: &elem}}, ok
}

// convertTuple maps a tuple (prefixItems, or draft-07 items: [...]) to a
// struct with one field per position, written and read as a JSON array.
// Positions past minItems are optional: their fields are pointers (or
// slices, maps, raw JSON) and absent trailing ones are not written.
func (c *converter) convertTuple(n *node, at loc, name string, into *namedType, list *node, kw string, rest *node, restKW string) (conv, bool) {
	if list.kind != kindArray || len(list.items) == 0 {
		c.p.add(at.at(kw), "%s must be a non-empty list of schemas", kw)
		return conv{t: raw}, false
	}
	nt, claimed := c.named(into, n, name, at)
	if !claimed {
		return conv{t: raw}, false
	}
	nt.kind = namedTuple
	tp := &tuple{}
	nt.tuple = tp
	if m := n.get("minItems"); m != nil {
		if v, isInt := m.int64(); isInt && v > 0 {
			tp.required = int(min(v, int64(len(list.items))))
		}
	}
	ok := true
	seen := map[string]loc{}
	for i, it := range list.items {
		iat := at.at(kw, strconv.Itoa(i))
		fname := ""
		if t := it.get("title"); t != nil && t.kind == kindString {
			fname = c.exportedName(t.str)
		}
		if fname == "" {
			fname = "Item" + strconv.Itoa(i) // positions have no names of their own
		}
		if r, renamed := c.cfg.Renames[iat.String()]; renamed {
			c.used["renames\x00"+iat.String()] = true
			fname = r
		}
		if prev, dup := seen[fname]; dup {
			c.p.add(iat, "Go field name %s collides with the one generated for %s; rename one in the config (renames: %q: \"Name\")", fname, prev, iat.String())
			ok = false
			continue
		}
		seen[fname] = iat
		fc, fok := c.convert(it, iat, nt.name+fname, nil, false)
		ok = ok && fok
		f := &field{name: fname, origin: iat, typ: fc.t, base: fc.t, nullable: fc.nullable, required: i < tp.required}
		f.doc, f.deprecated = annotations(it)
		f.doc = joinNote(fmt.Sprintf("Position %d.", i), joinNote(f.doc, fc.note))
		switch shape := fc.t.shape(); {
		case f.required && f.nullable:
			f.typ = fc.t.pointer()
		case f.required:
			f.fillEmpty = shape == shapeSlice || shape == shapeMap
		case f.nullable && shape != shapeRaw:
			f.typ = fc.t.nullable()
		default:
			f.typ = fc.t.pointer()
		}
		nt.fields = append(nt.fields, f)
	}
	switch {
	case rest == nil || rest.kind == kindBool && rest.boolean:
		tp.rest = &raw
	case rest.kind == kindBool:
	default:
		t, rok := c.valueType(rest, at.at(restKW), nt.name+"Item")
		ok = ok && rok
		tp.rest = &t
	}
	if prev, dup := seen["Rest"]; dup && tp.rest != nil {
		c.p.add(prev, "Go field name Rest collides with the field for the items after the positions; rename it in the config (renames: %q: \"Name\")", prev.String())
		ok = false
	}
	return conv{t: typeRef{kind: refNamed, named: nt}}, ok
}
