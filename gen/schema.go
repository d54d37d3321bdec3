package gen

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode"
)

// Keywords by the effect they have on the generated Go type.
var (
	// shapingKeywords decide the Go type.
	shapingKeywords = set("$ref", "type", "properties", "required", "additionalProperties", "items", "enum", "const")
	// runtimeKeywords are annotations or are checked by the runtime
	// validator only; they do not change the Go type.
	runtimeKeywords = set("title", "description", "deprecated", "default", "examples", "$comment",
		"readOnly", "writeOnly", "format", "minLength", "maxLength", "pattern",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "minContains", "maxContains",
		"minProperties", "maxProperties", "dependentRequired", "contentEncoding", "contentMediaType")
	// unsupportedKeywords are valid JSON Schema that this generator cannot
	// map to Go yet; they fail generation rather than produce a wrong type.
	unsupportedKeywords = set("anyOf", "oneOf", "allOf", "not", "if", "then", "else",
		"prefixItems", "patternProperties", "dependentSchemas", "contains", "propertyNames",
		"unevaluatedProperties", "unevaluatedItems", "contentSchema",
		"$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary")
	// documentKeywords belong at the top of a document only.
	documentKeywords = set("$schema", "$id", "$defs")
	// jsonTypes are the values of "type".
	jsonTypes = set("null", "boolean", "object", "array", "number", "integer", "string")
)

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// converter maps schemas to named Go types, following $refs across
// documents. It records every problem and carries on, so one run reports as
// much as it can.
type converter struct {
	l        *loader
	p        *problems
	cfg      *Config
	byTarget map[string]*namedType // by document rel + "#" + pointer
	names    map[string]loc        // every exported Go name, by where it came from
	types    []*namedType
	// origins locates property schemas written somewhere other than under
	// their object's "properties": the content descriptors an OpenRPC
	// front end assembles into a params object.
	origins map[*node]loc
}

func newConverter(l *loader, p *problems, cfg *Config) *converter {
	if cfg == nil {
		cfg = &Config{}
	}
	return &converter{l: l, p: p, cfg: cfg, byTarget: map[string]*namedType{}, names: map[string]loc{}}
}

// claim reserves an exported Go name for the thing at `at`. Two schemas that
// want one name are an error: the generator never numbers names to make
// them unique.
func (c *converter) claim(name string, at loc) bool {
	if prev, ok := c.names[name]; ok {
		c.p.add(at, "Go name %s collides with the one generated for %s", name, prev)
		return false
	}
	c.names[name] = at
	return true
}

// conv is the result of converting one schema.
type conv struct {
	t        typeRef
	nullable bool   // the schema also allows null
	note     string // what the Go type cannot say (e.g. the values of a numeric enum)
}

var raw = typeRef{kind: refRaw}

func basic(name string) typeRef { return typeRef{kind: refBasic, basic: name} }

// annotations reads a schema's description and deprecated flag.
func annotations(n *node) (doc string, deprecated bool) {
	if n == nil || n.kind != kindObject {
		return "", false
	}
	if d := n.get("description"); d != nil && d.kind == kindString {
		doc = d.str
	}
	if d := n.get("deprecated"); d != nil && d.kind == kindBool {
		deprecated = d.boolean
	}
	return doc, deprecated
}

