package gen

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// draft202012 is the only dialect the format accepts.
const draft202012 = "https://json-schema.org/draft/2020-12/schema"

// document is one JSON file of the input: an index, a schema, an MCP
// schema.json or an OpenRPC document.
type document struct {
	rel     string // slash path relative to the index's directory; names the file in errors
	url     string // absolute URL: the index's $id, or the index's $id resolved against rel
	raw     []byte
	root    *node
	dialect dialect
	// containers are the JSON pointers (without the entry name) under
	// which the document keeps named schemas: "/$defs", "/definitions",
	// "/components/schemas".
	containers []string
}

// dialect is the JSON Schema draft a document's schemas are written in.
type dialect int

const (
	draft2020 dialect = iota // JSON Schema 2020-12 (the default)
	draft07                  // JSON Schema draft-07: MCP ≤ 2025-06-18, OpenRPC
)

// defsContainers lists the pointers under which the document keeps named
// schemas; "/$defs" when the front end set none.
func (d *document) defsContainers() []string {
	if len(d.containers) == 0 {
		return []string{"/$defs"}
	}
	return d.containers
}

// splitDefPointer splits "/$defs/Name" or "/components/schemas/Name" into
// the container and the unescaped entry name.
func splitDefPointer(ptr string) (container, entry string, ok bool) {
	i := strings.LastIndex(ptr, "/")
	if i <= 0 {
		return "", "", false
	}
	return ptr[:i], unescapePointerToken(ptr[i+1:]), true
}

// loader reads the index and the documents it references, keeping every
// file inside the root's directory tree: the index's directory, or the
// config's root that holds it (Config.Root).
type loader struct {
	dir  string // the index's directory, symlinks resolved (a slash path inside fsys when fsys is set)
	root string // the directory no document may lie outside of: dir, or a directory above it
	// base is dir relative to root, as a slash path ("." when they are
	// the same), so that a reference's path can be checked against root.
	base string
	fsys fs.FS // where the documents live; nil means the operating system's files
	// describing says the input is read for Describe: problems that only
	// concern Go code (names, unions without a Go shape) are not reported.
	describing bool
	indexURL   *url.URL
	docs       map[string]*document // by rel
	order      []*document          // in load order; the index first
	failed     map[string]bool      // rels already reported as unreadable
	// warn receives warnings (Options.Warn); warned holds the keys of
	// those already given, so each is given once.
	warn   func(*Error)
	warned map[string]bool
	// typeAt, when set, records the Go type each schema converted became,
	// by location (file#pointer): for tests that check a document's own
	// examples against the types made of it.
	typeAt map[string]typeRef
}

// warnOnce gives the warning at `at` unless one with the same key was given
// before.
func (l *loader) warnOnce(key string, at loc, format string, args ...any) {
	if l.warned[key] {
		return
	}
	if l.warned == nil {
		l.warned = map[string]bool{}
	}
	l.warned[key] = true
	if l.warn != nil {
		l.warn(&Error{File: at.doc.rel, Pointer: at.ptr, Message: fmt.Sprintf(format, args...)})
	}
}

// readIndex reads and parses the index file, from fsys when it is set (input
// is then a slash path inside it), otherwise from the operating system. A
// problem here is fatal, so it returns the error instead of collecting it.
func readIndex(input string, fsys fs.FS) (*loader, *document, error) {
	var dir, base string
	var raw []byte
	var err error
	if fsys != nil {
		input = path.Clean(input)
		if !fs.ValidPath(input) {
			return nil, nil, fmt.Errorf("input %q is not a valid path inside the file system", input)
		}
		dir, base = path.Dir(input), path.Base(input)
		raw, err = fs.ReadFile(fsys, input)
	} else {
		var abs string
		if abs, err = filepath.Abs(input); err != nil {
			return nil, nil, err
		}
		if dir, err = filepath.EvalSymlinks(filepath.Dir(abs)); err != nil {
			return nil, nil, err
		}
		base = filepath.Base(abs)
		raw, err = os.ReadFile(abs)
	}
	if err != nil {
		return nil, nil, err
	}
	doc := &document{rel: base, raw: raw}
	root, err := parseJSON(raw)
	if err != nil {
		return nil, nil, syntaxProblem(doc, err)
	}
	doc.root = root
	l := &loader{dir: dir, root: dir, base: ".", fsys: fsys, docs: map[string]*document{doc.rel: doc}, order: []*document{doc}, failed: map[string]bool{}}
	return l, doc, nil
}

