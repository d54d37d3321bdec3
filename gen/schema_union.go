package gen

import (
	"fmt"
	"slices"
	"strings"
)

// union is the variant set of a union type, and how its codec tells the
// variants apart (filled by plan, once every type is converted).
type union struct {
	keyword  string // anyOf, oneOf or type
	variants []*variant
	iface    string // the sealed interface: <Union>Variant
	unknown  string // the variant that keeps anything else: Unknown<Union>
	marker   string // the interface's unexported method: is<Union>
	cases    []*unionCase
	state    int // planning state: 0 not yet, 1 in progress, 2 done
	// nullable is set when the schema allows null: the codec reads null
	// as a nil Value (and writes a nil Value as null), so the union needs
	// no pointer around it; only an optional property (absent, null or a
	// value) needs rpc.Nullable.
	nullable bool
}

// variant is one alternative of a union.
type variant struct {
	typ      *namedType // the Go type of the value; it gets the marker method
	origin   loc
	accessor string  // As<accessor>
	kinds    kindSet // the JSON kinds its values have
	tags     []string
	key      string // a required member only this variant has
	// keys are the required members that, all present, select this
	// variant, when no single key does (see unionCase.bySet).
	keys    []string
	wrapper bool // typ was declared only to carry the marker method
	// itemClasses are the first-byte classes of this array variant's
	// items, when array variants are told apart by them (unionCase.byItem).
	itemClasses []byte
	titled      bool // an inline variant named after its title
}

// unionCase dispatches the values of one JSON kind: on their first byte.
type unionCase struct {
	class    byte // '"' string, '0' number, 't' boolean, '{' object, '[' array
	variants []*variant
	// numbers with two variants: integers to integer, others to number
	integer, number *variant
	// objects with several variants: by the string value of tagProp, with
	// def taking objects without it; or, when tagProp is "", by the
	// presence of each variant's key.
	tagProp string
	def     *variant
	// bySet, when set, replaces the single keys: the variants in the
	// order their required sets are tried, larger sets first, so that a
	// value with every member of a larger set goes to its variant.
	bySet []*variant
	// byItem tells array variants apart by the class of their first item;
	// an empty array goes to the first variant.
	byItem bool
}

// kindSet is a set of JSON kinds.
type kindSet uint8

const (
	kString kindSet = 1 << iota
	kInteger
	kNumber // any number, integers included
	kBool
	kObject
	kArray
	kAny
)

// unionClasses are the first-byte classes, in dispatch order.
var unionClasses = []struct {
	class byte
	kinds kindSet
	word  string
}{
	{'"', kString, "strings"},
	{'0', kInteger | kNumber, "numbers"},
	{'t', kBool, "booleans"},
	{'{', kObject, "objects"},
	{'[', kArray, "arrays"},
}

// branch is one alternative of a union schema, before conversion.
type branch struct {
	n  *node
	at loc
}

// constraintOnly reports whether every schema of an anyOf/oneOf list only
// constrains (required, minimum…) without giving a type: then the list is a
// runtime check on the surrounding schema, not a union.
func constraintOnly(list *node) bool {
	if list.kind != kindArray || len(list.items) == 0 {
		return false
	}
	for _, it := range list.items {
		if it.kind == kindBool {
			continue
		}
		if it.kind != kindObject || typed(it) || it.get("allOf") != nil {
			return false
		}
	}
	return true
}

// isNullSchema reports whether a schema allows only null.
func isNullSchema(n *node) bool {
	if n.kind != kindObject {
		return false
	}
	if t := n.get("type"); t != nil {
		switch {
		case t.kind == kindString && t.str == "null":
		case t.kind == kindArray && len(t.items) == 1 && t.items[0].kind == kindString && t.items[0].str == "null":
		default:
			return false
		}
		return !typedBeside(n, "type")
	}
	if k := n.get("const"); k != nil && k.kind == kindNull {
		return !typedBeside(n, "const")
	}
	if e := n.get("enum"); e != nil && e.kind == kindArray && len(e.items) == 1 && e.items[0].kind == kindNull {
		return !typedBeside(n, "enum")
	}
	return false
}

