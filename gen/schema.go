package gen

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"
)

// Keywords by the effect they have on the generated Go type.
var (
	// shapingKeywords decide the Go type.
	shapingKeywords = set("$ref", "type", "properties", "required", "additionalProperties", "items",
		"enum", "const", "anyOf", "oneOf", "allOf", "prefixItems", "additionalItems")
	// runtimeKeywords are annotations or are checked by the runtime
	// validator only; they do not change the Go type.
	runtimeKeywords = set("id", "title", "description", "deprecated", "default", "examples", "$comment",
		"readOnly", "writeOnly", "format", "minLength", "maxLength", "pattern",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"minItems", "maxItems", "uniqueItems", "minContains", "maxContains",
		"minProperties", "maxProperties", "dependentRequired", "contentEncoding", "contentMediaType",
		"$anchor", "$dynamicAnchor")
	// constraintKeywords restrict values in ways a Go type cannot say; the
	// runtime validator checks them, and the generated doc comment says so.
	constraintKeywords = set("not", "if", "then", "else", "dependentSchemas", "dependencies",
		"unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames",
		"patternProperties", "contentSchema")
	// unsupportedKeywords are valid JSON Schema that this generator cannot
	// map to Go; they fail generation rather than produce a wrong type.
	unsupportedKeywords = set("$dynamicRef", "$recursiveRef", "$recursiveAnchor", "$vocabulary")
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
// much as it can. A front end calls namedAt and convert for what it needs,
// then finish once.
type converter struct {
	l        *loader
	p        *problems
	cfg      *Config
	namer    *namer
	byTarget map[string]*namedType // by document rel + "#" + pointer
	names    map[string]loc        // every exported Go name, by where it came from
	types    []*namedType
	// origins locates property schemas written somewhere other than under
	// their object's "properties": the content descriptors an OpenRPC
	// front end assembles into a params object.
	origins map[*node]loc
	// inline holds the conversion of each inline schema that declared a
	// type, by location, so that a schema reached twice (an allOf base and
	// the base itself) declares its types once.
	inline map[string]conv
	// merging holds the locations of the allOf schemas being flattened,
	// so that one reached again inside its own flattening is an error
	// instead of an endless expansion.
	merging map[string]bool
	// declared holds each inline type by the location of its schema, from
	// the moment it is declared, for $refs that point at it.
	declared map[string]*namedType
	// pointedAgain records the types declared for $ref targets inside
	// other schemas that were reached again while being converted, and so
	// must stay declared.
	pointedAgain map[*namedType]bool
	// used records the config renames and types that matched something.
	used map[string]bool
	// KeepExtras makes every struct whose schema does not mention
	// additionalProperties keep unknown members in an Extra map, so they
	// survive a decode and encode. A front end sets it for open schemas
	// that must round-trip (MCP).
	keepExtras bool
	// dedupe makes inline schemas written alike one Go type (shapes holds
	// them by document and JSON text); synthetic marks the schemas a front
	// end assembled, which are never shared.
	dedupe    bool
	shapes    map[string]conv
	synthetic map[*node]bool
	// stems holds the Go stems the methods' names give as written, which
	// destutter must not take from another method.
	stems map[string]bool
	// rootName, when set, names the type of the input document itself,
	// which is a schema (the JSON Schema front end).
	rootName string
	// finished is set by finish.
	finished bool
}

func newConverter(l *loader, p *problems, cfg *Config) *converter {
	if cfg == nil {
		cfg = &Config{}
	}
	return &converter{l: l, p: p, cfg: cfg, namer: newNamer(cfg.Initialisms),
		byTarget: map[string]*namedType{}, names: map[string]loc{}, inline: map[string]conv{}, used: map[string]bool{}, pointedAgain: map[*namedType]bool{}, declared: map[string]*namedType{}, origins: map[*node]loc{}, shapes: map[string]conv{}, synthetic: map[*node]bool{}, stems: map[string]bool{}}
}

// exportedName turns a schema name into an exported Go identifier with the
// config's initialisms; "" when it has no letters or digits.
func (c *converter) exportedName(s string) string { return c.namer.exported(s) }

// rename applies the config's renames to a Go name proposed for the schema
// at `at`: a rename keyed by the location wins over one keyed by the
// proposed name.
func (c *converter) rename(proposed string, at loc) string {
	if at.doc != nil {
		if r, ok := c.cfg.Renames[at.String()]; ok {
			c.used["renames\x00"+at.String()] = true
			return r
		}
	}
	if r, ok := c.cfg.Renames[proposed]; ok {
		c.used["renames\x00"+proposed] = true
		return r
	}
	return proposed
}

// claim reserves an exported Go name for the thing at `at`. Two schemas that
// want one name are an error: the generator never numbers names to make
// them unique.
func (c *converter) claim(name string, at loc) bool {
	if prev, ok := c.names[name]; ok {
		if c.l.describing {
			return false // Go names do not matter to a description
		}
		c.p.add(at, "Go name %s collides with the one generated for %s; give one of them another name in the config (renames: %q: \"NewName\")", name, prev, at.String())
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

// qualRef is the type expression of a type named in the config.
func qualRef(t goType) typeRef {
	if t.path == "" {
		switch t.name {
		case "string", "int64", "float64", "bool":
			return basic(t.name)
		}
	}
	return typeRef{kind: refQual, qual: t}
}

// linkRE matches TypeDoc's {@link Target} and {@link Target text} (also
// {@linkcode …}, {@linkplain …} and the "Target | text" form).
var linkRE = regexp.MustCompile(`\{@link(?:code|plain)?\s+([^\s|}]+)(?:\s*\|\s*|\s+)?([^}]*)\}`)

// cleanDoc strips TypeDoc link markup from a description, keeping the link
// text, or the target when there is none.
func cleanDoc(s string) string {
	return linkRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := linkRE.FindStringSubmatch(m)
		if text := strings.TrimSpace(sub[2]); text != "" {
			return text
		}
		return sub[1]
	})
}

// annotations reads a schema's description and deprecated flag.
func annotations(n *node) (doc string, deprecated bool) {
	if n == nil || n.kind != kindObject {
		return "", false
	}
	if d := n.get("description"); d != nil && d.kind == kindString {
		doc = cleanDoc(d.str)
	}
	if d := n.get("deprecated"); d != nil && d.kind == kindBool {
		deprecated = d.boolean
	}
	return doc, deprecated
}

// typeAnnotations reads the doc and deprecated flag of a schema that
// declares the Go type name: its description or, without one, its title,
// unless the title only spells the name or the end of it (Syncing status
// for SyncingStatus, legacy for the variant TxLegacy).
func (c *converter) typeAnnotations(n *node, name string) (doc string, deprecated bool) {
	doc, deprecated = annotations(n)
	if doc != "" || n == nil || n.kind != kindObject {
		return doc, deprecated
	}
	if t := n.get("title"); t != nil && t.kind == kindString && !strings.HasSuffix(strings.ToLower(name), strings.ToLower(c.exportedName(t.str))) {
		doc = strings.TrimSuffix(cleanDoc(t.str), ".") + "."
	}
	return doc, deprecated
}

// joinNote appends a paragraph to a doc text.
func joinNote(doc, note string) string {
	if note == "" {
		return doc
	}
	if doc == "" {
		return note
	}
	return doc + "\n\n" + note
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
	case t.ptr == "" && c.l.indexURL != nil && t.doc.url == c.l.indexURL.String() && c.rootName != "":
		defName = c.rootName // a JSON Schema document is itself a schema
	case t.ptr == "" && c.l.indexURL != nil && t.doc.url == c.l.indexURL.String():
		c.p.add(from, "$ref points at the whole index, which is not a schema: point at a $defs entry")
		return nil
	case t.ptr == "":
		defName = strings.TrimSuffix(path.Base(t.doc.rel), path.Ext(t.doc.rel))
	default:
		_, defName, _ = splitDefPointer(t.ptr) // an entry: see isEntry
	}
	n, ok := t.doc.root.lookup(t.ptr)
	if !ok {
		c.p.add(from, "$ref target %s#%s does not exist", t.doc.rel, t.ptr)
		return nil
	}
	origin := loc{t.doc, t.ptr}
	name := c.exportedName(defName)
	if name == "" {
		if name = c.rename("", origin); name == "" {
			c.p.add(origin, "the name %q gives no Go identifier; name it in the config (renames: %q: \"Name\")", defName, origin.String())
			return nil
		}
	}
	name = c.rename(name, origin)
	if nt := c.reexported(n, origin, name); nt != nil {
		c.byTarget[key] = nt
		return nt
	}
	c.claim(name, origin)
	nt := &namedType{name: name, origin: origin, nullable: peekNullable(n)}
	nt.doc, nt.deprecated = c.typeAnnotations(n, name)
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
		switch res.t.kind {
		case refRaw, refNamed, refQual, refNullable:
			// An alias keeps the methods of the type it names
			// (json.RawMessage's MarshalJSON, an enum's IsKnown).
			nt.kind = namedAlias
		}
		nt.underlying = res.t
	}
	nt.note = joinNote(nt.note, res.note)
	nt.nullable = nt.nullable || res.nullable
	return nt
}

