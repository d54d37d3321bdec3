package gen

import (
	"net/url"
	"path"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// defaultJSONSchemaBase is where a JSON Schema document without $id lives
// at run time when the config gives no schemaURL: this base followed by the
// file's name. Like defaultOpenRPCBase, it only names the document inside
// the generated SchemaSet.
const defaultJSONSchemaBase = "https://schemarpc.dev/jsonschema/"

// jsonSchemaDrafts maps the $schema URLs of the JSON Schema drafts (without
// scheme and trailing #) to the dialect the converter reads them in:
// draft-04, 06, 07 and 2019-09 write tuples as items: [...] and keep
// definitions; 2020-12 is the default.
var jsonSchemaDrafts = map[string]dialect{
	"json-schema.org/draft-04/schema":            draft07,
	"json-schema.org/draft-06/schema":            draft07,
	"json-schema.org/draft-07/schema":            draft07,
	"json-schema.org/draft/2019-09/schema":       draft07,
	"json-schema.org/draft/2020-12/schema":       draft2020,
	"json-schema.org/draft-04/hyper-schema":      draft07,
	"json-schema.org/draft-07/hyper-schema":      draft07,
	"json-schema.org/draft/2019-09/hyper-schema": draft07,
}

// draftOf reads a document's $schema: its dialect, and whether it names a
// JSON Schema draft at all.
func draftOf(root *node) (dialect, bool) {
	s := root.get("$schema")
	if s == nil || s.kind != kindString {
		return draft2020, false
	}
	u := strings.TrimSuffix(s.str, "#")
	u = strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")
	d, ok := jsonSchemaDrafts[u]
	return d, ok
}

// loadJSONSchema is the front end for a plain JSON Schema document of any
// draft: every definition (definitions or $defs) becomes a type, and so does
// the document itself when it describes a value (a type, properties, a
// union…), named after its title or its file. It has no methods: the output
// is types only.
func loadJSONSchema(l *loader, doc *document, cfg *Config) (*service, error) {
	var p problems
	root := loc{doc, ""}
	if doc.root.kind != kindObject {
		p.add(root, "a JSON Schema document must be a JSON object, not %s", doc.root.kind)
		return nil, p.err()
	}
	dialect, named := draftOf(doc.root)
	if s := doc.root.get("$schema"); s != nil && !named {
		p.add(root.at("$schema"), "$schema %s names no JSON Schema draft this generator reads (draft-04, 06, 07, 2019-09, 2020-12)", describe(s))
		return nil, p.err()
	}
	defs, hasDefs := doc.root.get("$defs"), doc.root.get("$defs") != nil
	legacy := doc.root.get("definitions")
	if !named && legacy != nil && !hasDefs {
		dialect = draft07 // definitions without $schema: an older draft
	}
	doc.dialect = dialect
	for _, k := range []string{"definitions", "$defs"} {
		if n := doc.root.get(k); n != nil {
			if n.kind != kindObject {
				p.add(root.at(k), "%s must be an object, not %s", k, n.kind)
				return nil, p.err()
			}
			doc.containers = append(doc.containers, "/"+k)
		}
	}

	svc := &service{inputName: doc.rel, typesOnly: true}
	svc.indexURL = jsonSchemaURL(doc, cfg, &p)
	doc.url = svc.indexURL
	l.indexURL, _ = url.Parse(svc.indexURL)
	svc.doc = indexDoc(doc.root, root, &p)
	base := strings.TrimSuffix(path.Base(doc.rel), path.Ext(doc.rel))
	svc.name = exportedName(base)
	if cfg != nil && cfg.Service != "" {
		svc.name = exportedName(cfg.Service)
	}

	c := newConverter(l, &p, cfg)
	c.keepExtras = dialect == draft07 // older drafts' objects are open
	c.dedupe = true
	if describesValue(doc.root) {
		c.rootName = base
		if t := doc.root.get("title"); t != nil && t.kind == kindString && exportedName(t.str) != "" {
			c.rootName = t.str
		}
		c.namedAt(target{doc, ""}, root)
	}
	for _, container := range []*node{legacy, defs} {
		if container == nil {
			continue
		}
		key := "definitions"
		if container == defs {
			key = "$defs"
		}
		for _, m := range container.members {
			ptr := pointerJoin("", key, m.key)
			c.namedAt(target{doc, ptr}, loc{doc, ptr})
		}
	}
	c.finish()
	if len(p.list) == 0 {
		jsonSchemaCompileCheck(l, doc, &p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	svc.setInputs(c.types, l.order)
	return svc, nil
}

// describesValue reports whether the top of a schema document says
// something about a value, rather than only holding definitions.
func describesValue(root *node) bool {
	for _, m := range root.members {
		if shapingKeywords[m.key] || constraintKeywords[m.key] {
			return true
		}
	}
	return false
}

// jsonSchemaURL is the document's absolute URL at run time: its $id (id in
// draft-04), the config's schemaURL, or defaultJSONSchemaBase followed by
// the file name.
func jsonSchemaURL(doc *document, cfg *Config, p *problems) string {
	for _, k := range []string{"$id", "id"} {
		if id := doc.root.get(k); id != nil && id.kind == kindString {
			if u, err := url.Parse(id.str); err == nil && u.IsAbs() {
				u.Fragment, u.RawFragment = "", ""
				return u.String()
			}
			p.add(loc{doc, "/" + k}, "%s %q is not an absolute URL", k, id.str)
			return ""
		}
	}
	if cfg != nil && cfg.SchemaURL != "" {
		return cfg.SchemaURL
	}
	return defaultJSONSchemaBase + url.PathEscape(doc.rel)
}

// jsonSchemaCompileCheck compiles every definition (and the document) with
// the validator the generated code uses, in the document's draft.
func jsonSchemaCompileCheck(l *loader, doc *document, p *problems) {
	draft := jsonschema.Draft2020
	if doc.dialect == draft07 {
		draft = jsonschema.Draft7
	}
	c, ok := checkCompiler(l.order, draft, p)
	if !ok {
		return
	}
	if _, err := c.Compile(doc.url); err != nil {
		p.add(loc{doc, ""}, "the schema validator rejects this document: %v", err)
	}
}
