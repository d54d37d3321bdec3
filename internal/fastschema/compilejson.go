package fastschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"strconv"
	"strings"
)

// Drafts CompileJSON reads, as the version numbers a node records.
const (
	Draft4    = 4
	Draft6    = 6
	Draft7    = 7
	Draft2019 = 2019
	Draft2020 = 2020
)

// SchemaError is a schema CompileJSON refuses: the jsonschema library would
// refuse it too, or it uses something CompileJSON does not support.
type SchemaError struct {
	// Location is the URL and JSON pointer of the keyword at fault (or of
	// the schema, when no one keyword is).
	Location string
	// Reason says what is wrong there.
	Reason string
}

// Error returns the location and the reason.
func (e *SchemaError) Error() string {
	return "fastschema: schema " + e.Location + ": " + e.Reason
}

// CompileJSON compiles the schema at location (a document URL, optionally
// with a fragment: a JSON pointer or an anchor) into a Validator, reading
// the schema documents docs (document URL → JSON text) without the
// jsonschema library. A document without "$schema" is read as defaultDraft
// (Draft2020, Draft2019, Draft7, Draft6 or Draft4). $ref resolves within
// docs only: a URL outside them is an error, never fetched. A schema the
// library refuses is refused with a *SchemaError naming the keyword at
// fault; so are custom metaschemas and documents that mix drafts. To
// compile several locations of the same documents, use a [JSONCompiler].
func CompileJSON(docs map[string][]byte, location string, defaultDraft int) (*Validator, error) {
	c, err := NewJSONCompiler(func(u string) ([]byte, error) {
		if b, ok := docs[u]; ok {
			return b, nil
		}
		return nil, fs.ErrNotExist
	}, defaultDraft)
	if err != nil {
		return nil, err
	}
	return c.Compile(location)
}

// jsonCompiler compiles schema documents into nodes, each location once.
type jsonCompiler struct {
	docs  func(u string) ([]byte, error)
	draft int // for documents without $schema
	roots map[string]*jsonRoot
	nodes map[string]*node // document URL + "#" + pointer → node
	all   []*node
	// metaDepth counts the custom metaschemas being compiled around this
	// compiler (see customDraft).
	metaDepth int
}

// jsonRoot is one loaded document.
type jsonRoot struct {
	url       string
	doc       any
	draft     int
	resources map[string]*jsonResource // pointer → the resource an $id starts there
	checked   map[string]bool          // pointers whose subtree passed the keyword checks
}

// jsonResource is a schema resource: the document root or a schema with
// an $id, with the anchors defined in it.
type jsonResource struct {
	ptr     string
	id      string
	anchors map[string]string // anchor → pointer
}

// root loads the document at u, once: it parses it, finds its resources and
// anchors, and checks every schema in it as the library's metaschema would.
func (c *jsonCompiler) root(u string) (*jsonRoot, error) {
	if r, ok := c.roots[u]; ok {
		return r, nil
	}
	if isMetaschemaURL(u) {
		return nil, &SchemaError{Location: u, Reason: "a reference to a metaschema is not supported"}
	}
	text, err := c.docs(u)
	if err != nil {
		return nil, &SchemaError{Location: u, Reason: documentMissing(err)}
	}
	doc, err := parseJSON(text)
	if err != nil {
		return nil, &SchemaError{Location: u, Reason: "not a JSON document: " + err.Error()}
	}
	r := &jsonRoot{url: u, doc: doc, draft: c.draft, resources: map[string]*jsonResource{}, checked: map[string]bool{}}
	if obj, ok := doc.(map[string]any); ok {
		if s, ok := obj["$schema"].(string); ok {
			d, err := draftOf(s)
			if err != nil {
				if d, err = c.customDraft(s, text); err != nil {
					return nil, &SchemaError{Location: u + "#/$schema", Reason: err.Error()}
				}
			}
			r.draft = d
		}
	}
	r.resources[""] = &jsonResource{id: u, anchors: map[string]string{}}
	if err := r.collect(doc, u, ""); err != nil {
		return nil, err
	}
	if err := r.checkSchema(doc, ""); err != nil {
		return nil, err
	}
	c.roots[u] = r
	return r, nil
}

