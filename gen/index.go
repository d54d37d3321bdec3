package gen

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"sort"
	"strings"
)

// indexKeys are the members an index may have: its JSON Schema header and
// $defs, and the service description.
var indexKeys = set("$schema", "$id", "$comment", "title", "description", "service", "methods", "$defs")

var methodKeys = set("name", "kind", "direction", "description", "deprecated", "paramStructure", "params", "result", "errors", "$comment")

var errorKeys = set("code", "name", "message", "description")

// loadSchemarpc is the front end for the project's own index format: it
// checks the index and everything it references, and builds the
// intermediate representation.
func loadSchemarpc(l *loader, idx *document, cfg *Config) (*service, error) {
	var p problems
	root := loc{idx, ""}
	if idx.root.kind != kindObject {
		p.add(root, "the index must be a JSON object, not %s", idx.root.kind)
		return nil, p.err()
	}
	for _, m := range idx.root.members {
		if !indexKeys[m.key] {
			p.add(root.at(m.key), "unknown key %s in the index (want $schema, $id, title, description, service, methods, $defs)", m.key)
		}
	}
	checkDialect(idx.root, root, &p)
	svc := &service{inputName: idx.rel}
	svc.indexURL = indexID(idx.root, root, &p)
	if svc.indexURL == "" {
		return nil, p.err() // nothing else can be located without it
	}
	idx.url = svc.indexURL
	l.indexURL, _ = url.Parse(svc.indexURL)
	svc.doc = indexDoc(idx.root, root, &p)

	c := newConverter(l, &p, cfg)
	svc.name = serviceName(idx.root, root, c)
	if defs := idx.root.get("$defs"); defs != nil {
		if defs.kind != kindObject {
			p.add(root.at("$defs"), "$defs must be an object, not %s", defs.kind)
		} else {
			for _, m := range defs.members {
				c.namedAt(target{idx, pointerJoin("", "$defs", m.key)}, root.at("$defs", m.key))
			}
		}
	}
	svc.methods = c.methods(idx, svc.name)
	claimCallbacks(svc, root.at("service"), c)
	c.finish()
	if len(p.list) == 0 {
		l.loadReferenced(&p)
	}
	if len(p.list) == 0 {
		compileCheck(l, svc, idx, &p)
	}
	if err := p.err(); err != nil {
		return nil, err
	}

	svc.setInputs(c.types, l.order)
	svc.errors = collectErrors(svc.methods)
	return svc, nil
}

// indexID reads the index's $id: an absolute hierarchical URL, which names
// every document at run time.
func indexID(root *node, at loc, p *problems) string {
	id := root.get("$id")
	if id == nil {
		p.add(at, "the index needs an $id: the absolute URL that names it and the documents it references at run time")
		return ""
	}
	at = at.at("$id")
	if id.kind != kindString {
		p.add(at, "$id must be a string, not %s", id.kind)
		return ""
	}
	u, err := url.Parse(id.str)
	switch {
	case err != nil:
		p.add(at, "$id is not a valid URL: %v", err)
	case !u.IsAbs() || u.Opaque != "" || u.Host == "":
		p.add(at, "$id %q must be an absolute URL with a host, such as https://example.com/api/service.json", id.str)
	case u.RawQuery != "" || u.Fragment != "":
		p.add(at, "$id %q must not have a query or a fragment", id.str)
	default:
		u.Fragment, u.RawFragment = "", "" // an empty fragment ("…json#") is allowed
		return u.String()
	}
	return ""
}

// indexDoc reads the index's description (or, without one, its title) for
// the package doc.
func indexDoc(root *node, at loc, p *problems) string {
	doc := ""
	for _, k := range []string{"title", "description"} {
		v := root.get(k)
		switch {
		case v == nil:
		case v.kind != kindString:
			p.add(at.at(k), "%s must be a string, not %s", k, v.kind)
		case v.str != "":
			doc = v.str
		}
	}
	if doc != "" && !strings.ContainsAny(doc[len(doc)-1:], ".!?") {
		doc += "." // a lone title line would otherwise read as a doc heading
	}
	return doc
}

