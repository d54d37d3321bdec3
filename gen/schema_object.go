package gen

import (
	"fmt"
	"strings"
	"unicode"
)

// propSrc is one property of a struct being built: its name, schema and
// location.
type propSrc struct {
	key string
	val *node
	at  loc
}

// structSpec is what a struct is built from: one object schema, or the
// members of an allOf merged.
type structSpec struct {
	props    []propSrc
	required map[string]bool
	extra    *typeRef // the Extra map's element type; nil drops unknown members
	bases    []string // the definitions an allOf includes
}

func (c *converter) convertObject(n *node, at loc, name string, into *namedType) (conv, bool) {
	props := n.get("properties")
	if props != nil && props.kind != kindObject {
		c.p.add(at.at("properties"), "properties must be an object, not %s", props.kind)
		return conv{t: raw}, false
	}
	ap := n.get("additionalProperties")
	closed := ap != nil && ap.kind == kindBool && !ap.boolean
	open := ap != nil && ap.kind == kindBool && ap.boolean
	apSchema := ap != nil && ap.kind != kindBool
	if props != nil && len(props.members) > 0 || closed {
		spec := structSpec{required: map[string]bool{}}
		if props != nil {
			for _, m := range props.members {
				pat, moved := c.origins[m.val]
				if !moved {
					pat = at.at("properties", m.key)
				}
				spec.props = append(spec.props, propSrc{m.key, m.val, pat})
			}
		}
		ok := c.readRequired(n, at, spec.required, func(k string) bool { return props != nil && props.get(k) != nil })
		nt, claimed := c.named(into, n, name, at)
		if !claimed {
			return conv{t: raw}, false
		}
		switch {
		case apSchema:
			t, eok := c.extraType(ap, at, nt.name)
			ok = ok && eok
			spec.extra = &t
		case open, ap == nil && c.keepExtras:
			spec.extra = &raw
		}
		return conv{t: typeRef{kind: refNamed, named: nt}}, c.buildStruct(nt, spec) && ok
	}
	if r := n.get("required"); r != nil && r.kind == kindArray && len(r.items) > 0 {
		c.p.add(at.at("required"), "required names properties, but the schema declares none")
		return conv{t: raw}, false
	}
	if apSchema {
		t, ok := c.extraType(ap, at, name)
		return conv{t: typeRef{kind: refMap, elem: &t}}, ok
	}
	if pp := n.get("patternProperties"); ap == nil && pp != nil && pp.kind == kindObject && len(pp.members) == 1 {
		m := pp.members[0]
		t, ok := c.valueType(m.val, at.at("patternProperties", m.key), name+"Value")
		return conv{t: typeRef{kind: refMap, elem: &t}, note: "Keys match the pattern " + m.key + "."}, ok
	}
	return conv{t: typeRef{kind: refMap, elem: &raw}}, true
}

// extraType converts an additionalProperties schema: the value type of a
// map, or of a struct's Extra map.
func (c *converter) extraType(ap *node, at loc, name string) (typeRef, bool) {
	return c.valueType(ap, at.at("additionalProperties"), name+"Value")
}

// valueType converts the schema of a slice element or map value; a value
// that may be null becomes a pointer (or stays a slice, map or raw JSON,
// which hold null as nil).
func (c *converter) valueType(n *node, at loc, name string) (typeRef, bool) {
	res, ok := c.convert(n, at, name, nil, false)
	t := res.t
	if res.nullable {
		t = t.pointer()
	}
	return t, ok
}

// readRequired reads "required" into req, checking that each name is
// declared (by declared) and listed once.
func (c *converter) readRequired(n *node, at loc, req map[string]bool, declared func(string) bool) bool {
	r := n.get("required")
	if r == nil {
		return true
	}
	if r.kind != kindArray {
		c.p.add(at.at("required"), "required must be a list of property names")
		return false
	}
	ok := true
	seen := map[string]bool{}
	for i, it := range r.items {
		switch {
		case it.kind != kindString:
			c.p.add(at.at("required", fmt.Sprint(i)), "required must list property names (strings)")
			ok = false
			continue
		case !declared(it.str):
			c.p.add(at.at("required", fmt.Sprint(i)), "required property %q is not declared in properties", it.str)
			ok = false
		case seen[it.str]:
			c.p.add(at.at("required", fmt.Sprint(i)), "required property %q is listed twice", it.str)
			ok = false
		}
		seen[it.str] = true
		req[it.str] = true
	}
	return ok
}