// reexported returns the type of the definition that the entry n (at
// origin, to be named name) re-exports, or nil. An entry that is only a
// $ref to an entry of another place that gets the same Go name is how one
// document re-exports another's definition: it is that definition's type,
// where a type of its own would collide with it. A rename of either entry
// in the config gives two names again, and so an alias.
func (c *converter) reexported(n *node, origin loc, name string) *namedType {
	ref := n.get("$ref")
	if n.kind != kindObject || ref == nil || ref.kind != kindString {
		return nil
	}
	if origin.doc.dialect != draft07 {
		for _, m := range n.members {
			if m.key != "$ref" && shapingKeywords[m.key] {
				return nil
			}
		}
	}
	var quiet problems
	tgt, ok := c.l.resolve(origin.at("$ref"), ref.str, &quiet)
	if !ok || tgt.ptr == "" || !isEntry(tgt) || loc(tgt) == origin {
		return nil
	}
	_, defName, _ := splitDefPointer(tgt.ptr)
	if c.rename(c.exportedName(defName), loc(tgt)) != name {
		return nil
	}
	return c.namedAt(tgt, origin.at("$ref"))
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

// convert maps the schema n found at `at` to a Go type. A struct, enum,
// union or tuple it has to declare is called name; when into is non-nil (a
// definitions entry), that declaration fills into instead of a new type.
// docRoot is true when n is the top of a document, where $schema, $id and
// $defs may appear.
func (c *converter) convert(n *node, at loc, name string, into *namedType, docRoot bool) (conv, bool) {
	res, ok := c.convertAt(n, at, name, into, docRoot)
	if c.l.typeAt != nil && ok {
		c.l.typeAt[at.String()] = res.t
	}
	return res, ok
}

func (c *converter) convertAt(n *node, at loc, name string, into *namedType, docRoot bool) (conv, bool) {
	key := at.String()
	if gt, ok := c.cfg.Types[key]; ok {
		c.used["types\x00"+key] = true
		t, err := parseGoType(gt)
		if err != nil {
			c.p.add(at, "the config maps this schema to %q: %v", gt, err)
			return conv{t: raw}, false
		}
		return conv{t: qualRef(t), nullable: peekNullable(n)}, true
	}
	if res, ok := c.inline[key]; ok && into == nil {
		return res, true
	}
	if nt := c.byTarget[key]; nt != nil && into == nil {
		// A $ref into this schema declared its type first.
		c.pointedAgain[nt] = true
		return conv{t: typeRef{kind: refNamed, named: nt}, nullable: nt.nullable}, true
	}
	shape := ""
	if c.dedupe && into == nil && n.kind == kindObject && !c.synthetic[n] && !c.configured(at) {
		// An inline schema written the same way as one converted before
		// (lotus repeats each struct in every method) is the same type.
		shape = at.doc.rel + "\x00" + shapeJSON(n)
		if res, ok := c.shapes[shape]; ok {
			return res, true
		}
	}
	res, ok := c.convertSchema(n, at, name, into, docRoot)
	if n.kind == kindObject {
		res.note = joinNote(res.note, runtimeNote(n))
	}
	if into == nil && res.t.kind == refNamed && !res.t.ptr && res.t.named.origin == at {
		c.inline[key] = res
		if shape != "" && ok {
			c.shapes[shape] = res
		}
	}
	return res, ok
}

// configured reports whether the config renames or retypes the schema at
// `at` by its location, which makes it a type of its own.
func (c *converter) configured(at loc) bool {
	key := at.String()
	_, renamed := c.cfg.Renames[key]
	_, typed := c.cfg.Types[key]
	return renamed || typed
}

// runtimeNote is the doc line for constraints only the runtime checks.
func runtimeNote(n *node) string {
	var kws []string
	for _, m := range n.members {
		if constraintKeywords[m.key] {
			kws = append(kws, m.key)
		}
	}
	if len(kws) == 0 {
		return ""
	}
	return "The schema also constrains this value with " + strings.Join(kws, ", ") + ", which the runtime validator checks."
}

func (c *converter) convertSchema(n *node, at loc, name string, into *namedType, docRoot bool) (conv, bool) {
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
	if n.get("anyOf") != nil || n.get("oneOf") != nil {
		if res, handled, ok := c.convertUnion(n, at, name, into); handled {
			return res, ok
		}
	}
	if n.get("allOf") != nil {
		return c.convertAllOf(n, at, name, into)
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
		case n.get("items") != nil || n.get("prefixItems") != nil:
			typ = "array"
		case nullable:
			return conv{t: raw, note: "Always null."}, true
		default:
			return conv{t: raw}, true // unconstrained
		}
	case 1:
		typ = types[0]
	default:
		return c.convertTypeUnion(n, at, name, into, types, nullable)
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
		res, ok = c.convertArray(n, at, name, into)
	case "object":
		res, ok = c.convertObject(n, at, name, into)
	}
	res.nullable = nullable
	return res, ok
}