// serviceName reads "service" and reserves the names generated from it.
func serviceName(root *node, at loc, c *converter) string {
	at = at.at("service")
	v := root.get("service")
	switch {
	case v == nil:
		c.p.add(at, "the index needs a service name (e.g. \"service\": \"Calc\")")
		return "Service"
	case v.kind != kindString:
		c.p.add(at, "service must be a string, not %s", v.kind)
		return "Service"
	}
	name := c.exportedName(v.str)
	if name == "" {
		c.p.add(at, "service %q gives no Go identifier", v.str)
		return "Service"
	}
	for _, n := range familyNames(name, "Server") {
		c.claim(n, at)
	}
	return name
}

// familyNames lists the exported names generated for one side of a service:
// kind "Server" gives XServer, UnimplementedXServer, RegisterXServer,
// XClient, NewXClient and XMethodFacts; "Callbacks" the first five with
// XCallbacks and XCallbacksClient.
func familyNames(svc, kind string) []string {
	iface, client := svc+kind, svc+"Client"
	if kind != "Server" {
		client = iface + "Client"
	}
	names := []string{iface, "Unimplemented" + iface, "Register" + iface, client, "New" + client}
	if kind == "Server" {
		names = append(names, factsFunc(svc))
	}
	return names
}

// claimCallbacks reserves the names of the callbacks family (what a client
// handles) when some method is handled by the client.
func claimCallbacks(svc *service, at loc, c *converter) {
	for _, m := range svc.methods {
		if m.direction.handledByClient() {
			for _, n := range familyNames(svc.name, "Callbacks") {
				c.claim(n, at)
			}
			return
		}
	}
}

// methods reads the method index.
func (c *converter) methods(idx *document, svcName string) []*method {
	at := loc{idx, "/methods"}
	list := idx.root.get("methods")
	switch {
	case list == nil:
		c.p.add(loc{idx, ""}, "the index needs a methods list")
		return nil
	case list.kind != kindArray:
		c.p.add(at, "methods must be a list, not %s", list.kind)
		return nil
	}
	var out []*method
	byName := map[string]loc{}
	errs := map[string]*rpcError{}
	for i, n := range list.items {
		mat := at.at(fmt.Sprint(i))
		if name := n.get("name"); name != nil && name.kind == kindString {
			if prev, dup := byName[name.str]; dup {
				c.p.add(mat.at("name"), "method %q is already declared at %s", name.str, prev)
				continue
			}
			byName[name.str] = mat.at("name")
		}
		if m := c.method(n, mat, errs); m != nil {
			out = append(out, m)
		}
	}
	return out
}