// buildStruct fills nt with one field per property. A property listed
// twice (by two allOf members) is one field when both give it the same Go
// type, and an error otherwise.
func (c *converter) buildStruct(nt *namedType, spec structSpec) bool {
	nt.kind = namedStruct
	nt.extra = spec.extra
	nt.bases = spec.bases
	ok := true
	byGoName := map[string]*field{}
	for _, p := range spec.props {
		if !validTagName(p.key) {
			c.p.add(p.at, "property name %q cannot be written in a Go struct tag (encoding/json would ignore the tag)", p.key)
			ok = false
			continue
		}
		fname := c.exportedName(p.key)
		if r, renamed := c.cfg.Renames[p.at.String()]; renamed {
			c.used["renames\x00"+p.at.String()] = true
			fname = r
		}
		if fname == "" {
			c.p.add(p.at, "property name %q gives no Go identifier; name its field in the config (renames: %q: \"Name\")", p.key, p.at.String())
			ok = false
			continue
		}
		if prev, dup := byGoName[fname]; dup && prev.jsonName == p.key && shapeJSON(p.val) == shapeJSON(prev.schema) {
			// The same schema again (an allOf member repeating a base's
			// property, perhaps with its own description).
			if doc, dep := annotations(p.val); doc != "" {
				prev.doc, prev.deprecated = doc, dep
			}
			continue
		}
		fc, fok := c.convert(p.val, p.at, nt.name+fname, nil, false)
		ok = ok && fok
		if prev, dup := byGoName[fname]; dup {
			switch {
			case prev.jsonName != p.key:
				c.p.add(p.at, "Go field name %s collides with the one generated for %s; rename one in the config (renames: %q: \"Name\")", fname, prev.origin, p.at.String())
				ok = false
			case prev.base.kind == refRaw && !prev.base.ptr && fc.t.kind != refRaw:
				// An unconstrained property ({} in a base) narrowed by a
				// later member: the narrower type wins.
				*prev = field{name: fname, jsonName: p.key, origin: p.at, schema: p.val, typ: fc.t, base: fc.t, nullable: fc.nullable, required: prev.required}
				prev.doc, prev.deprecated = annotations(p.val)
				prev.doc = joinNote(prev.doc, fc.note)
				c.presence(prev, p.val, p.at)
			case fc.t.kind == refRaw && !fc.t.ptr:
				// A later unconstrained declaration adds nothing.
			case !prev.base.same(fc.t) && c.narrows(fc, prev):
				// A later member narrows a scalar or a union of kinds (a
				// string to an enum, any JSON to one struct): an allOf
				// value satisfies both, so the narrower type holds it.
				*prev = field{name: fname, jsonName: p.key, origin: p.at, schema: p.val, typ: fc.t, base: fc.t, nullable: fc.nullable && prev.nullable, required: prev.required}
				prev.doc, prev.deprecated = annotations(p.val)
				prev.doc = joinNote(prev.doc, fc.note)
				c.presence(prev, p.val, p.at)
			case !prev.base.same(fc.t) || prev.nullable != fc.nullable:
				c.p.add(p.at, "property %q is declared here as %s and at %s as %s: the allOf members disagree", p.key, fc.t.describe(fc.nullable), prev.origin, prev.base.describe(prev.nullable))
				ok = false
			default:
				if doc, dep := annotations(p.val); doc != "" {
					prev.doc, prev.deprecated = joinNote(doc, fc.note), dep
				}
			}
			continue
		}
		f := &field{name: fname, jsonName: p.key, origin: p.at, schema: p.val, typ: fc.t, base: fc.t, nullable: fc.nullable, required: spec.required[p.key]}
		f.doc, f.deprecated = annotations(p.val)
		f.doc = joinNote(f.doc, fc.note)
		c.presence(f, p.val, p.at)
		f.consts = c.stringConsts(p.val, p.at)
		if len(f.consts) == 1 && f.required && f.typ.kind == refBasic && f.typ.basic == "string" && !f.typ.ptr {
			f.fill, f.constant = true, f.consts[0]
		}
		if d := p.val.get("default"); p.val.kind == kindObject && d != nil && !f.required {
			ok = c.setDefault(f, d, p.at.at("default")) && ok
		}
		byGoName[fname] = f
		nt.fields = append(nt.fields, f)
	}
	for _, f := range nt.fields {
		if g, clash := byGoName["Get"+f.name]; clash && f.def != "" {
			c.p.add(g.origin, "Go field name %s collides with the accessor generated for the default of %s; rename one in the config (renames: %q: \"Name\")", g.name, f.origin, g.origin.String())
			ok = false
		}
	}
	if g, clash := byGoName["Extra"]; clash && nt.extra != nil {
		c.p.add(g.origin, "Go field name Extra collides with the map that keeps %s's unknown members; rename the property's field in the config (renames: %q: \"Name\")", nt.name, g.origin.String())
		ok = false
	}
	return ok
}

// presence picks a field's Go type and omit option from whether the
// property is required and whether it may be null, so that what was sent
// is what is encoded again: absent stays absent, and null, "", 0, false,
// [] and {} stay as they were.
func (c *converter) presence(f *field, n *node, at loc) {
	switch shape := f.base.shape(); {
	case f.required && f.nullable:
		f.typ = f.base.pointer()
	case f.required:
		f.fillEmpty = shape == shapeSlice || shape == shapeMap
	case f.nullable && shape != shapeRaw:
		// Absent, null and a value are three states.
		f.typ = f.base.nullable()
		f.omit = "omitzero"
	case shape == shapeString && (c.cfg.OmitEmptyStrings || c.forbidsEmptyString(f.base, n, at, 0)):
		// "" is not a valid value, so it can stand for absent.
		f.omit = "omitempty"
	case shape == shapeString || shape == shapeScalar || shape == shapeStruct:
		f.typ = f.base.pointer()
		f.omit = "omitempty"
	default: // slices, maps and raw JSON: nil is absent, empty is kept
		f.omit = "omitzero"
	}
}