// refsNull reports whether the schema n at `at` is a $ref (or a chain of
// them) to a schema that allows only null, such as a definition named
// notFound: as an alternative it makes the union nullable, as an inline
// null would.
func (c *converter) refsNull(n *node, at loc) bool {
	for range 32 { // a longer chain is a cycle, which the conversion reports
		if len(n.members) != 1 {
			return false // something beside the $ref shapes the value
		}
		target, tat, ok := c.refNode(n, at)
		if !ok || target.kind != kindObject {
			return false
		}
		if target.get("$ref") == nil {
			return isNullSchema(target)
		}
		n, at = target, tat
	}
	return false
}

func typedBeside(n *node, k string) bool {
	return typed(withoutKeyword(n, k))
}

// convertUnion maps anyOf and oneOf. handled is false when the list only
// constrains the surrounding schema.
func (c *converter) convertUnion(n *node, at loc, name string, into *namedType) (res conv, handled, ok bool) {
	kw := "anyOf"
	if n.get("oneOf") != nil {
		if n.get("anyOf") != nil {
			c.p.add(at.at("oneOf"), "anyOf and oneOf in one schema are not supported: nest one inside the other")
			return conv{t: raw}, true, false
		}
		kw = "oneOf"
	}
	list := n.get(kw)
	if list.kind != kindArray || len(list.items) == 0 {
		c.p.add(at.at(kw), "%s must be a non-empty list of schemas", kw)
		return conv{t: raw}, true, false
	}
	if constraintOnly(list) {
		return conv{}, false, true
	}
	if n.get("allOf") != nil {
		return conv{}, false, true // convertAllOf distributes the allOf over the variants
	}
	if rest := withoutKeyword(n, kw); rest.get("properties") != nil || rest.get("additionalProperties") != nil {
		// Shared properties beside the variants: each variant gets them.
		res, ok := c.distributeAllOf(n, at, name, into, []allOfPart{{n, at}}, 0)
		return res, true, ok
	}
	for _, m := range n.members {
		if shapingKeywords[m.key] && m.key != kw && m.key != "type" && m.key != "required" {
			c.p.add(at.at(m.key), "%s beside %s is not supported: move it into each variant", m.key, kw)
			return conv{t: raw}, true, false
		}
	}
	_, nullable, tok := c.typeList(n, at)
	if !tok {
		return conv{t: raw}, true, false
	}
	branches, bnull := c.expandBranches(list, at.at(kw))
	res, ok = c.buildUnion(n, at, name, into, kw, branches, nullable || bnull)
	return res, true, ok
}

// expandBranches lists the alternatives of an anyOf/oneOf list found at
// `at`: a null-only schema makes the union nullable, and an inline
// alternative that is itself a union (an anyOf, or a list of types) has its
// own alternatives listed in its place.
func (c *converter) expandBranches(list *node, at loc) (branches []branch, nullable bool) {
	for i, b := range list.items {
		bat := at.at(fmt.Sprint(i))
		if b.kind == kindObject && b.get("$ref") != nil && c.refsNull(b, bat) {
			nullable = true
			continue
		}
		if b.kind != kindObject || b.get("$ref") != nil {
			branches = append(branches, branch{b, bat})
			continue
		}
		if isNullSchema(b) {
			nullable = true
			continue
		}
		inner := ""
		for _, k := range []string{"anyOf", "oneOf"} {
			if u := b.get(k); u != nil && u.kind == kindArray && len(u.items) > 0 && !constraintOnly(u) && !typedBeside(b, k) {
				inner = k
			}
		}
		if inner != "" {
			sub, subNull := c.expandBranches(b.get(inner), bat.at(inner))
			branches = append(branches, sub...)
			nullable = nullable || subNull
			continue
		}
		if types, tnull := typeNames(b); len(types) > 1 && b.get("enum") == nil && b.get("const") == nil {
			branches = append(branches, typeBranches(b, bat, types)...)
			nullable = nullable || tnull
			continue
		}
		branches = append(branches, branch{b, bat})
	}
	return branches, nullable
}

