package rpc

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"sync"

	"github.com/schemarpc/schemarpc/internal/fastschema"
)

// SchemaSet holds JSON Schema documents by absolute URL and compiles schema
// locations out of them on demand, with schemarpc's own compiler. It never
// touches the network or the file system: a reference to a URL outside the
// set is a compile error. Documents without "$schema" are read as Draft
// 2020-12 unless the set is made with [WithDefaultDraft].
//
// A SchemaSet is safe for concurrent use, and so are its schemas.
type SchemaSet struct {
	docs  map[string]string
	draft Draft

	// The documents of WithFS: read from fsys when a compile needs them.
	fsys   fs.FS
	fsBase string
	fsDocs map[string]string // URL → path in fsys

	compiler func() (*fastschema.JSONCompiler, error) // made on first compile

	progText     string
	progCount    int            // how many roots the program has
	programRoots map[string]int // location → index among the program's roots
	progOnce     sync.Once
	prog         *fastschema.Program // nil when the program does not open

}

// SchemaSetOption configures a SchemaSet.
type SchemaSetOption func(*SchemaSet)

// WithDefaultDraft reads documents without "$schema" as draft d (for
// example Draft7 for the schemas of an OpenRPC document).
func WithDefaultDraft(d Draft) SchemaSetOption {
	return func(s *SchemaSet) { s.draft = d }
}

// WithProgram gives the set the fast validators of locations, compiled when
// the code was generated: program is the text rpcgen made of them, and
// locations are in the order it made it. [SchemaSet.Schema] of one of them
// checks messages without compiling anything. The program is read on
// first use, each location's part when that location is first checked; a
// location whose part does not read (a program made by an rpcgen of
// another format version, or a damaged one) is compiled from the documents
// instead, with the same answers.
func WithProgram(program string, locations ...string) SchemaSetOption {
	return func(s *SchemaSet) {
		s.progText, s.progCount = program, len(locations)
		s.programRoots = make(map[string]int, len(locations))
		for i, l := range locations {
			s.programRoots[l] = i
		}
	}
}

// WithFS gives the set the documents at paths in fsys, each under the URL
// base + its path. They are read when a compile first needs them, and never
// copied before: a package that embeds the documents (an embed.FS) shares
// them with the sets made of it, where a map of their texts would be a
// second copy in the program. A document that cannot be read then fails
// the compile that needs it with the read's error (a path missing from
// fsys is reported as not among the documents). rpcgen writes it into a
// generated package whose config names such a file system
// (Config.Documents).
func WithFS(fsys fs.FS, base string, paths ...string) SchemaSetOption {
	return func(s *SchemaSet) {
		s.fsys, s.fsBase = fsys, base
		s.fsDocs = make(map[string]string, len(paths))
		for _, p := range paths {
			s.fsDocs[base+p] = p
		}
	}
}

// NewSchemaSet returns a set holding docs, which maps each document's
// absolute URL to its JSON text. It compiles nothing.
func NewSchemaSet(docs map[string]string, opts ...SchemaSetOption) *SchemaSet {
	s := &SchemaSet{docs: docs, draft: Draft2020}
	for _, o := range opts {
		o(s)
	}
	s.compiler = sync.OnceValues(func() (*fastschema.JSONCompiler, error) {
		return fastschema.NewJSONCompiler(s.document, int(s.draft))
	})
	return s
}

// document returns the text of the document at url, an error matching
// fs.ErrNotExist when the set has none, or the error reading it.
func (s *SchemaSet) document(url string) ([]byte, error) {
	if d, ok := s.docs[url]; ok {
		return []byte(d), nil
	}
	p, ok := s.fsDocs[url]
	if !ok {
		return nil, fs.ErrNotExist
	}
	return fs.ReadFile(s.fsys, p)
}