// namedAt returns the named type for a $ref target, converting it on first
// use. Targets are entries of a definitions container (named after the
// entry: see defsContainers) and whole documents other than the index
// (named after the file).
func (c *converter) namedAt(t target, from loc) *namedType {
	key := t.doc.rel + "#" + t.ptr
	if nt, ok := c.byTarget[key]; ok {
		return nt
	}
	c.byTarget[key] = nil // a failure is reported once, at the first reference
	var defName string
	switch {
	case t.ptr == "" && t.doc.url == c.l.indexURL.String():
		c.p.add(from, "$ref points at the whole index, which is not a schema: point at a $defs entry")
		return nil
	case t.ptr == "":
		defName = strings.TrimSuffix(path.Base(t.doc.rel), path.Ext(t.doc.rel))
	default:
		container, entry, ok := splitDefPointer(t.ptr)
		if !ok || !slices.Contains(t.doc.defsContainers(), container) {
			c.p.add(from, "$ref target %s#%s is not supported: point at a %s entry or a whole document", t.doc.rel, t.ptr, strings.Join(t.doc.defsContainers(), " or "))
			return nil
		}
		defName = entry
	}
	n, ok := t.doc.root.lookup(t.ptr)
	if !ok {
		c.p.add(from, "$ref target %s#%s does not exist", t.doc.rel, t.ptr)
		return nil
	}
	origin := loc{t.doc, t.ptr}
	name := exportedName(defName)
	if name == "" {
		c.p.add(origin, "the name %q gives no Go identifier", defName)
		return nil
	}
	c.claim(name, origin)
	nt := &namedType{name: name, origin: origin, nullable: peekNullable(n)}
	nt.doc, nt.deprecated = annotations(n)
	c.byTarget[key] = nt
	c.types = append(c.types, nt)
	res, _ := c.convert(n, origin, name, nt, t.ptr == "")
	if res.t.kind == refNamed && res.t.named.kind == namedPending {
		// Only a chain of bare $refs comes back to a type still being
		// converted; anything else has a struct, slice or map in between.
		c.p.add(origin, "%s is a $ref to %s, which leads back to %s through $refs only, so it has no type", name, res.t.named.name, name)
		res.t = raw
	}
	if nt.kind == namedPending {
		nt.kind = namedDefined
		if res.t.kind == refRaw || res.t.kind == refNamed {
			// An alias keeps the methods of the type it names
			// (json.RawMessage's MarshalJSON, an enum's IsKnown).
			nt.kind = namedAlias
		}
		nt.underlying = res.t
		nt.note = res.note
		nt.nullable = nt.nullable || res.nullable
	}
	return nt
}

// peekNullable reports whether a schema's own type or enum allows null.
func peekNullable(n *node) bool {
	if n.kind != kindObject {
		return false
	}
	if t := n.get("type"); t != nil && t.kind == kindArray {
		for _, it := range t.items {
			if it.kind == kindString && it.str == "null" {
				return true
			}
		}
	}
	if e := n.get("enum"); e != nil && e.kind == kindArray {
		for _, it := range e.items {
			if it.kind == kindNull {
				return true
			}
		}
	}
	return false
}

// convert maps the schema n found at `at` to a Go type. A struct or enum it
// has to declare is called name; when into is non-nil (a $defs entry), that
// declaration fills into instead of a new type. docRoot is true when n is
// the top of a document, where $schema, $id and $defs may appear.
func (c *converter) convert(n *node, at loc, name string, into *namedType, docRoot bool) (conv, bool) {
	switch n.kind {
	case kindBool:
		if !n.boolean {
			c.p.add(at, "the false schema allows no value, so it has no Go type")
			return conv{t: raw}, false
		}
		return conv{t: raw}, true
	case kindObject:
	default:
		c.p.add(at, "a schema must be an object or a boolean, not %s", n.kind)
		return conv{t: raw}, false
	}
	if !c.checkKeywords(n, at, docRoot) {
		return conv{t: raw}, false
	}
	if ref := n.get("$ref"); ref != nil {
		return c.convertRef(n, ref, at)
	}
	types, nullable, ok := c.typeList(n, at)
	if !ok {
		return conv{t: raw}, false
	}
	if e := n.get("enum"); e != nil {
		return c.convertEnum(n, e, at, name, into, types, nullable)
	}
	if k := n.get("const"); k != nil {
		return c.convertConst(k, at, types, nullable)
	}
	var typ string
	switch len(types) {
	case 0:
		switch {
		case n.get("properties") != nil || n.get("additionalProperties") != nil || n.get("required") != nil:
			typ = "object"
		case n.get("items") != nil:
			typ = "array"
		default:
			return conv{t: raw, nullable: nullable}, true // unconstrained
		}
	case 1:
		typ = types[0]
	default:
		c.p.add(at.at("type"), "a value of several types (%s) is a union, which is not supported yet", strings.Join(types, ", "))
		return conv{t: raw}, false
	}
	var res conv
	switch typ {
	case "string":
		res.t = basic("string")
	case "integer":
		res.t = basic("int64")
	case "number":
		res.t = basic("float64")
	case "boolean":
		res.t = basic("bool")
	case "array":
		res, ok = c.convertArray(n, at, name)
	case "object":
		res, ok = c.convertObject(n, at, name, into)
	}
	res.nullable = nullable
	return res, ok
}