// typeNames reads a type list without reporting problems: the JSON types
// other than null, and whether null is listed.
func typeNames(n *node) (types []string, nullable bool) {
	t := n.get("type")
	if t == nil || t.kind != kindArray {
		return nil, false
	}
	for _, it := range t.items {
		switch {
		case it.kind != kindString:
		case it.str == "null":
			nullable = true
		case !slices.Contains(types, it.str):
			types = append(types, it.str)
		}
	}
	return types, nullable
}

// convertTypeUnion maps a type list of several types (["string",
// "integer"]) to a union with one variant per type.
func (c *converter) convertTypeUnion(n *node, at loc, name string, into *namedType, types []string, nullable bool) (conv, bool) {
	if anyType(types) && len(n.members) > 0 && typedOnlyBy(n, "type") {
		// Every JSON type: any value, which raw JSON holds as it is.
		return conv{t: raw, nullable: nullable}, true
	}
	return c.buildUnion(n, at, name, into, "type", typeBranches(n, at, types), nullable)
}

// typeBranches splits a schema with a list of types into one schema per
// type, each located at its entry in the list.
func typeBranches(n *node, at loc, types []string) []branch {
	var branches []branch
	for i, t := range types {
		b := withoutKeyword(n, "type")
		b.members = append([]member{{key: "type", val: &node{kind: kindString, str: t}}}, b.members...)
		if t != "object" {
			b = dropKeywords(b, objectKeywords...)
		}
		if t != "array" {
			b = dropKeywords(b, "items", "prefixItems", "additionalItems")
		}
		// The synthetic branch is located at its entry in the type list.
		idx := i
		if tl := n.get("type"); tl != nil {
			for j, it := range tl.items {
				if it.kind == kindString && it.str == t {
					idx = j
				}
			}
		}
		branches = append(branches, branch{b, at.at("type", fmt.Sprint(idx))})
	}
	return branches
}

func dropKeywords(n *node, ks ...string) *node {
	for _, k := range ks {
		n = withoutKeyword(n, k)
	}
	return n
}

// buildUnion declares a union of the branches, converting each.
func (c *converter) buildUnion(n *node, at loc, name string, into *namedType, kw string, branches []branch, nullable bool) (conv, bool) {
	switch len(branches) {
	case 0:
		return conv{t: raw, note: "Always null."}, true
	case 1:
		// A single alternative is no union: collapse it.
		res, ok := c.convert(branches[0].n, branches[0].at, name, into, false)
		res.nullable = res.nullable || nullable
		return res, ok
	}
	nt, claimed := c.named(into, n, name, at)
	if !claimed {
		return conv{t: raw}, false
	}
	nt.kind = namedUnion
	u := &union{keyword: kw, iface: nt.name + "Variant", unknown: "Unknown" + nt.name, marker: "is" + nt.name}
	nt.union = u
	ok := c.claim(u.iface, at) && c.claim(u.unknown, at)
	names, nok := c.variantNames(nt.name, branches)
	ok = ok && nok
	for i, b := range branches {
		v, vnullable, vok := c.unionVariant(nt, b, names[i])
		ok = ok && vok
		nullable = nullable || vnullable
		if v == nil {
			continue
		}
		for _, prev := range u.variants {
			if prev.typ == v.typ {
				c.p.add(b.at, "%s lists %s twice (also at %s)", kw, v.typ.name, prev.origin)
				ok = false
			}
		}
		u.variants = append(u.variants, v)
	}
	u.nullable = nullable
	return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nullable}, ok
}

