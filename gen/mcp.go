package gen

import (
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
)

// Dialect URLs of the published MCP schemas.
const (
	draft07URL = "http://json-schema.org/draft-07/schema"
)

// mcpRootKeys are the members an MCP schema.json may have at its top: the
// published files have $schema and the definitions container only.
var mcpRootKeys = set("$schema", "$id", "$comment", "title", "description", "definitions", "$defs")

// mcpDefaultURLBase names an MCP schema at run time when neither the file
// ($id) nor the config (schemaURL) does: <base><version>/schema.json when
// the file's directory is named after a version (2025-06-18), else
// <base>schema.json. Nothing is ever fetched from it; it only has to be
// absolute and stable, so that the generated code and its error messages do
// not depend on where the file lies.
const mcpDefaultURLBase = "https://schemarpc.dev/mcp/"

// mcpVersionDir matches a directory named after an MCP version.
var mcpVersionDir = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// loadMCP is the front end for a published MCP schema.json, of any version,
// read unmodified: it generates a type for every definition, derives the
// method index by convention (mcp_index.go) and binds each method to the
// generated types of its params and result.
func loadMCP(l *loader, doc *document, cfg *Config) (*service, error) {
	if cfg == nil {
		cfg = &Config{}
	}
	var p problems
	root := loc{doc, ""}
	if doc.root.kind != kindObject {
		p.add(root, "an MCP schema.json must be a JSON object, not %s", doc.root.kind)
		return nil, p.err()
	}
	container := mcpLayout(doc, &p)
	if container == "" {
		return nil, p.err()
	}
	svc := &service{inputName: doc.rel, lock: true}
	version := ""
	if mcpVersionDir.MatchString(filepath.Base(l.dir)) {
		version = filepath.Base(l.dir)
	}
	svc.version = version
	if svc.indexURL = mcpSchemaURL(doc, cfg, version, &p); svc.indexURL == "" {
		return nil, p.err()
	}
	doc.url = svc.indexURL
	l.indexURL, _ = url.Parse(svc.indexURL)
	svc.doc = indexDoc(doc.root, root, &p)
	if svc.doc == "" && version != "" {
		svc.doc = "The Model Context Protocol, version " + version + "."
	}

	defs := doc.root.get(container)
	index := mcpIndex(doc, container, defs, &p)
	cfg, rawLocs := mcpConfig(cfg, doc, container, defs)
	c := newConverter(l, &p, cfg)
	// Every object of the MCP schemas is open, and a proxy must pass on
	// what it does not know: structs keep unknown members in Extra.
	c.keepExtras = true
	for k := range rawLocs {
		c.used["types\x00"+k] = true // the front end's own entries need not match
	}
	svc.name = "MCP"
	if cfg.Service != "" {
		svc.name = exportedName(cfg.Service)
	}
	for _, n := range familyNames(svc.name, "Server") {
		c.claim(n, root)
	}
	for _, m := range defs.members {
		ptr := pointerJoin("", container, m.key)
		c.namedAt(target{doc, ptr}, loc{doc, ptr})
	}
	for k, note := range rawLocs {
		if nt := c.byTarget[k]; nt != nil {
			nt.note = joinNote(nt.note, note)
		}
	}
	// The methods only point at types the definitions already made, so the
	// types can be settled (unions planned, cycles broken) first.
	c.finish()
	svc.methods = mcpMethods(c, doc, container, index)
	claimCallbacks(svc, root, c)
	if len(p.list) == 0 {
		mcpCompileCheck(l, svc, doc, container, &p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	svc.setInputs(c.types, l.order)
	return svc, nil
}

// mcpLayout checks the top of the file and returns its definitions
// container: "definitions" with draft-07 (≤ 2025-06-18), "$defs" with
// 2020-12 (≥ 2025-11-25). It sets the document's dialect and containers,
// so that $refs to "#/<container>/X" name types. "" when the file has no
// usable container (the problem is recorded).
func mcpLayout(doc *document, p *problems) string {
	root := loc{doc, ""}
	for _, m := range doc.root.members {
		if !mcpRootKeys[m.key] {
			p.add(root.at(m.key), "unknown member %s at the top of an MCP schema.json (want $schema and definitions or $defs)", m.key)
		}
	}
	var found []string
	for _, k := range []string{"definitions", "$defs"} {
		if n := doc.root.get(k); n != nil {
			if n.kind != kindObject {
				p.add(root.at(k), "%s must be an object, not %s", k, n.kind)
				return ""
			}
			found = append(found, k)
		}
	}
	switch len(found) {
	case 0:
		p.add(root, "an MCP schema.json keeps its types in definitions (draft-07) or $defs (2020-12), and this file has neither")
		return ""
	case 2:
		p.add(root.at("$defs"), "an MCP schema.json has definitions or $defs, not both")
		return ""
	}
	container := found[0]
	doc.dialect = draft2020
	if container == "definitions" {
		doc.dialect = draft07
	}
	if s := doc.root.get("$schema"); s != nil {
		switch {
		case s.kind != kindString:
			p.add(root.at("$schema"), "$schema must be a string, not %s", s.kind)
		case strings.TrimSuffix(s.str, "#") == draft07URL:
			doc.dialect = draft07
		case strings.TrimSuffix(s.str, "#") == draft202012:
			doc.dialect = draft2020
		default:
			p.add(root.at("$schema"), "$schema %q is neither draft-07 nor 2020-12, the dialects of the published MCP schemas", s.str)
		}
	}
	doc.containers = []string{"/" + container}
	return container
}

// mcpSchemaURL is the absolute URL naming the file at run time: its $id, or
// the config's schemaURL, or the documented default (mcpDefaultURLBase).
func mcpSchemaURL(doc *document, cfg *Config, version string, p *problems) string {
	if doc.root.get("$id") != nil {
		id := indexID(doc.root, loc{doc, ""}, p)
		if id != "" && cfg.SchemaURL != "" && cfg.SchemaURL != id {
			p.add(loc{doc, "/$id"}, "the file's $id %q and the config's schemaURL %q differ: drop schemaURL", id, cfg.SchemaURL)
			return ""
		}
		return id
	}
	if cfg.SchemaURL != "" {
		return cfg.SchemaURL
	}
	if version != "" {
		return mcpDefaultURLBase + version + "/schema.json"
	}
	return mcpDefaultURLBase + "schema.json"
}

// mcpMethods binds each derived method to the types generated for its
// definition: the params are the type of the message's params property
// (named <Definition>Params when inline), the result the type of the result
// definition.
func mcpMethods(c *converter, doc *document, container string, index []*mcpMethod) []*method {
	var out []*method
	for _, im := range index {
		stem := exportedName(strings.TrimSuffix(strings.TrimSuffix(im.def, "Request"), "Notification"))
		if stem == "" {
			c.p.add(im.at, "the definition name %s gives no Go name for method %q", im.def, im.name)
			continue
		}
		m := &method{name: im.name, stem: stem, origin: im.at, notification: im.notification,
			direction: im.direction, definition: im.def, paramsRequired: im.paramsRequired}
		n, _ := doc.root.lookup(im.at.ptr)
		m.doc, m.deprecated = annotations(n)
		c.claim("Method"+stem, im.at.at("properties", "method", "const"))
		if im.params != nil {
			mcpParams(c, m, doc)
		}
		if !m.notification {
			m.result, m.resultFill = mcpResultType(c, doc, container, im.result)
			m.resultURLs = append(m.resultURLs, doc.url+"#"+fragment(pointerJoin("", container, im.result)))
			for _, alt := range im.altResults {
				m.resultURLs = append(m.resultURLs, doc.url+"#"+fragment(pointerJoin("", container, alt)))
				t, _ := mcpResultType(c, doc, container, alt)
				m.altResults = append(m.altResults, t)
			}
		}
		out = append(out, m)
	}
	return out
}

// mcpParams takes the params type from the field the converter made of the
// message's params property, so inline params get the name the converter
// gives every anonymous schema: <Definition>Params.
func mcpParams(c *converter, m *method, doc *document) {
	at := m.origin.at("properties", "params")
	m.hasParams = true
	m.paramsURL = at.url()
	msg := c.byTarget[doc.rel+"#"+m.origin.ptr]
	if msg == nil {
		return // the definition failed to convert; that is reported
	}
	var t *typeRef
	if msg.kind == namedStruct {
		for _, f := range msg.fields {
			if f.jsonName == "params" {
				t = &f.typ
			}
		}
	}
	if t == nil {
		c.p.add(at, "the params of %s became no field of the generated type %s, so the method has no params type", m.definition, msg.name)
		return
	}
	base := *t
	base.ptr = false
	switch base.shape() {
	case shapeStruct:
		m.params = base.pointer()
	case shapeMap, shapeRaw:
		m.params = base
	default:
		c.p.add(at, "params must be an object schema: JSON-RPC params are an object or an array")
	}
}

// mcpResultType is the Go type a method returns for a result definition:
// a pointer to a struct, or a slice or map written as empty when nil.
func mcpResultType(c *converter, doc *document, container, def string) (typeRef, bool) {
	nt := c.byTarget[doc.rel+"#"+pointerJoin("", container, def)]
	if nt == nil {
		return raw, false // the definition failed to convert; that is reported
	}
	t := typeRef{kind: refNamed, named: nt}
	shape := t.shape()
	if nt.nullable || shape == shapeStruct {
		return t.pointer(), false
	}
	return t, shape == shapeSlice || shape == shapeMap
}

// mcpCompileCheck compiles every schema the generated code may compile at
// run time (each method's params) and every definition, as the runtime
// validator will.
func mcpCompileCheck(l *loader, svc *service, doc *document, container string, p *problems) {
	c, check, ok := schemaChecker(l, p)
	if !ok {
		return
	}
	for _, m := range svc.methods {
		if m.hasParams {
			check(m.origin.at("properties", "params"), m.paramsURL)
		}
	}
	for _, m := range doc.root.get(container).members {
		at := loc{doc, pointerJoin("", container, m.key)}
		check(at, at.url())
	}
	compileProgram(c, svc)
}
