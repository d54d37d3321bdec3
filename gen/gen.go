// Package gen turns a description of a JSON-RPC service — a schemarpc index
// (a JSON Schema 2020-12 document that lists its methods), a published MCP
// schema.json, or an OpenRPC document — into Go bindings: types, a server
// interface with its Register function, a typed client, and the embedded
// schemas the runtime validates params against. A plain JSON Schema
// document (draft-04 to 2020-12) gives types only.
//
// The work runs in two steps: the front end reads and checks the index and
// the documents it references, and fills an intermediate representation
// (named types and a method index); the emitter renders that with jennifer,
// which appears nowhere else.
// docs/codegen.md describes the inputs and the mapping.
package gen

import (
	"fmt"
	"go/token"
	"io/fs"
	"path/filepath"

	"github.com/dave/jennifer/jen"
)

// Options configure one run of Generate.
type Options struct {
	// Input is the path of the index document. Documents it references are
	// read relative to it and must lie in its directory tree, or under
	// Config.Root when the config names one.
	Input string
	// FS, when set, is where Input and the documents it references are
	// read from; Input is then a slash-separated path inside it, as
	// io/fs names files (schema.FS, for instance). Nil means the
	// operating system's files.
	FS fs.FS
	// Package is the name of the generated Go package.
	Package string
	// Format names the front end that reads Input: FormatSchemarpc,
	// FormatMCP, FormatOpenRPC or FormatJSONSchema. Empty means detect it
	// from the document (see DetectFormat).
	Format Format
	// Config holds renames, type overrides, initialisms and the URL of an
	// input without $id. Nil means none.
	Config *Config
	// ClientParams, when set, overrides Config.ClientParams: how the
	// client sends an either method's params, ClientParamsByName or
	// ClientParamsByPosition.
	ClientParams string
	// Warn, when set, receives each warning: something in the input that
	// generation carries on past (a keyword the generator does not know,
	// which every JSON Schema draft reads as an annotation). Each is
	// reported once, at the first place it was found.
	Warn func(*Error)
}

// File is one generated Go source file.
type File struct {
	Name    string // base name: types_gen.go, unions_gen.go (only when there are unions), methods_gen.go, schema_gen.go, or the config's names
	Content []byte // gofmt'ed source
	// Dir is the directory the file belongs in when it is not the output
	// directory (the file Config.Aliases asks for); empty otherwise.
	Dir string
}

// Path is where the file is written when out is the output directory.
func (f File) Path(out string) string {
	if f.Dir != "" {
		return filepath.Join(f.Dir, f.Name)
	}
	return filepath.Join(out, f.Name)
}

// Generate reads the index at opts.Input and returns the generated files,
// all rendered before any is returned. Problems in the input come back as an
// ErrorList, each naming the file and JSON pointer at fault.
func Generate(opts Options) ([]File, error) {
	return generate(opts, nil)
}

// generate is Generate, recording the Go type of every schema converted in
// typeAt when it is not nil.
func generate(opts Options, typeAt map[string]typeRef) ([]File, error) {
	if !token.IsIdentifier(opts.Package) || opts.Package == "_" || token.IsKeyword(opts.Package) {
		return nil, fmt.Errorf("package name %q is not a Go identifier", opts.Package)
	}
	cfg := opts.Config
	clientParams := opts.ClientParams
	if clientParams == "" && cfg != nil {
		clientParams = cfg.ClientParams
	}
	if err := checkClientParams(clientParams); err != nil {
		return nil, fmt.Errorf("client params: %v", err)
	}
	svc, err := load(opts, false, typeAt)
	if err != nil {
		return nil, err
	}
	e := &emitter{svc: svc, pkg: opts.Package, clientByPosition: clientParams == ClientParamsByPosition}
	if cfg != nil && len(cfg.Recurring) > 0 {
		e.recurring = map[string]bool{}
		for _, name := range cfg.Recurring {
			e.recurring[name] = false
		}
	}
	if cfg != nil && cfg.Documents != nil {
		if e.docPaths, err = cfg.Documents.paths(svc); err != nil {
			return nil, err
		}
		e.documents = cfg.Documents
	}
	parts := []struct {
		role string
		file func() *jen.File
	}{
		{"types", e.typesFile},
		{"unions", e.unionsFile},
		{"methods", e.methodsFile},
		{"schema", e.schemaFile},
	}
	var files []File
	for _, part := range parts {
		if part.role == "unions" && !e.hasUnions() {
			continue // no unions, no file
		}
		if part.role == "methods" && svc.typesOnly {
			continue // no methods: no server, client or constants
		}
		f, err := render(cfg.fileName(part.role), part.file())
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	for _, name := range sortedKeys(e.recurring) {
		if !e.recurring[name] {
			return nil, fmt.Errorf("recurring: %q is not a generated struct with members", name)
		}
	}
	if cfg != nil && cfg.Aliases != nil {
		f, err := e.aliasesFile(cfg, files)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	if svc.lock {
		for _, render := range []func() (File, error){e.lockFile, e.openRPCFile} {
			f, err := render()
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
	}
	return files, nil
}