// unionVariant converts one branch to the named type that holds its values.
func (c *converter) unionVariant(u *namedType, b branch, name string) (*variant, bool, bool) {
	isRef := b.n.kind == kindObject && b.n.get("$ref") != nil
	if !isRef && name == "" {
		return nil, false, false // variantNames reported it
	}
	res, ok := c.convert(b.n, b.at, name, nil, false)
	if !ok {
		return nil, res.nullable, false
	}
	t := res.t
	for t.kind == refNamed && !t.ptr && t.named.kind == namedAlias && t.underlying().kind == refNamed {
		t = t.underlying()
	}
	if t.kind == refNamed && !t.ptr && t.named.kind != namedAlias {
		// A definition still being converted (it refers back to this
		// union) is checked when the union is planned.
		title := b.n.get("title")
		return &variant{typ: t.named, origin: b.at, titled: !isRef && title != nil && title.kind == kindString}, res.nullable, true
	}
	// A Go type without a name of its own (string, []T, a config type)
	// gets one, to carry the marker method.
	if isRef {
		name = u.name + c.refTargetName(b.n.get("$ref"), b.at, res.t)
	}
	wrapper, claimed := c.named(nil, b.n, name, b.at)
	if !claimed {
		return nil, res.nullable, false
	}
	wrapper.kind = namedDefined
	wrapper.underlying = res.t
	if wrapper.doc == "" {
		wrapper.doc = fmt.Sprintf("%s is the %s variant of %s.", wrapper.name, res.t.describe(false), u.name)
	}
	wrapper.note = res.note
	return &variant{typ: wrapper, origin: b.at, wrapper: true}, res.nullable, true
}

// underlying returns the type an alias names.
func (t typeRef) underlying() typeRef { return t.named.underlying }

// typeWords name the variants that are plain JSON types.
var typeWords = map[string]string{"string": "String", "integer": "Integer", "number": "Number", "boolean": "Boolean", "array": "Array"}

// refTargetName names what the $ref of the schema at `at` led to, whose Go
// type is t: the named type's name, or, when the target made none (a $ref
// to a string property inside a definition takes the property's own type),
// the name pointerConv gives such a target when it needs one.
func (c *converter) refTargetName(ref *node, at loc, t typeRef) string {
	if t.kind == refNamed {
		return t.named.name
	}
	tgt, _ := c.l.resolve(at.at("$ref"), ref.str, c.p) // resolved once already, by convert
	return c.pointerName(tgt)
}

// variantNames proposes a Go name for each inline branch (refs are named by
// their target): the union's name followed by the branch's const property
// value (ContentBlock + "text" → ContentBlockText), its JSON type
// (…String), the required member no other branch has, or Object for the
// only object. A branch none of these name is an error asking for a
// rename.
func (c *converter) variantNames(unionName string, branches []branch) ([]string, bool) {
	names := make([]string, len(branches))
	ok := true
	objects := 0
	for _, b := range branches {
		if b.n.kind == kindObject && b.n.get("$ref") == nil && branchType(b.n) == "object" {
			objects++
		}
	}
	for i, b := range branches {
		if b.n.kind != kindObject || b.n.get("$ref") != nil {
			continue
		}
		if r := c.cfg.Renames[b.at.String()]; r != "" {
			names[i] = r
			continue
		}
		suffix := ""
		typ := branchType(b.n)
		if t := b.n.get("title"); t != nil && t.kind == kindString {
			suffix = c.exportedName(t.str) // the author's name for it
		}
		if props := b.n.get("properties"); suffix == "" && props != nil && props.kind == kindObject {
			for _, m := range props.members {
				if consts := c.stringConsts(m.val, b.at.at("properties", m.key)); len(consts) == 1 {
					suffix = c.exportedName(consts[0])
					break
				}
			}
		}
		if suffix == "" && typeWords[typ] != "" {
			suffix = typeWords[typ]
		}
		if suffix == "" && typ == "object" {
			if key := uniqueRequired(b.n, i, branches); key != "" {
				suffix = c.exportedName(key)
			} else if objects == 1 {
				suffix = "Object"
			}
		}
		if suffix == "" {
			c.p.add(b.at, "cannot name this variant of %s: give it a const property, or name it in the config (renames: %q: \"Name\")", unionName, b.at.String())
			ok = false
			continue
		}
		names[i] = unionName + suffix
	}
	return names, ok
}