// forbidsEmptyString reports whether the schema rules out "": an enum
// without it, a non-empty const, or minLength of at least 1.
func (c *converter) forbidsEmptyString(t typeRef, n *node, at loc, depth int) bool {
	if !t.allowsEmptyString() {
		return true
	}
	if n == nil || n.kind != kindObject || depth > 8 {
		return false
	}
	if k := n.get("const"); k != nil && k.kind == kindString && k.str != "" {
		return true
	}
	if m := n.get("minLength"); m != nil {
		if v, ok := m.int64(); ok && v >= 1 {
			return true
		}
	}
	if n.get("$ref") != nil {
		if target, tat, ok := c.refNode(n, at); ok {
			return c.forbidsEmptyString(t, target, tat, depth+1)
		}
	}
	return false
}

// setDefault records the default of an optional property for its Get
// accessor, after checking that it fits the field's Go type.
func (c *converter) setDefault(f *field, d *node, at loc) bool {
	if f.typ.kind == refNullable {
		return true // absent and null differ; a default would blur them
	}
	base := f.base
	var want string
	switch base.shape() {
	case shapeString:
		if d.kind != kindString {
			want = "a string"
		}
	case shapeScalar:
		switch underlyingBasic(base) {
		case "bool":
			if d.kind != kindBool {
				want = "a boolean"
			}
		case "int64":
			if _, isInt := d.int64(); !isInt {
				want = "an integer"
			}
		default:
			if d.kind != kindNumber {
				want = "a number"
			}
		}
	case shapeSlice:
		if d.kind != kindArray {
			want = "an array"
		}
	case shapeMap:
		if d.kind != kindObject {
			want = "an object"
		}
	case shapeStruct:
		if base.kind == refNamed && base.named.kind == namedStruct && d.kind != kindObject {
			want = "an object"
		}
	}
	if want != "" {
		c.p.add(at, "default %s does not fit the property's type: want %s", nodeJSON(d), want)
		return false
	}
	f.def = nodeJSON(d)
	f.defNode = d
	return true
}

// validTagName reports whether encoding/json accepts name in a struct tag;
// it silently falls back to the Go field name otherwise.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", r) {
			return false
		}
	}
	return true
}

// annotationKeywords change no value a schema accepts.
var annotationKeywords = set("title", "description", "deprecated", "default", "examples", "$comment", "readOnly", "writeOnly")

// shapeJSON renders a schema without its annotations, to tell whether two
// schemas accept the same values.
func shapeJSON(n *node) string {
	if n == nil {
		return ""
	}
	if n.kind != kindObject {
		return nodeJSON(n)
	}
	cp := *n
	cp.members = nil
	for _, m := range n.members {
		if annotationKeywords[m.key] {
			continue
		}
		v := m.val
		switch m.key {
		case "properties", "$defs", "definitions", "patternProperties", "dependentSchemas":
			if v.kind == kindObject {
				sub := *v
				sub.members = nil
				for _, p := range v.members {
					sub.members = append(sub.members, member{p.key, &node{kind: kindString, str: shapeJSON(p.val)}})
				}
				v = &sub
			}
		case "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames":
			v = &node{kind: kindString, str: shapeJSON(v)}
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if v.kind == kindArray {
				sub := *v
				sub.items = nil
				for _, it := range v.items {
					sub.items = append(sub.items, &node{kind: kindString, str: shapeJSON(it)})
				}
				v = &sub
			}
		}
		cp.members = append(cp.members, member{m.key, v})
	}
	return nodeJSON(&cp)
}

// narrows reports whether the type of a later allOf declaration of a
// property holds only values the earlier one's does, where the earlier one
// is no struct (whose members the later type might not keep): string →
// enum, number → integer, a union of JSON kinds → one of them.
func (c *converter) narrows(later conv, prev *field) bool {
	if later.nullable && !prev.nullable {
		return false
	}
	t := prev.base
	for t.kind == refNamed && !t.ptr && (t.named.kind == namedAlias || t.named.kind == namedDefined) && t.named.underlying.kind == refNamed {
		t = t.named.underlying
	}
	if t.kind == refNamed && (t.named.kind == namedStruct || t.named.kind == namedTuple) {
		return false
	}
	wide, narrow := c.kindsOf(t), c.kindsOf(later.t)
	if wide&kAny != 0 || narrow&kAny != 0 {
		return false
	}
	if wide&kNumber != 0 {
		wide |= kInteger
	}
	return narrow != 0 && narrow&^wide == 0
}