// setRoot lets the index's references reach every document under root, a
// directory of the operating system's files that holds the index.
func (l *loader) setRoot(root string) error {
	if l.fsys != nil {
		return errors.New("a root is for the operating system's files, not a file system (Options.FS)")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return fmt.Errorf("root: %v", err)
	}
	base, err := filepath.Rel(real, l.dir)
	if err != nil || base == ".." || strings.HasPrefix(base, ".."+string(filepath.Separator)) {
		return fmt.Errorf("root %s does not hold the input's directory %s", real, l.dir)
	}
	l.root, l.base = real, filepath.ToSlash(base)
	return nil
}

func syntaxProblem(doc *document, err error) error {
	var se *syntaxError
	if errors.As(err, &se) {
		return ErrorList{{File: doc.rel, Pointer: se.ptr, Message: se.msg}}
	}
	return ErrorList{{File: doc.rel, Message: err.Error()}}
}

// target is where a $ref points: a document and a pointer inside it.
type target struct {
	doc *document
	ptr string
}

// resolve follows the $ref string found at `at`. Only relative references
// to files inside the index's directory tree are followed; the referenced
// file is loaded on first use.
func (l *loader) resolve(at loc, ref string, p *problems) (target, bool) {
	u, err := url.Parse(ref)
	switch {
	case err != nil:
		p.add(at, "$ref %q is not a valid URI reference: %v", ref, err)
		return target{}, false
	case u.Scheme != "" || u.Host != "" || strings.HasPrefix(ref, "//"):
		p.add(at, "$ref %q is not relative: only references to files in the input's directory tree are supported", ref)
		return target{}, false
	case strings.HasPrefix(u.Path, "/"):
		p.add(at, "$ref %q uses an absolute path: write it relative to the referring file", ref)
		return target{}, false
	case u.RawQuery != "":
		p.add(at, "$ref %q has a query, which cannot name a file", ref)
		return target{}, false
	}
	doc := at.doc
	if u.Path != "" {
		rel := path.Join(path.Dir(at.doc.rel), u.Path)
		if full := path.Join(l.base, rel); full == ".." || strings.HasPrefix(full, "../") {
			p.add(at, "$ref %q leaves the input's directory tree", ref)
			return target{}, false
		}
		doc = l.load(at, rel, p)
		if doc == nil {
			return target{}, false
		}
	}
	frag := u.Fragment
	if frag != "" && !strings.HasPrefix(frag, "/") {
		p.add(at, "$ref %q uses a plain-name fragment (anchor), which is not supported yet: point at a $defs entry", ref)
		return target{}, false
	}
	if !validPointerEscapes(frag) {
		p.add(at, "$ref %q is not a valid JSON pointer: a \"~\" must be followed by 0 or 1 (\"~0\" is \"~\", \"~1\" is \"/\")", ref)
		return target{}, false
	}
	return target{doc: doc, ptr: frag}, true
}

// loadReferenced loads every document a $ref of a loaded document names,
// and theirs in turn: the validator needs them all at run time, including
// those reached only through a location a type override ("types") keeps
// the generator from converting.
func (l *loader) loadReferenced(p *problems) {
	for i := 0; i < len(l.order); i++ {
		doc := l.order[i]
		var walk func(n *node)
		walk = func(n *node) {
			for _, it := range n.items {
				walk(it)
			}
			for _, m := range n.members {
				if m.key == "$ref" && m.val.kind == kindString {
					if u, err := url.Parse(m.val.str); err == nil && u.Path != "" {
						l.resolve(loc{doc, n.ptr}.at("$ref"), m.val.str, p)
					}
					continue
				}
				walk(m.val)
			}
		}
		walk(doc.root)
	}
}