// branchType is the one JSON type an inline branch has ("" when it has
// none or several): from type, enum, const or its object keywords.
func branchType(n *node) string {
	if t := n.get("type"); t != nil {
		if t.kind == kindString {
			return t.str
		}
		var types []string
		for _, it := range t.items {
			if it.kind == kindString && it.str != "null" {
				types = append(types, it.str)
			}
		}
		if len(types) == 1 {
			return types[0]
		}
		return ""
	}
	kind := func(v *node) string {
		switch v.kind {
		case kindString:
			return "string"
		case kindBool:
			return "boolean"
		case kindNumber:
			return "number"
		case kindArray:
			return "array"
		case kindObject:
			return "object"
		}
		return ""
	}
	if k := n.get("const"); k != nil {
		return kind(k)
	}
	if e := n.get("enum"); e != nil && e.kind == kindArray {
		out := ""
		for _, v := range e.items {
			if v.kind == kindNull {
				continue
			}
			if k := kind(v); out == "" || out == k {
				out = k
			} else {
				return ""
			}
		}
		return out
	}
	if isObjectish(n) {
		return "object"
	}
	if n.get("items") != nil || n.get("prefixItems") != nil {
		return "array"
	}
	return ""
}

// uniqueRequired returns the first required member of branch i that no
// other inline branch declares.
func uniqueRequired(n *node, i int, branches []branch) string {
	r := n.get("required")
	if r == nil || r.kind != kindArray {
		return ""
	}
	for _, it := range r.items {
		if it.kind != kindString {
			continue
		}
		unique := true
		for j, o := range branches {
			if j == i || o.n.kind != kindObject {
				continue
			}
			if props := o.n.get("properties"); props != nil && props.get(it.str) != nil {
				unique = false
			}
		}
		if unique {
			return it.str
		}
	}
	return ""
}

// kindsOf returns the JSON kinds the values of a Go type have. A type
// that holds itself (a union among its own variants, a name defined as
// itself) may be any value as far as its kinds tell: kAny, so that the
// union planning it reports it instead of recursing without end.
func (c *converter) kindsOf(t typeRef) kindSet {
	return c.kindsWithin(t, nil)
}

// kindsWithin is kindsOf below the named types on the path to t.
func (c *converter) kindsWithin(t typeRef, path []*namedType) kindSet {
	switch t.kind {
	case refBasic:
		switch t.basic {
		case "string":
			return kString
		case "int64":
			return kInteger
		case "float64":
			return kNumber
		case "bool":
			return kBool
		}
	case refSlice:
		return kArray
	case refMap:
		return kObject
	case refNullable:
		return c.kindsWithin(*t.elem, path)
	case refNamed:
		nt := t.named
		switch nt.kind {
		case namedStruct:
			return kObject
		case namedTuple:
			return kArray
		case namedEnum:
			return kString
		}
		if slices.Contains(path, nt) {
			return kAny
		}
		path = append(path, nt)
		switch nt.kind {
		case namedDefined, namedAlias:
			return c.kindsWithin(nt.underlying, path)
		case namedUnion:
			if nt.union.state == 1 {
				return kAny // a union inside itself: reported by plan
			}
			var ks kindSet
			for _, v := range nt.union.variants {
				ks |= c.kindsWithin(typeRef{kind: refNamed, named: v.typ}, path)
			}
			return ks
		}
	}
	return kAny
}

// planUnions decides, for every union, how its codec tells the variants
// apart. A union where nothing safe does is an error: the generator never
// tries the variants one after the other.
func (c *converter) planUnions() {
	// A copy: planning may drop the wrapper types of a collapsed union.
	for _, nt := range slices.Clone(c.types) {
		if nt.kind == namedUnion {
			c.plan(nt)
		}
	}
}