// checkKeywords rejects unknown keywords, which are most often typos that
// would otherwise silently loosen the generated type, and constructs that
// cannot be mapped yet.
func (c *converter) checkKeywords(n *node, at loc, docRoot bool) bool {
	ok := true
	for _, m := range n.members {
		k := m.key
		switch {
		case shapingKeywords[k], strings.HasPrefix(k, "x-"):
		case runtimeKeywords[k]:
			ok = c.checkAnnotation(k, m.val, at.at(k)) && ok
		case documentKeywords[k] && docRoot:
		case documentKeywords[k]:
			c.p.add(at.at(k), "%s inside a schema is not supported yet: put definitions in the document's top-level $defs", k)
			ok = false
		case unsupportedKeywords[k]:
			c.p.add(at.at(k), "%s is not supported yet", k)
			ok = false
		case k == "definitions":
			c.p.add(at.at(k), "unknown keyword definitions: Draft 2020-12 uses $defs")
			ok = false
		default:
			c.p.add(at.at(k), "unknown keyword %s (extensions must start with x-)", k)
			ok = false
		}
	}
	return ok
}

func (c *converter) checkAnnotation(k string, v *node, at loc) bool {
	want := kindNull
	switch k {
	case "title", "description", "$comment", "format", "pattern":
		want = kindString
	case "deprecated", "readOnly", "writeOnly", "uniqueItems":
		want = kindBool
	}
	if want != kindNull && v.kind != want {
		c.p.add(at, "%s must be a %s, not %s", k, want, v.kind)
		return false
	}
	return true
}

// typeList reads "type": the JSON types other than null, and whether null
// is allowed.
func (c *converter) typeList(n *node, at loc) (types []string, nullable bool, ok bool) {
	t := n.get("type")
	if t == nil {
		return nil, false, true
	}
	var list []*node
	switch t.kind {
	case kindString:
		list = []*node{t}
	case kindArray:
		list = t.items
		if len(list) == 0 {
			c.p.add(at.at("type"), "type must not be an empty list")
			return nil, false, false
		}
	default:
		c.p.add(at.at("type"), "type must be a string or a list of strings, not %s", t.kind)
		return nil, false, false
	}
	for i, it := range list {
		if it.kind != kindString || !jsonTypes[it.str] {
			p := at.at("type")
			if t.kind == kindArray {
				p = p.at(fmt.Sprint(i))
			}
			c.p.add(p, "unknown type %s: want one of null, boolean, object, array, number, integer, string", describe(it))
			return nil, false, false
		}
		if it.str == "null" {
			nullable = true
			continue
		}
		if slices.Contains(types, it.str) {
			c.p.add(at.at("type"), "type %s is listed twice", it.str)
			return nil, false, false
		}
		types = append(types, it.str)
	}
	if nullable && len(types) == 0 {
		c.p.add(at.at("type"), "a schema that allows only null is not supported yet")
		return nil, false, false
	}
	return types, nullable, true
}

// describe renders a small JSON value for an error message.
func describe(n *node) string {
	switch n.kind {
	case kindString:
		return fmt.Sprintf("%q", n.str)
	case kindNumber:
		return n.number.String()
	case kindBool:
		return fmt.Sprint(n.boolean)
	}
	return n.kind.String()
}

func (c *converter) convertRef(n, ref *node, at loc) (conv, bool) {
	if ref.kind != kindString {
		c.p.add(at.at("$ref"), "$ref must be a string, not %s", ref.kind)
		return conv{t: raw}, false
	}
	for _, m := range n.members {
		if m.key != "$ref" && shapingKeywords[m.key] {
			c.p.add(at.at(m.key), "%s beside $ref is not supported yet: move it into the referenced schema", m.key)
			return conv{t: raw}, false
		}
	}
	tgt, ok := c.l.resolve(at.at("$ref"), ref.str, c.p)
	if !ok {
		return conv{t: raw}, false
	}
	nt := c.namedAt(tgt, at.at("$ref"))
	if nt == nil {
		return conv{t: raw}, false
	}
	return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
}