// load reads the document at rel (relative to the index's directory), once.
func (l *loader) load(at loc, rel string, p *problems) *document {
	if d, ok := l.docs[rel]; ok {
		return d
	}
	if l.failed[rel] {
		p.add(at, "cannot use %s: see the error above", rel)
		return nil
	}
	d, err := l.read(rel)
	if err != nil {
		l.failed[rel] = true
		var list ErrorList
		if errors.As(err, &list) {
			p.list = append(p.list, list...)
			p.add(at, "cannot use %s: see the error above", rel)
			return nil
		}
		p.add(at, "%v", err)
		return nil
	}
	l.docs[rel] = d
	l.order = append(l.order, d)
	return d
}

func (l *loader) read(rel string) (*document, error) {
	raw, err := l.readFile(rel)
	if err != nil {
		return nil, err
	}
	doc := &document{rel: rel, raw: raw, url: l.indexURL.ResolveReference(&url.URL{Path: rel}).String()}
	root, err := parseJSON(raw)
	if err != nil {
		return nil, syntaxProblem(doc, err)
	}
	doc.root = root
	if err := l.checkDocHeader(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// readFile returns the bytes of the document at rel, which must stay inside
// the root's directory tree.
func (l *loader) readFile(rel string) ([]byte, error) {
	if l.fsys != nil {
		raw, err := fs.ReadFile(l.fsys, path.Join(l.dir, rel))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("referenced file %s does not exist", rel)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot read referenced file %s: %v", rel, err)
		}
		return raw, nil
	}
	file := filepath.Join(l.dir, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("referenced file %s does not exist", rel)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read referenced file %s: %v", rel, err)
	}
	if r, err := filepath.Rel(l.root, real); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("referenced file %s resolves to %s, outside the input's directory tree", rel, real)
	}
	raw, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("cannot read referenced file %s: %v", rel, err)
	}
	return raw, nil
}

// checkDocHeader checks the $schema and $id of a referenced document. Its
// $id, when present, must be the URL the index's $id gives the file: the
// runtime finds documents by that URL, so any other $id would break the
// references at run time.
func (l *loader) checkDocHeader(doc *document) error {
	var p problems
	at := loc{doc, ""}
	if doc.root.kind != kindObject {
		p.add(at, "a referenced document must be a JSON object (a schema with $defs), not %s", doc.root.kind)
		return p.err()
	}
	l.readDialect(doc, at, &p)
	if id := doc.root.get("$id"); id != nil {
		if id.kind != kindString {
			p.add(at.at("$id"), "$id must be a string")
		} else if u, err := url.Parse(id.str); err != nil {
			p.add(at.at("$id"), "$id is not a valid URI: %v", err)
		} else {
			base, _ := url.Parse(doc.url)
			u.Fragment, u.RawFragment = "", ""
			if got := base.ResolveReference(u).String(); got != doc.url {
				p.add(at.at("$id"), "$id %q does not match this file's place next to the index: drop it or make it %q", id.str, doc.url)
			}
		}
	}
	return p.err()
}

// checkDialect accepts a document whose $schema is absent or Draft 2020-12.
func checkDialect(root *node, at loc, p *problems) {
	s := root.get("$schema")
	if s == nil {
		return
	}
	if s.kind != kindString || strings.TrimSuffix(s.str, "#") != draft202012 {
		p.add(at.at("$schema"), "$schema must be %q (JSON Schema Draft 2020-12)", draft202012)
	}
}

// readDialect sets the dialect and definitions containers of a referenced
// document: the JSON Schema draft its $schema names (draft-04 to 2020-12),
// or, without one, the input's; its definitions live in $defs and, if it
// has them, definitions.
func (l *loader) readDialect(doc *document, at loc, p *problems) {
	doc.dialect = l.order[0].dialect
	if s := doc.root.get("$schema"); s != nil {
		d, named := draftOf(doc.root)
		if !named {
			p.add(at.at("$schema"), "$schema %s names no JSON Schema draft this generator reads (draft-04, 06, 07, 2019-09, 2020-12)", describe(s))
			return
		}
		doc.dialect = d
	}
	doc.containers = []string{"/$defs"}
	if doc.root.get("definitions") != nil {
		doc.containers = append(doc.containers, "/definitions")
	}
}