func (c *converter) plan(nt *namedType) {
	u := nt.union
	if u.state != 0 {
		if u.state == 1 {
			c.p.add(nt.origin, "union %s is a variant of itself", nt.name)
		}
		return
	}
	u.state = 1
	defer func() { u.state = 2 }()
	fail := func(format string, args ...any) {
		if c.l.describing {
			return // no Go type is made for a description
		}
		c.p.add(nt.origin, "cannot tell the variants of %s apart: %s; map it to raw JSON in the config (types: %q: \"encoding/json.RawMessage\"), or change the schema", nt.name, fmt.Sprintf(format, args...), nt.origin.String())
	}
	for _, v := range u.variants {
		for v.typ.kind == namedAlias && v.typ.underlying.kind == refNamed && !v.typ.underlying.ptr {
			v.typ = v.typ.underlying.named // a definition that turned out to be an alias
		}
		if v.typ.kind == namedAlias || v.typ.kind == namedPending {
			fail("%s (%s) has no Go type of its own to carry the variant", v.typ.name, v.origin)
			return
		}
		if v.typ.kind == namedUnion {
			c.plan(v.typ)
			if v.typ.union.state == 1 {
				return // a union among its own variants: plan reported it
			}
		}
		v.kinds = c.kindsOf(typeRef{kind: refNamed, named: v.typ})
		if v.kinds&kAny != 0 {
			fail("%s (%s) may be any JSON value", v.typ.name, v.origin)
			return
		}
	}
	if c.collapseScalar(nt) {
		return
	}
	c.mergeStringForms(nt)
	for _, cl := range unionClasses {
		uc := &unionCase{class: cl.class}
		for _, v := range u.variants {
			if v.kinds&cl.kinds != 0 {
				uc.variants = append(uc.variants, v)
			}
		}
		switch {
		case len(uc.variants) == 0:
			continue
		case len(uc.variants) == 1:
		case cl.class == '0' && len(uc.variants) == 2:
			a, b := uc.variants[0], uc.variants[1]
			if a.kinds&kNumber != 0 {
				a, b = b, a
			}
			if a.kinds&kNumber != 0 || b.kinds&kNumber == 0 {
				fail("%s and %s are both integers", a.typ.name, b.typ.name)
				return
			}
			uc.integer, uc.number = a, b
		case cl.class == '{':
			if reason := c.objectDispatch(uc); reason != "" {
				fail("%s", reason)
				return
			}
		case cl.class == '[':
			if reason := c.arrayDispatch(uc); reason != "" {
				fail("%s", reason)
				return
			}
		default:
			var names []string
			for _, v := range uc.variants {
				names = append(names, v.typ.name)
			}
			fail("%s are all %s", strings.Join(names, ", "), cl.word)
			return
		}
		u.cases = append(u.cases, uc)
	}
	c.nameAccessors(nt)
}

// objectDispatch tells object variants apart: by a property whose const
// (or enum) values differ between them, or else by a required member each
// has and the others do not declare. It returns why neither works.
func (c *converter) objectDispatch(uc *unionCase) string {
	var structs [][]*field
	var names []string
	for _, v := range uc.variants {
		st := structOf(v.typ)
		if st == nil {
			return fmt.Sprintf("%s is an object without properties, like other variants", v.typ.name)
		}
		structs = append(structs, st.fields)
		names = append(names, v.typ.name)
	}
	find := func(fs []*field, name string) *field {
		for _, f := range fs {
			if f.jsonName == name {
				return f
			}
		}
		return nil
	}
candidates:
	for _, cand := range structs[0] {
		if len(cand.consts) == 0 {
			continue
		}
		seen := map[string]bool{}
		var def *variant
		for i, v := range uc.variants {
			f := find(structs[i], cand.jsonName)
			if f == nil || len(f.consts) == 0 {
				continue candidates
			}
			for _, t := range f.consts {
				if seen[t] {
					continue candidates
				}
				seen[t] = true
			}
			if !f.required {
				if def != nil {
					continue candidates // two variants may leave it out
				}
				def = v
			}
		}
		uc.tagProp, uc.def = cand.jsonName, def
		for i, v := range uc.variants {
			v.tags = find(structs[i], cand.jsonName).consts
		}
		return ""
	}
	for i, v := range uc.variants {
		for _, f := range structs[i] {
			if !f.required {
				continue
			}
			unique := true
			for j := range uc.variants {
				if j != i && find(structs[j], f.jsonName) != nil {
					unique = false
				}
			}
			if unique {
				v.key = f.jsonName
				break
			}
		}
		if v.key == "" {
			if uc.def != nil {
				return c.requiredSetDispatch(uc, structs, names)
			}
			uc.def = v // takes the objects with none of the other variants' keys
		}
	}
	return ""
}