func (c *converter) convertEnum(n, e *node, schemaAt loc, name string, into *namedType, types []string, nullable bool) (conv, bool) {
	at := schemaAt.at("enum")
	if e.kind != kindArray || len(e.items) == 0 {
		c.p.add(at, "enum must be a non-empty list")
		return conv{t: raw}, false
	}
	var values []*node
	kinds := map[nodeKind]bool{}
	for _, v := range e.items {
		if v.kind == kindNull {
			nullable = true
			continue
		}
		values = append(values, v)
		kinds[v.kind] = true
	}
	switch {
	case len(values) == 0:
		c.p.add(at, "an enum of only null is not supported yet")
		return conv{t: raw}, false
	case len(kinds) > 1:
		c.p.add(at, "an enum mixing value types is not supported yet")
		return conv{t: raw}, false
	}
	want := map[nodeKind]string{kindString: "string", kindNumber: "number", kindBool: "boolean"}[values[0].kind]
	if want == "" {
		c.p.add(at, "an enum of %s values is not supported yet", values[0].kind)
		return conv{t: raw}, false
	}
	if len(types) > 1 || len(types) == 1 && types[0] != want && !(want == "number" && types[0] == "integer") {
		c.p.add(at, "enum values are %ss but type says %s", want, strings.Join(types, ", "))
		return conv{t: raw}, false
	}
	if values[0].kind != kindString {
		var vals []string
		for _, v := range values {
			vals = append(vals, describe(v))
		}
		t := basic("bool")
		if want == "number" {
			t = basic("float64")
			if len(types) == 1 && types[0] == "integer" || allIntegers(values) && len(types) == 0 {
				t = basic("int64")
			}
		}
		return conv{t: t, nullable: nullable, note: "One of " + strings.Join(vals, ", ") + "."}, true
	}
	nt, claimed := c.named(into, n, name, schemaAt)
	if !claimed {
		return conv{t: raw}, false
	}
	nt.kind = namedEnum
	ok := true
	seen := map[string]int{}
	for i, v := range e.items {
		if v.kind == kindNull {
			continue
		}
		suffix := enumConstSuffix(v.str)
		if suffix == "" {
			c.p.add(at.at(fmt.Sprint(i)), "enum value %q gives no Go identifier", v.str)
			ok = false
			continue
		}
		if j, dup := seen[suffix]; dup {
			c.p.add(at.at(fmt.Sprint(i)), "enum value %q gives the constant name %s%s, like value %q at %s", v.str, nt.name, suffix, e.items[j].str, at.at(fmt.Sprint(j)))
			ok = false
			continue
		}
		seen[suffix] = i
		if !c.claim(nt.name+suffix, at.at(fmt.Sprint(i))) {
			ok = false
			continue
		}
		nt.enum = append(nt.enum, enumValue{name: nt.name + suffix, value: v.str})
	}
	return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nullable}, ok
}

func allIntegers(values []*node) bool {
	for _, v := range values {
		if _, ok := v.int64(); !ok {
			return false
		}
	}
	return true
}

func (c *converter) convertConst(k *node, at loc, types []string, nullable bool) (conv, bool) {
	note := "Always " + describe(k) + "."
	switch k.kind {
	case kindString:
		return conv{t: basic("string"), nullable: nullable, note: note}, true
	case kindBool:
		return conv{t: basic("bool"), nullable: nullable, note: note}, true
	case kindNumber:
		if _, isInt := k.int64(); isInt && !(len(types) == 1 && types[0] == "number") {
			return conv{t: basic("int64"), nullable: nullable, note: note}, true
		}
		return conv{t: basic("float64"), nullable: nullable, note: note}, true
	case kindNull:
		c.p.add(at.at("const"), "a const null is not supported yet")
		return conv{t: raw}, false
	}
	return conv{t: raw, nullable: nullable}, true
}

func (c *converter) convertArray(n *node, at loc, name string) (conv, bool) {
	items := n.get("items")
	if items == nil {
		return conv{t: typeRef{kind: refSlice, elem: &raw}}, true
	}
	if items.kind == kindBool && !items.boolean {
		c.p.add(at.at("items"), "items: false (an always-empty array) is not supported yet")
		return conv{t: raw}, false
	}
	elem, ok := c.convert(items, at.at("items"), name+"Item", nil, false)
	t := elem.t
	if elem.nullable {
		t = t.pointer()
	}
	return conv{t: typeRef{kind: refSlice, elem: &t}}, ok
}