// parseJSON decodes one JSON text with numbers kept as json.Number, as the
// library reads schema documents.
func parseJSON(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// draftOf returns the draft a "$schema" URL names.
func draftOf(s string) (int, error) {
	u, frag, _ := strings.Cut(s, "#")
	if frag != "" {
		return 0, fmt.Errorf("$schema %q is not a draft's URL", s)
	}
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		u = strings.TrimPrefix(u, "https://")
	}
	switch u {
	case "json-schema.org/schema", "json-schema.org/draft/2020-12/schema":
		return Draft2020, nil
	case "json-schema.org/draft-07/schema":
		return Draft7, nil
	case "json-schema.org/draft-06/schema":
		return Draft6, nil
	case "json-schema.org/draft-04/schema":
		return Draft4, nil
	case "json-schema.org/draft/2019-09/schema":
		return Draft2019, nil
	}
	return 0, fmt.Errorf("$schema %q is not a draft's URL", s)
}

// isMetaschemaURL reports whether u is on the site the library serves the
// drafts' metaschemas from.
func isMetaschemaURL(u string) bool {
	return strings.HasPrefix(u, "http://json-schema.org/") || strings.HasPrefix(u, "https://json-schema.org/")
}

// subschemaKeywords lists, per draft, the keywords whose value is a schema
// (kindOne), an object of schemas (kindMap) or an array of schemas
// (kindList; "items" is both one and a list in draft 7).
var subschemaKeywords = func() map[int]map[string]subKind {
	d4 := map[string]subKind{
		"definitions": kindMap, "not": kindOne, "allOf": kindList, "anyOf": kindList, "oneOf": kindList,
		"properties": kindMap, "additionalProperties": kindOne, "patternProperties": kindMap,
		"items": kindOne | kindList, "additionalItems": kindOne, "dependencies": kindMap,
	}
	d6 := withKeywords(d4, map[string]subKind{"propertyNames": kindOne, "contains": kindOne})
	d7 := withKeywords(d6, map[string]subKind{"if": kindOne, "then": kindOne, "else": kindOne})
	d2019 := withKeywords(d7, map[string]subKind{
		"$defs": kindMap, "dependentSchemas": kindMap, "unevaluatedProperties": kindOne,
		"unevaluatedItems": kindOne, "contentSchema": kindOne,
	})
	d2020 := withKeywords(d2019, map[string]subKind{"prefixItems": kindList})
	return map[int]map[string]subKind{Draft4: d4, Draft6: d6, Draft7: d7, Draft2019: d2019, Draft2020: d2020}
}()

// withKeywords returns the keywords of an earlier draft and those a later
// one adds.
func withKeywords(earlier, added map[string]subKind) map[string]subKind {
	out := maps.Clone(earlier)
	maps.Copy(out, added)
	return out
}

// idKeyword returns the keyword that gives a schema its URI in draft.
func idKeyword(draft int) string {
	if draft == Draft4 {
		return "id"
	}
	return "$id"
}

// subKind says how a keyword holds subschemas.
type subKind uint8

const (
	kindOne subKind = 1 << iota
	kindMap
	kindList
)