// checkKeywords rejects constructs that cannot be mapped, and warns of
// unknown keywords, which every draft reads as annotations but which may be
// typos that loosen the generated type.
func (c *converter) checkKeywords(n *node, at loc, docRoot bool) bool {
	ok := true
	draft7 := at.doc.dialect == draft07
	for _, m := range n.members {
		k := m.key
		switch {
		case shapingKeywords[k], constraintKeywords[k], strings.HasPrefix(k, "x-"):
		case runtimeKeywords[k]:
			ok = c.checkAnnotation(k, m.val, at.at(k)) && ok
		case documentKeywords[k] && docRoot:
		case k == "definitions" && docRoot && (draft7 || slices.Contains(at.doc.defsContainers(), "/definitions")):
		case k == "$defs" || k == "definitions":
			// Definitions nested in a schema are only containers: a
			// $ref reaches them by pointer, and they shape nothing here.
		case k == "$schema":
			// A dialect named inside a schema is read with the
			// document's; the runtime validator honours it.
		case documentKeywords[k]:
			c.p.add(at.at(k), "%s inside a schema is not supported: it would change where $refs resolve; move the schema into its own file", k)
			ok = false
		case unsupportedKeywords[k]:
			c.p.add(at.at(k), "%s is not supported", k)
			ok = false
		default:
			// Every draft reads a keyword it does not know as an
			// annotation, so it changes no type.
			c.l.warnOnce("keyword\x00"+k, at.at(k), "unknown keyword %s ignored (read as an annotation; extensions should start with x-)", k)
		}
	}
	return ok
}