// program returns the validator of the program's i-th root, or nil when
// the program does not decode. Only the root's own nodes are decoded, the
// first time it is asked for.
func (s *SchemaSet) program(i int) *fastschema.Validator {
	s.progOnce.Do(func() {
		p, err := fastschema.Open(s.progText)
		if err == nil && p.Len() == s.progCount {
			s.prog = p
		}
	})
	if s.prog == nil {
		return nil
	}
	v, err := s.prog.Root(i)
	if err != nil {
		return nil
	}
	return v
}

// NewSchemaSetFS returns a set holding every *.json file under root in fsys,
// each under the URL base + its path relative to root. It lists the files
// and reads each when a compile first needs it (see [WithFS]).
func NewSchemaSetFS(fsys fs.FS, root, base string) (*SchemaSet, error) {
	sub, err := fs.Sub(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("rpc: reading schemas: %w", err)
	}
	var paths []string
	err = fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".json" {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("rpc: reading schemas: %w", err)
	}
	return NewSchemaSet(nil, WithFS(sub, base, paths...)), nil
}

// URLs returns the URLs of the documents in the set, sorted.
func (s *SchemaSet) URLs() []string {
	urls := make([]string, 0, len(s.docs)+len(s.fsDocs))
	for u := range s.docs {
		urls = append(urls, u)
	}
	for u := range s.fsDocs {
		if _, ok := s.docs[u]; !ok {
			urls = append(urls, u)
		}
	}
	sort.Strings(urls)
	return urls
}

// Compile returns the schema at location (a document URL, optionally with
// a fragment: a JSON pointer such as "#/$defs/AddParams", or an anchor),
// compiled: it fails at once if the schema does not compile, where
// [SchemaSet.Schema] would fail the first check against it.
func (s *SchemaSet) Compile(location string) (*Schema, error) {
	sch := s.Schema(location)
	if _, err := sch.compiled(); err != nil {
		return nil, err
	}
	return sch, nil
}

// MustCompile is Compile for schemas known to be good, such as generated
// ones; it panics if the location does not compile.
func (s *SchemaSet) MustCompile(location string) *Schema {
	sch, err := s.Compile(location)
	if err != nil {
		panic(err)
	}
	return sch
}

// compile compiles location with the set's compiler, once.
func (s *SchemaSet) compile(location string) (*fastschema.Validator, error) {
	jc, err := s.compiler()
	if err != nil {
		return nil, fmt.Errorf("rpc: schema set: %w", err)
	}
	v, err := jc.Compile(location)
	if err != nil {
		var se *fastschema.SchemaError
		if errors.As(err, &se) {
			return nil, &CompileError{Location: location, At: se.Location, Reason: se.Reason}
		}
		return nil, fmt.Errorf("rpc: compiling schema %s: %w", location, err)
	}
	if f := v.Refuses(); f != "" {
		// Every failure must be explained, and this one could not be.
		return nil, &CompileError{Location: location, At: location, Reason: "it uses " + f + ", which schemarpc does not evaluate"}
	}
	return v, nil
}

// Program compiles the schemas at locations and returns their program: the
// text [WithProgram] gives a set, so that checking against them compiles
// nothing (rpcgen writes one into every generated package).
func (s *SchemaSet) Program(locations ...string) (string, error) {
	vs := make([]*fastschema.Validator, len(locations))
	for i, l := range locations {
		v, err := s.compile(l)
		if err != nil {
			return "", err
		}
		vs[i] = v
	}
	return fastschema.Encode(vs)
}

// CompileError is a schema that does not compile.
type CompileError struct {
	// Location is the schema's location, as given to the set.
	Location string
	// At is the URL and JSON pointer of the keyword at fault (or of the
	// schema, when no one keyword is).
	At string
	// Reason says what is wrong there.
	Reason string
}

// Error names the schema, the place at fault and the reason.
func (e *CompileError) Error() string {
	if e.At == e.Location {
		return "rpc: schema " + e.Location + " does not compile: " + e.Reason
	}
	return "rpc: schema " + e.Location + " does not compile: at " + e.At + ": " + e.Reason
}