func (c *converter) convertObject(n *node, at loc, name string, into *namedType) (conv, bool) {
	props := n.get("properties")
	if props != nil && props.kind != kindObject {
		c.p.add(at.at("properties"), "properties must be an object, not %s", props.kind)
		return conv{t: raw}, false
	}
	ap := n.get("additionalProperties")
	closed := ap != nil && ap.kind == kindBool && !ap.boolean
	apSchema := ap != nil && !(ap.kind == kindBool && ap.boolean) && !closed
	if props != nil && len(props.members) > 0 || closed {
		if apSchema {
			c.p.add(at.at("additionalProperties"), "an additionalProperties schema beside properties is not supported yet")
			return conv{t: raw}, false
		}
		return c.convertStruct(n, props, at, name, into)
	}
	if r := n.get("required"); r != nil && r.kind == kindArray && len(r.items) > 0 {
		c.p.add(at.at("required"), "required names properties, but the schema declares none")
		return conv{t: raw}, false
	}
	if !apSchema {
		return conv{t: typeRef{kind: refMap, elem: &raw}}, true
	}
	val, ok := c.convert(ap, at.at("additionalProperties"), name+"Value", nil, false)
	t := val.t
	if val.nullable {
		t = t.pointer()
	}
	return conv{t: typeRef{kind: refMap, elem: &t}}, ok
}

func (c *converter) convertStruct(n, props *node, at loc, name string, into *namedType) (conv, bool) {
	nt, claimed := c.named(into, n, name, at)
	if !claimed {
		return conv{t: raw}, false
	}
	nt.kind = namedStruct
	ok := true
	required := map[string]bool{}
	if r := n.get("required"); r != nil {
		if r.kind != kindArray {
			c.p.add(at.at("required"), "required must be a list of property names")
			return conv{t: typeRef{kind: refNamed, named: nt}}, false
		}
		for i, it := range r.items {
			switch {
			case it.kind != kindString:
				c.p.add(at.at("required", fmt.Sprint(i)), "required must list property names (strings)")
				ok = false
			case props == nil || props.get(it.str) == nil:
				c.p.add(at.at("required", fmt.Sprint(i)), "required property %q is not declared in properties", it.str)
				ok = false
			case required[it.str]:
				c.p.add(at.at("required", fmt.Sprint(i)), "required property %q is listed twice", it.str)
				ok = false
			}
			required[it.str] = true
		}
	}
	if props == nil {
		return conv{t: typeRef{kind: refNamed, named: nt}}, ok
	}
	fieldAt := map[string]loc{}
	for _, m := range props.members {
		pat, moved := c.origins[m.val]
		if !moved {
			pat = at.at("properties", m.key)
		}
		if !validTagName(m.key) {
			c.p.add(pat, "property name %q cannot be written in a Go struct tag, which is not supported yet", m.key)
			ok = false
			continue
		}
		fname := exportedName(m.key)
		if fname == "" {
			c.p.add(pat, "property name %q gives no Go identifier", m.key)
			ok = false
			continue
		}
		if prev, dup := fieldAt[fname]; dup {
			c.p.add(pat, "Go field name %s collides with the one generated for %s", fname, prev)
			ok = false
			continue
		}
		fieldAt[fname] = pat
		fc, fok := c.convert(m.val, pat, name+fname, nil, false)
		ok = ok && fok
		f := &field{name: fname, jsonName: m.key, origin: pat, typ: fc.t}
		f.doc, f.deprecated = annotations(m.val)
		if fc.note != "" {
			f.doc = strings.TrimSpace(f.doc + "\n\n" + fc.note)
		}
		switch shape := fc.t.shape(); {
		case required[m.key] && fc.nullable:
			f.typ = fc.t.pointer()
		case required[m.key]:
			f.fillEmpty = shape == shapeSlice || shape == shapeMap
		case fc.nullable && shape != shapeRaw:
			c.p.add(pat, "an optional property that may also be null is not supported yet: make it required, or drop null")
			ok = false
		case shape == shapeString && !fc.t.allowsEmptyString():
			f.omit = "omitempty"
		case shape == shapeString || shape == shapeScalar || shape == shapeStruct:
			f.typ = fc.t.pointer()
			f.omit = "omitempty"
		default: // slices, maps and raw JSON: nil is absent, empty is kept
			f.omit = "omitzero"
		}
		nt.fields = append(nt.fields, f)
	}
	return conv{t: typeRef{kind: refNamed, named: nt}}, ok
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

// named returns into when the schema fills an already declared type, or a
// new named type for the schema n at at, declared under name. It reports
// false when name is taken (the collision is already recorded).
func (c *converter) named(into *namedType, n *node, name string, at loc) (*namedType, bool) {
	if into != nil {
		return into, true
	}
	nt := &namedType{name: name, origin: at}
	nt.doc, nt.deprecated = annotations(n)
	if !c.claim(name, at) {
		return nil, false
	}
	c.types = append(c.types, nt)
	return nt, true
}