// requiredSetDispatch tells object variants apart by the set of members
// each requires, when no single member does: a value goes to the variant
// with the largest required set it has every member of. Two variants that
// require the same set cannot be told apart; at most one may require
// nothing (it takes the rest). It returns why it cannot work, or "".
func (c *converter) requiredSetDispatch(uc *unionCase, structs [][]*field, names []string) string {
	uc.def = nil
	seen := map[string]*variant{}
	for i, v := range uc.variants {
		v.key = ""
		v.keys = nil
		for _, f := range structs[i] {
			if f.required {
				v.keys = append(v.keys, f.jsonName)
			}
		}
		slices.Sort(v.keys)
		set := strings.Join(v.keys, "\x00")
		if prev, dup := seen[set]; dup {
			return fmt.Sprintf("the object variants %s share no property with distinct const values, and %s and %s require the same members (%s)", strings.Join(names, ", "), prev.typ.name, v.typ.name, strings.Join(v.keys, ", "))
		}
		seen[set] = v
		if len(v.keys) == 0 {
			uc.def = v
			continue
		}
		uc.bySet = append(uc.bySet, v)
	}
	slices.SortStableFunc(uc.bySet, func(a, b *variant) int { return len(b.keys) - len(a.keys) })
	return ""
}

// structOf returns the struct a variant's type is, seeing through names.
func structOf(nt *namedType) *namedType {
	for nt != nil && (nt.kind == namedDefined || nt.kind == namedAlias) && nt.underlying.kind == refNamed {
		nt = nt.underlying.named
	}
	if nt == nil || nt.kind != namedStruct {
		return nil
	}
	return nt
}

// nameAccessors names each variant's As method: after its one tag value
// when it has one (AsText), else after its type, without the union's name
// in front (ContentBlockImage → AsImage).
func (c *converter) nameAccessors(nt *namedType) {
	u := nt.union
	used := map[string]bool{"Value": true}
	for _, v := range u.variants {
		name := ""
		if len(v.tags) == 1 && !v.titled {
			name = c.exportedName(v.tags[0])
		}
		if name == "" {
			name = strings.TrimPrefix(v.typ.name, nt.name)
			if name == "" || !startsUpper(name) {
				name = v.typ.name
			}
		}
		if used[name] {
			name = v.typ.name
		}
		used[name] = true
		v.accessor = name
	}
}

func startsUpper(s string) bool {
	return s != "" && s[0] >= 'A' && s[0] <= 'Z'
}

// collapseScalar turns a union whose variants are all strings (or all
// integers, or all booleans) into a defined type of that scalar: every
// variant decodes to the same Go value, so nothing is lost, and which form a
// value takes (a hex number or a tag, say) is the runtime validator's
// business. A union that allows null keeps its box, which is what holds the
// null. It reports whether it collapsed nt.
func (c *converter) collapseScalar(nt *namedType) bool {
	u := nt.union
	if u.nullable || len(u.variants) < 2 {
		return false
	}
	scalars := []struct {
		kinds  kindSet
		goType string
		word   string
	}{{kString, "string", "string"}, {kInteger, "int64", "integer"}, {kBool, "bool", "boolean"}}
	for _, sc := range scalars {
		all := true
		var names []string
		inline := 0
		for _, v := range u.variants {
			if v.kinds&^sc.kinds != 0 {
				all = false
				break
			}
			if v.wrapper {
				inline++
			} else {
				names = append(names, v.typ.name)
			}
		}
		switch inline {
		case 0:
		case 1:
			names = append(names, "1 inline form")
		default:
			names = append(names, fmt.Sprintf("%d inline forms", inline))
		}
		if !all {
			continue
		}
		nt.kind = namedDefined
		nt.union = nil
		nt.underlying = basic(sc.goType)
		nt.note = joinNote(nt.note, fmt.Sprintf("Every form the schema allows (%s) is a JSON %s, so the Go type is %s; the runtime validator checks which form a value takes.", strings.Join(names, ", "), sc.word, sc.goType))
		for _, v := range u.variants {
			if v.wrapper { // nothing refers to it: it only carried the marker
				c.types = slices.DeleteFunc(c.types, func(t *namedType) bool { return t == v.typ })
				delete(c.names, v.typ.name)
			}
		}
		return true
	}
	return false
}