func (c *converter) method(n *node, at loc, errs map[string]*rpcError) *method {
	if n.kind != kindObject {
		c.p.add(at, "a method must be an object, not %s", n.kind)
		return nil
	}
	for _, mem := range n.members {
		if !methodKeys[mem.key] && !isExtension(mem.key) {
			c.p.add(at.at(mem.key), "unknown key %s in a method (want name, kind, direction, description, deprecated, paramStructure, params, result, errors, or an x- extension)", mem.key)
		}
	}
	m := &method{origin: at, extensions: extensionsOf(n)}
	name := n.get("name")
	switch {
	case name == nil:
		c.p.add(at, "a method needs a name")
		return nil
	case name.kind != kindString || name.str == "":
		c.p.add(at.at("name"), "name must be a non-empty string")
		return nil
	case strings.HasPrefix(name.str, "rpc."):
		c.p.add(at.at("name"), "method names beginning with rpc. are reserved by JSON-RPC 2.0")
		return nil
	}
	m.name = name.str
	if m.stem = c.exportedName(m.name); m.stem == "" {
		c.p.add(at.at("name"), "method name %q gives no Go identifier", m.name)
		return nil
	}
	c.claim("Method"+m.stem, at.at("name"))
	m.doc, m.deprecated = annotations(n)
	if d := n.get("description"); d != nil && d.kind != kindString {
		c.p.add(at.at("description"), "description must be a string, not %s", d.kind)
	}
	if d := n.get("deprecated"); d != nil && d.kind != kindBool {
		c.p.add(at.at("deprecated"), "deprecated must be a boolean, not %s", d.kind)
	}

	if k := n.get("kind"); k != nil {
		switch {
		case k.kind == kindString && k.str == "request":
		case k.kind == kindString && k.str == "notification":
			m.notification = true
		default:
			c.p.add(at.at("kind"), "kind must be \"request\" or \"notification\", not %s", describe(k))
		}
	}
	if d := n.get("direction"); d != nil {
		m.direction = -1
		for dir, word := range directionNames {
			if d.kind == kindString && d.str == word {
				m.direction = dir
			}
		}
		if m.direction < 0 {
			c.p.add(at.at("direction"), "direction must be \"client-to-server\", \"server-to-client\" or \"both\", not %s", describe(d))
			m.direction = toServer
		}
	}
	if ps := n.get("paramStructure"); ps != nil {
		switch {
		case ps.kind == kindString && ps.str == "by-name":
		case ps.kind == kindString && ps.str == "by-position":
			m.structure = byPosition
		case ps.kind == kindString && ps.str == "either":
			m.structure = either
		default:
			c.p.add(at.at("paramStructure"), "paramStructure must be \"by-name\", \"by-position\" or \"either\", not %s", describe(ps))
		}
	}
	if params := n.get("params"); params != nil {
		c.params(m, params, at.at("params"))
	} else if m.structure != byName {
		c.p.add(at.at("paramStructure"), "paramStructure is set but the method declares no params")
	}
	result := n.get("result")
	switch {
	case m.notification && result != nil:
		c.p.add(at.at("result"), "a notification has no result: drop result, or make kind \"request\"")
	case !m.notification && result == nil:
		c.p.add(at, "a request needs a result schema (use true for any result)")
	case result != nil:
		c.result(m, result, at.at("result"))
	}
	if list := n.get("errors"); list != nil {
		c.methodErrors(m, list, at.at("errors"), errs)
	}
	return m
}

func (c *converter) params(m *method, n *node, at loc) {
	m.hasParams = true
	m.paramsURL = c.l.indexURL.String() + "#" + fragment(at.ptr)
	res, ok := c.convert(n, at, c.joinName(m.stem, "Params"), nil, false)
	if !ok {
		return
	}
	if res.nullable {
		c.p.add(at, "params cannot be null: JSON-RPC params are an object or an array")
		return
	}
	switch res.t.shape() {
	case shapeStruct:
		m.params = res.t.pointer()
	case shapeMap, shapeRaw:
		m.params = res.t
	default:
		c.p.add(at, "params must be an object schema (or true for any params)")
		return
	}
	if def, ok := bareRefDefinition(n, res.t); ok {
		m.paramsURL = def.url()
	}
	if m.structure == byName {
		return
	}
	st := res.t.named
	for st != nil && st.kind == namedAlias && st.underlying.kind == refNamed {
		st = st.underlying.named
	}
	if res.t.shape() != shapeStruct || st == nil || st.kind != namedStruct || len(st.fields) == 0 {
		c.p.add(at, "by-position and either params need an object schema with properties, whose order gives the positions")
		return
	}
	for _, f := range st.fields {
		m.paramNames = append(m.paramNames, f.jsonName)
	}
}

// bareRefDefinition returns where the named type t was defined, when the
// schema n is a bare $ref and t is the named type it converted to: params
// and results are then validated against the definition itself, so that
// error locations name it. It reports false for any other schema, and for
// a bare $ref that made no named type (one to a part of the index that is
// no definition and reads as raw JSON).
func bareRefDefinition(n *node, t typeRef) (loc, bool) {
	if n.kind != kindObject || len(n.members) != 1 || n.get("$ref") == nil || t.kind != refNamed {
		return loc{}, false
	}
	return t.named.origin, true
}

