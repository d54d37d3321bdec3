package gen

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc"
	goparser "go/parser"
	"go/printer"
	"go/token"
	"path"
	"path/filepath"
	"strings"

	"github.com/dave/jennifer/jen"
)

// Aliases asks for one more file, in another package: an alias for every
// type and constant of the generated types and unions files. Each alias
// carries its type's doc comment, declaration (fields, their tags and
// docs) and methods, because go doc and pkg.go.dev show only the comment of
// an alias: without them a user of the other package would see no fields.
// Package mcp re-exports the 2025-11-25 types this way.
type Aliases struct {
	// Out is the other package's directory, relative to the config file.
	Out string `json:"out"`
	// Package is the other package's name.
	Package string `json:"package"`
	// Import is the import path of the generated package, which the
	// aliases name.
	Import string `json:"import"`
	// File is the name of the aliases file; empty means types_gen.go.
	File string `json:"file,omitempty"`
}

// defaultAliasesFile is the aliases file's name when the config names none.
const defaultAliasesFile = "types_gen.go"

// check reports what is wrong with the aliases member of c.
func (a *Aliases) check(c *Config) []error {
	var errs []error
	bad := func(member, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: aliases: %s: %s", c.file, member, fmt.Sprintf(format, args...)))
	}
	switch {
	case a.Out == "":
		bad("out", "names no directory")
	case c.Out != "" && filepath.Clean(c.resolve(a.Out)) == filepath.Clean(c.OutDir()):
		bad("out", "%q is the output directory; the aliases belong in another package", a.Out)
	}
	if !token.IsIdentifier(a.Package) || token.IsKeyword(a.Package) || a.Package == "_" {
		bad("package", "%q is not a Go package name", a.Package)
	}
	if a.Import == "" || path.Clean(a.Import) != a.Import || strings.ContainsAny(a.Import, " \\:") || path.IsAbs(a.Import) {
		bad("import", "%q is not an import path", a.Import)
	}
	if f := a.File; f != "" && (filepath.Base(f) != f || !strings.HasSuffix(f, ".go") || strings.HasSuffix(f, "_test.go")) {
		bad("file", "%q must be a plain .go file name (not a test file)", f)
	}
	return errs
}

// aliasesFile renders the file Config.Aliases asks for from the generated
// files themselves, read as go doc reads them, so that each alias shows
// exactly what go doc shows for its type in the generated package.
func (e *emitter) aliasesFile(cfg *Config, files []File) (File, error) {
	a := cfg.Aliases
	fset := token.NewFileSet()
	var parsed []*ast.File
	byName := map[string]*ast.File{}
	for _, f := range files {
		if !strings.HasSuffix(f.Name, ".go") {
			continue
		}
		af, err := goparser.ParseFile(fset, f.Name, f.Content, goparser.ParseComments)
		if err != nil { // render has formatted it, so it parses
			panic(fmt.Sprintf("aliases: parsing the generated %s: %v", f.Name, err))
		}
		parsed = append(parsed, af)
		byName[f.Name] = af
	}
	p, err := doc.NewFromFiles(fset, parsed, a.Import)
	if err != nil { // only for files of several packages, or test files
		panic(fmt.Sprintf("aliases: reading the generated package: %v", err))
	}
	// Only the data types: the service interfaces, client and Register
	// functions of the methods file are the generated package's own API.
	from := map[string]bool{cfg.fileName("types"): true, cfg.fileName("unions"): true}
	declaredIn := func(n ast.Node) bool { return from[fset.Position(n.Pos()).Filename] }

	out := (&emitter{svc: e.svc, pkg: a.Package}).newFile()
	out.ImportName(a.Import, e.pkg)
	first := true
	sep := func() {
		if !first {
			out.Line()
		}
		first = false
	}
	for _, t := range p.Types {
		if !declaredIn(t.Decl) {
			continue
		}
		sep()
		src := byName[fset.Position(t.Decl.Pos()).Filename]
		for _, l := range commentLines(aliasDoc(fset, src, e.pkg, t)) {
			out.Comment(l)
		}
		out.Type().Id(t.Name).Op("=").Qual(a.Import, t.Name)
		for _, v := range t.Consts {
			out.Line()
			aliasConsts(out, a.Import, t.Name, v)
		}
	}
	for _, v := range p.Consts {
		if declaredIn(v.Decl) {
			sep()
			aliasConsts(out, a.Import, "", v)
		}
	}
	name := a.File
	if name == "" {
		name = defaultAliasesFile
	}
	f, err := render(name, out)
	f.Dir = cfg.resolve(a.Out)
	return f, err
}

// aliasDoc is the doc comment text of the alias of t: t's own doc, then its
// declaration and methods as go doc prints them.
func aliasDoc(fset *token.FileSet, src *ast.File, pkg string, t *doc.Type) string {
	var b strings.Builder
	if d := strings.TrimSpace(t.Doc); d != "" {
		b.WriteString(d)
		b.WriteString("\n\n")
	}
	fmt.Fprintf(&b, "It is [%s.%s], declared there as:\n\n", pkg, t.Name)
	spec := *t.Decl.Specs[0].(*ast.TypeSpec)
	spec.Doc, spec.Comment = nil, nil
	decl := &ast.GenDecl{TokPos: t.Decl.TokPos, Tok: token.TYPE, Specs: []ast.Spec{&spec}}
	// The comments of the file, for the docs of the fields.
	b.WriteString(indent(printNode(fset, &printer.CommentedNode{Node: decl, Comments: src.Comments})))
	if len(t.Methods) > 0 {
		b.WriteString("\n\nIts methods:\n\n")
		for _, m := range t.Methods {
			fd := *m.Decl
			fd.Doc, fd.Body = nil, nil
			b.WriteString(indent(printNode(fset, &fd)))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// aliasConsts declares, in a group of its own, a constant for each
// constant of v, with its doc comment; typ, when set, is their type, so
// that go doc lists them under the alias.
func aliasConsts(f *jen.File, imp, typ string, v *doc.Value) {
	f.Const().DefsFunc(func(g *jen.Group) {
		for _, s := range v.Decl.Specs {
			vs := s.(*ast.ValueSpec)
			for _, l := range commentLines(vs.Doc.Text()) {
				g.Comment(l)
			}
			for _, n := range vs.Names {
				c := g.Id(n.Name)
				if typ != "" {
					c.Id(typ)
				}
				c.Op("=").Qual(imp, n.Name)
			}
		}
	})
}

// printNode prints a declaration as gofmt would.
func printNode(fset *token.FileSet, n any) string {
	var buf bytes.Buffer
	cfg := printer.Config{Mode: printer.UseSpaces | printer.TabIndent, Tabwidth: 8}
	if err := cfg.Fprint(&buf, fset, n); err != nil {
		panic(fmt.Sprintf("printing a parsed declaration: %v", err)) // cannot happen for a tree the parser made
	}
	return buf.String()
}

// indent makes Go source a code block of a doc comment.
func indent(src string) string {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "\t" + l
	}
	return strings.Join(lines, "\n")
}

// commentLines turns doc comment text, as go/doc returns it, into the
// lines of a // comment, written out as they are ("//" first), so that
// code blocks and lists keep their indentation.
func commentLines(text string) []string {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return nil
	}
	var out []string
	for _, l := range strings.Split(text, "\n") {
		switch {
		case l == "":
			out = append(out, "//")
		case strings.HasPrefix(l, "\t"):
			out = append(out, "//"+l)
		default:
			out = append(out, "// "+l)
		}
	}
	return out
}
