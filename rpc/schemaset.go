package rpc

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// SchemaSet holds JSON Schema documents by absolute URL and compiles schema
// locations out of them on demand. It never touches the network or the file
// system: a reference to a URL outside the set is a compile error.
// Documents without "$schema" are read as Draft 2020-12 unless the set is
// made with [WithDefaultDraft].
//
// A SchemaSet is safe for concurrent use, and so are the compiled schemas.
type SchemaSet struct {
	mu       sync.Mutex
	docs     map[string]string
	draft    *jsonschema.Draft
	compiler *jsonschema.Compiler // made on first compile
	cache    map[string]*jsonschema.Schema
	failed   map[string]error // locations that did not compile

	progText     string
	progCount    int            // how many roots the program has
	programRoots map[string]int // location → index among the program's roots
	progOnce     sync.Once
	progVs       []*fastschema.Validator // nil when the program does not decode
}

// SchemaSetOption configures a SchemaSet.
type SchemaSetOption func(*SchemaSet)

// WithDefaultDraft reads documents without "$schema" as draft d (for
// example jsonschema.Draft7 for the schemas of an OpenRPC document).
func WithDefaultDraft(d *jsonschema.Draft) SchemaSetOption {
	return func(s *SchemaSet) { s.draft = d }
}

// WithProgram gives the set the fast validators of locations, compiled when
// the code was generated: program is the text rpcgen made of them, and
// locations are in the order it made it. [SchemaSet.Schema] of one of them
// checks messages without compiling anything. The program is read on first
// use; if it does not read (it was made by an rpcgen of another format
// version), its locations are compiled from the documents instead, with
// the same answers.
func WithProgram(program string, locations ...string) SchemaSetOption {
	return func(s *SchemaSet) {
		s.progText, s.progCount = program, len(locations)
		s.programRoots = make(map[string]int, len(locations))
		for i, l := range locations {
			s.programRoots[l] = i
		}
	}
}

// NewSchemaSet returns a set holding docs, which maps each document's
// absolute URL to its JSON text. It compiles nothing.
func NewSchemaSet(docs map[string]string, opts ...SchemaSetOption) *SchemaSet {
	s := &SchemaSet{docs: docs, draft: jsonschema.Draft2020, cache: make(map[string]*jsonschema.Schema)}
	for _, o := range opts {
		o(s)
	}
	return s
}

// program returns the validator of the program's i-th root, or nil when
// the program does not decode.
func (s *SchemaSet) program(i int) *fastschema.Validator {
	s.progOnce.Do(func() {
		vs, err := fastschema.Decode(s.progText)
		if err == nil && len(vs) == s.progCount {
			s.progVs = vs
		}
	})
	if i >= len(s.progVs) {
		return nil
	}
	return s.progVs[i]
}

// NewSchemaSetFS returns a set holding every *.json file under root in fsys,
// each under the URL base + its path relative to root.
func NewSchemaSetFS(fsys fs.FS, root, base string) (*SchemaSet, error) {
	docs := make(map[string]string)
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".json" {
			return err
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if root == "." {
			rel = p
		}
		docs[base+rel] = string(b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("rpc: reading schemas: %w", err)
	}
	return NewSchemaSet(docs), nil
}

// URLs returns the URLs of the documents in the set, sorted.
func (s *SchemaSet) URLs() []string {
	urls := make([]string, 0, len(s.docs))
	for u := range s.docs {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	return urls
}

// Compile returns the schema at location: a document URL, optionally with a
// JSON-pointer fragment such as "#/$defs/AddParams".
func (s *SchemaSet) Compile(location string) (*jsonschema.Schema, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if sch, ok := s.cache[location]; ok {
		return sch, nil
	}
	if err, ok := s.failed[location]; ok {
		return nil, err // compiling again would fail again, at a cost
	}
	if s.compiler == nil {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(s.draft)
		c.UseLoader(setLoader{s})
		s.compiler = c
	}
	sch, err := s.compiler.Compile(location)
	if err != nil {
		err = fmt.Errorf("rpc: compiling schema %s: %w", location, err)
		if s.failed == nil {
			s.failed = make(map[string]error)
		}
		s.failed[location] = err
		return nil, err
	}
	s.cache[location] = sch
	return sch, nil
}

// MustCompile is Compile for schemas known to be good, such as generated
// ones; it panics if the location does not compile.
func (s *SchemaSet) MustCompile(location string) *jsonschema.Schema {
	sch, err := s.Compile(location)
	if err != nil {
		panic(err)
	}
	return sch
}

// setLoader resolves URLs from the set's documents only.
type setLoader struct{ s *SchemaSet }

func (l setLoader) Load(url string) (any, error) {
	doc, ok := l.s.docs[url]
	if !ok {
		return nil, fmt.Errorf("schema %s is not in the schema set", url)
	}
	return jsonschema.UnmarshalJSON(strings.NewReader(doc))
}