// fragment encodes a JSON pointer as a URI fragment.
func fragment(ptr string) string {
	return (&url.URL{Fragment: ptr}).EscapedFragment()
}

func (c *converter) result(m *method, n *node, at loc) {
	m.resultURLs = []string{at.url()}
	res, ok := c.convert(n, at, c.joinName(m.stem, "Result"), nil, false)
	if !ok {
		return
	}
	if def, ok := bareRefDefinition(n, res.t); ok {
		m.resultURLs = []string{def.url()}
	}
	shape := res.t.shape()
	switch {
	case res.nullable || shape == shapeStruct:
		m.result = res.t.pointer()
	default:
		m.result = res.t
		m.resultFill = shape == shapeSlice || shape == shapeMap
	}
}

func (c *converter) methodErrors(m *method, list *node, at loc, errs map[string]*rpcError) {
	if list.kind != kindArray {
		c.p.add(at, "errors must be a list, not %s", list.kind)
		return
	}
	for i, n := range list.items {
		eat := at.at(fmt.Sprint(i))
		if n.kind != kindObject {
			c.p.add(eat, "an error must be an object, not %s", n.kind)
			continue
		}
		ok := true
		for _, mem := range n.members {
			if !errorKeys[mem.key] {
				c.p.add(eat.at(mem.key), "unknown key %s in an error (want code, name, message, description)", mem.key)
				ok = false
			}
		}
		e := &rpcError{origin: eat}
		if code := n.get("code"); code == nil {
			c.p.add(eat, "an error needs a code")
			ok = false
		} else if v, isInt := code.int64(); !isInt {
			c.p.add(eat.at("code"), "code must be an integer, not %s", describe(code))
			ok = false
		} else if v >= -32768 && v <= -32100 {
			c.p.add(eat.at("code"), "code %d is reserved by JSON-RPC 2.0 for its own errors", v)
			ok = false
		} else {
			e.code = v
		}
		for _, k := range []string{"name", "message"} {
			v := n.get(k)
			if v == nil || v.kind != kindString || v.str == "" {
				c.p.add(eat.at(k), "an error needs a non-empty string %s", k)
				ok = false
			}
		}
		if d := n.get("description"); d != nil && d.kind != kindString {
			c.p.add(eat.at("description"), "description must be a string, not %s", d.kind)
			ok = false
		}
		if !ok {
			continue
		}
		rawName := n.get("name").str
		e.message = n.get("message").str
		e.doc, _ = annotations(n)
		if e.name = c.exportedName(rawName); e.name == "" {
			c.p.add(eat.at("name"), "error name %q gives no Go identifier", rawName)
			continue
		}
		if prev, seen := errs[e.name]; seen {
			if prev.code != e.code || prev.message != e.message {
				c.p.add(eat.at("name"), "error %s is declared differently at %s", e.name, prev.origin)
				continue
			}
			m.errors = append(m.errors, prev)
			continue
		}
		c.claim("Code"+e.name, eat.at("name"))
		c.claim("New"+e.name+"Error", eat.at("name"))
		errs[e.name] = e
		m.errors = append(m.errors, e)
	}
}

// collectErrors lists each declared error once, sorted by name.
func collectErrors(methods []*method) []*rpcError {
	seen := map[*rpcError]bool{}
	var out []*rpcError
	for _, m := range methods {
		for _, e := range m.errors {
			if !seen[e] {
				seen[e] = true
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// inputHash is the sha256 of the index's bytes followed by the bytes of each
// referenced document, in order of their paths; for a lone index it is the
// sha256 of the file.
func inputHash(docs []*document) string {
	rest := append([]*document(nil), docs[1:]...)
	sort.Slice(rest, func(i, j int) bool { return rest[i].rel < rest[j].rel })
	h := sha256.New()
	for _, d := range append(docs[:1:1], rest...) {
		h.Write(d.raw)
	}
	return hex.EncodeToString(h.Sum(nil))
}