func (c *converter) checkAnnotation(k string, v *node, at loc) bool {
	want := kindNull
	switch k {
	case "title", "description", "$comment", "format", "pattern", "$anchor", "$dynamicAnchor":
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
	if at.doc.dialect != draft07 {
		// Draft-07 ignores everything beside $ref; 2020-12 applies it.
		for _, m := range n.members {
			if m.key != "$ref" && shapingKeywords[m.key] {
				c.p.add(at.at(m.key), "%s beside $ref is not supported: move it into the referenced schema, or write allOf [{\"$ref\": …}, {…}]", m.key)
				return conv{t: raw}, false
			}
		}
	}
	return c.refConv(ref, at)
}

// refNode resolves the $ref of n (found at `at`) to the schema it names and
// that schema's location, without converting it.
func (c *converter) refNode(n *node, at loc) (*node, loc, bool) {
	ref := n.get("$ref")
	if ref == nil || ref.kind != kindString {
		return nil, loc{}, false
	}
	var quiet problems
	tgt, ok := c.l.resolve(at.at("$ref"), ref.str, &quiet)
	if !ok {
		return nil, loc{}, false
	}
	target, ok := tgt.doc.root.lookup(tgt.ptr)
	return target, loc{tgt.doc, tgt.ptr}, ok
}

// named returns into when the schema fills an already declared type, or a
// new named type for the schema n at at, declared under name (or the
// config's rename of it). It reports false when the name is taken (the
// collision is already recorded).
func (c *converter) named(into *namedType, n *node, name string, at loc) (*namedType, bool) {
	if into != nil {
		return into, true
	}
	name = c.rename(name, at)
	nt := &namedType{name: name, origin: at}
	nt.doc, nt.deprecated = c.typeAnnotations(n, name)
	if !c.claim(name, at) {
		return nil, false
	}
	c.types = append(c.types, nt)
	c.declared[at.String()] = nt
	return nt, true
}