// arrayDispatch tells array variants apart by the JSON kind of their items
// ([]string and []int64): each variant's items must fall in first-byte
// classes no other variant's items do. It returns why it cannot, or "".
func (c *converter) arrayDispatch(uc *unionCase) string {
	owner := map[byte]*variant{}
	for _, v := range uc.variants {
		kinds, ok := c.itemKinds(v.typ)
		if !ok || kinds&kAny != 0 {
			return fmt.Sprintf("%s is an array whose items may be any JSON value", v.typ.name)
		}
		for _, cl := range unionClasses {
			if kinds&cl.kinds == 0 {
				continue
			}
			if prev := owner[cl.class]; prev != nil {
				return fmt.Sprintf("the array variants %s and %s both hold %s", prev.typ.name, v.typ.name, cl.word)
			}
			owner[cl.class] = v
			v.itemClasses = append(v.itemClasses, cl.class)
		}
	}
	uc.byItem = true
	return ""
}

// itemKinds returns the JSON kinds of the items of an array type (a slice,
// or a tuple's first position), seeing through names.
func (c *converter) itemKinds(nt *namedType) (kindSet, bool) {
	for (nt.kind == namedDefined || nt.kind == namedAlias) && nt.underlying.kind == refNamed {
		nt = nt.underlying.named
	}
	switch {
	case (nt.kind == namedDefined || nt.kind == namedAlias) && nt.underlying.kind == refSlice:
		return c.kindsOf(*nt.underlying.elem), true
	case nt.kind == namedTuple && len(nt.fields) > 0:
		return c.kindsOf(nt.fields[0].base), true
	}
	return 0, false
}

// anyType reports whether a type list names every JSON type but null
// (integer may be left out: number includes it).
func anyType(types []string) bool {
	for _, t := range []string{"string", "number", "boolean", "object", "array"} {
		if !slices.Contains(types, t) {
			return false
		}
	}
	return true
}

// typedOnlyBy reports whether k is the only shaping keyword of n.
func typedOnlyBy(n *node, k string) bool {
	for _, m := range n.members {
		if shapingKeywords[m.key] && m.key != k {
			return false
		}
	}
	return true
}

// mergeStringForms replaces the variants of a union that are all plain
// strings (a block number, a tag and a hash beside an object), which nothing
// in the JSON tells apart, by one variant of Go type string, <Union>String:
// every form decodes to the same Go value, so nothing is lost, and which
// form a value takes is the runtime validator's business, as for a union
// whose forms are all strings (collapseScalar).
func (c *converter) mergeStringForms(nt *namedType) {
	u := nt.union
	var forms []*variant
	for _, v := range u.variants {
		if v.kinds == kString {
			forms = append(forms, v)
		}
	}
	if len(forms) < 2 {
		return
	}
	name := nt.name + "String"
	if _, taken := c.names[name]; taken {
		return // the union keeps its variants, and says it cannot tell them apart
	}
	c.names[name] = nt.origin
	var names []string
	for _, v := range forms {
		names = append(names, v.typ.name)
		if v.wrapper { // nothing refers to it: it only carried the marker
			c.types = slices.DeleteFunc(c.types, func(t *namedType) bool { return t == v.typ })
			delete(c.names, v.typ.name)
		}
	}
	merged := &namedType{name: name, origin: nt.origin, kind: namedDefined, underlying: basic("string"),
		doc: fmt.Sprintf("%s holds the string forms of %s (%s): nothing in the JSON tells them apart, so the Go type is string; the runtime validator checks which form a value takes.", name, nt.name, strings.Join(names, ", "))}
	c.types = append(c.types, merged)
	v := &variant{typ: merged, origin: forms[0].origin, kinds: kString, wrapper: true}
	u.variants = slices.DeleteFunc(u.variants, func(x *variant) bool { return slices.Contains(forms, x) })
	u.variants = append([]*variant{v}, u.variants...)
}