// eachSubschema calls f for every subschema position of the schema obj at
// ptr, in no particular order, stopping at the first error.
func eachSubschema(draft int, obj map[string]any, ptr string, f func(v any, ptr string) error) error {
	for kw, kind := range subschemaKeywords[draft] {
		v, ok := obj[kw]
		if !ok {
			continue
		}
		at := ptr + "/" + escapeToken(kw)
		switch v := v.(type) {
		case map[string]any:
			if kind&kindMap != 0 {
				for k, sub := range v {
					if err := f(sub, at+"/"+escapeToken(k)); err != nil {
						return err
					}
				}
				continue
			}
		case []any:
			if kind&kindList != 0 {
				for i, sub := range v {
					if err := f(sub, at+"/"+strconv.Itoa(i)); err != nil {
						return err
					}
				}
			}
			continue
		}
		if kind&kindOne != 0 {
			if err := f(v, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// collect records the resources ($id) and anchors of the schema v at ptr,
// whose base URI is base, and of its subschemas.
func (r *jsonRoot) collect(v any, base, ptr string) error {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	_, hasRef := obj["$ref"]
	refHides := hasRef && r.draft < Draft2019
	if ptr != "" {
		if s, ok := obj["$schema"].(string); ok && !refHides {
			if _, hasID := obj[idKeyword(r.draft)]; hasID {
				if d, err := draftOf(s); err != nil || d != r.draft {
					return &SchemaError{Location: r.loc(ptr + "/$schema"), Reason: "a resource of another draft inside a document is not supported"}
				}
			}
		}
	}
	idKw := idKeyword(r.draft)
	if id, ok := obj[idKw].(string); ok && !refHides {
		if idURL, _, _ := strings.Cut(id, "#"); idURL != "" {
			u, _, err := joinRef(base, idURL)
			if err != nil {
				return &SchemaError{Location: r.loc(ptr + "/" + idKw), Reason: err.Error()}
			}
			base = u
			for p, res := range r.resources {
				if res.id == u && p != ptr {
					return &SchemaError{Location: r.loc(ptr + "/" + idKw), Reason: fmt.Sprintf("duplicate $id %q (also at %q)", u, p)}
				}
			}
			if ptr == "" {
				r.resources[""].id = u
			} else {
				r.resources[ptr] = &jsonResource{ptr: ptr, id: u, anchors: map[string]string{}}
			}
		}
	}
	res := r.resourceByID(base)
	addAnchor := func(a, kw string) error {
		if p, ok := res.anchors[a]; ok && p != ptr {
			return &SchemaError{Location: r.loc(ptr + "/" + kw), Reason: fmt.Sprintf("duplicate anchor %q (also at %q)", a, p)}
		}
		res.anchors[a] = ptr
		return nil
	}
	if r.draft < Draft2019 && !hasRef {
		if id, ok := obj[idKw].(string); ok {
			_, frag, err := splitRef(id)
			if err != nil {
				return &SchemaError{Location: r.loc(ptr + "/" + idKw), Reason: err.Error()}
			}
			if frag != "" && !strings.HasPrefix(frag, "/") {
				if err := addAnchor(frag, idKw); err != nil {
					return err
				}
			}
		}
	}
	if r.draft >= Draft2019 {
		for _, kw := range []string{"$anchor", "$dynamicAnchor"} {
			if kw == "$dynamicAnchor" && r.draft < Draft2020 {
				continue
			}
			if a, ok := obj[kw].(string); ok {
				if err := addAnchor(a, kw); err != nil {
					return err
				}
			}
		}
	}
	return eachSubschema(r.draft, obj, ptr, func(sub any, p string) error { return r.collect(sub, base, p) })
}

// resourceByID returns the resource whose id is u (the root's, when none
// is).
func (r *jsonRoot) resourceByID(u string) *jsonResource {
	for _, res := range r.resources {
		if res.id == u {
			return res
		}
	}
	return r.resources[""]
}

// resourceAt returns the innermost resource holding ptr.
func (r *jsonRoot) resourceAt(ptr string) *jsonResource {
	for {
		if res, ok := r.resources[ptr]; ok {
			return res
		}
		slash := strings.LastIndexByte(ptr, '/')
		if slash < 0 {
			return r.resources[""]
		}
		ptr = ptr[:slash]
	}
}

// loc returns the location of ptr in r, as the library writes locations.
func (r *jsonRoot) loc(ptr string) string { return r.url + "#" + ptr }

// encodePointer percent-encodes each token of the JSON pointer ptr, as the
// library writes a schema's location.
func encodePointer(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return strings.Join(toks, "/")
}

// fragment resolves a decoded URL fragment in res: a JSON pointer from the
// resource's root, or an anchor.
func (r *jsonRoot) fragment(res *jsonResource, frag string) (string, error) {
	if frag == "" || strings.HasPrefix(frag, "/") {
		return res.ptr + frag, nil
	}
	p, ok := res.anchors[frag]
	if !ok {
		return "", &SchemaError{Location: res.id + "#" + frag, Reason: "no such anchor"}
	}
	return p, nil
}

// resolve resolves the reference ref found in the schema at ptr to a
// document and a pointer in it.
func (c *jsonCompiler) resolve(from *jsonRoot, ptr, kw, ref string) (*jsonRoot, string, error) {
	r := from
	res := r.resourceAt(ptr)
	u, frag, err := joinRef(res.id, ref)
	if err != nil {
		return nil, "", &SchemaError{Location: r.loc(ptr + "/" + kw), Reason: err.Error()}
	}
	var target *jsonResource
	if u == r.url {
		target = r.resources[""]
	} else {
		for _, res := range r.resources {
			if res.id == u {
				target = res
				break
			}
		}
	}
	if target == nil {
		ext, err := c.root(u)
		if err != nil {
			return nil, "", &SchemaError{Location: from.loc(ptr + "/" + kw), Reason: fmt.Sprintf("reference %q: %v", ref, err)}
		}
		r, target = ext, ext.resources[""]
	}
	p, err := r.fragment(target, frag)
	if err != nil {
		return nil, "", &SchemaError{Location: from.loc(ptr + "/" + kw), Reason: fmt.Sprintf("reference %q: %v", ref, err)}
	}
	return r, p, nil
}

// lookup returns the value at the JSON pointer ptr of the document.
func (r *jsonRoot) lookup(ptr string) (any, bool) {
	v := r.doc
	if ptr == "" {
		return v, true
	}
	for _, tok := range strings.Split(ptr, "/")[1:] {
		tok, ok := unescapeToken(tok)
		if !ok {
			return nil, false
		}
		switch val := v.(type) {
		case map[string]any:
			if v, ok = val[tok]; ok {
				continue
			}
		case []any:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(val) {
				v = val[i]
				continue
			}
		}
		return nil, false
	}
	return v, true
}

// splitRef splits a reference at "#" and percent-decodes the fragment.
func splitRef(ref string) (string, string, error) {
	u, frag, _ := strings.Cut(ref, "#")
	frag, err := url.PathUnescape(frag)
	if err != nil {
		return "", "", fmt.Errorf("bad fragment in %q: %v", ref, err)
	}
	return u, frag, nil
}

// joinRef resolves ref against base, returning the URL without fragment and
// the decoded fragment.
func joinRef(base, ref string) (string, string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", "", fmt.Errorf("bad base URL %q: %v", base, err)
	}
	refURL, frag, err := splitRef(ref)
	if err != nil {
		return "", "", err
	}
	ru, err := url.Parse(refURL)
	if err != nil {
		return "", "", fmt.Errorf("bad reference %q: %v", ref, err)
	}
	out := b.ResolveReference(ru)
	if !ru.IsAbs() && b.Opaque != "" {
		out.Opaque = b.Opaque
	}
	return out.String(), frag, nil
}

// escapeToken escapes one JSON pointer token.
func escapeToken(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// unescapeToken decodes one JSON pointer token; false when it has a "~"
// not followed by 0 or 1.
func unescapeToken(tok string) (string, bool) {
	if !strings.Contains(tok, "~") {
		return tok, true
	}
	var sb strings.Builder
	for i := 0; i < len(tok); i++ {
		if tok[i] != '~' {
			sb.WriteByte(tok[i])
			continue
		}
		if i+1 >= len(tok) {
			return "", false
		}
		switch tok[i+1] {
		case '0':
			sb.WriteByte('~')
		case '1':
			sb.WriteByte('/')
		default:
			return "", false
		}
		i++
	}
	return sb.String(), true
}

// documentMissing is the reason a document could not be had: not among
// the schema documents, or there and unreadable.
func documentMissing(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "the document is not among the schema documents"
	}
	return "the document cannot be read: " + err.Error()
}
