package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// schemaFile renders schema_gen.go: the input documents, verbatim (or
// where Config.Documents says they are), in an rpc.SchemaSet with the
// program of the params validators, and one params schema per method,
// which compiles nothing until it must explain a failure.
func (e *emitter) schemaFile() *jen.File {
	f := e.newFile()
	var args []jen.Code
	if d := e.documents; d != nil {
		t, _ := parseGoType(d.FS) // checked with the config
		comment(f, "schemaSet reads the schema documents "+e.svc.name+" was generated from in "+t.name+" of package "+t.path+", where each lies at its URL's path below "+d.Base+".", false)
		paths := []jen.Code{jen.Qual(t.path, t.name), jen.Lit(d.Base)}
		for _, p := range e.docPaths {
			paths = append(paths, jen.Line().Lit(p))
		}
		args = []jen.Code{jen.Nil(), jen.Qual(rpcPath, "WithFS").Call(append(paths, jen.Line())...)}
	} else {
		comment(f, "schemaSet holds the schema documents "+e.svc.name+" was generated from, verbatim, keyed by their absolute URL.", false)
		args = []jen.Code{jen.Map(jen.String()).String().ValuesFunc(func(g *jen.Group) {
			for _, doc := range e.svc.docs {
				g.Line().Lit(doc.url).Op(":").Add(goString(string(doc.raw)))
			}
			g.Line()
		})}
	}
	if e.svc.defaultDraft07() {
		args = append(args, jen.Qual(rpcPath, "WithDefaultDraft").Call(jen.Qual(rpcPath, "Draft7")))
	}
	if prog := e.svc.program; prog.text != "" {
		locs := []jen.Code{jen.Id("schemaProgram")}
		for _, l := range prog.locations {
			locs = append(locs, jen.Line().Lit(l))
		}
		args = append(args, jen.Qual(rpcPath, "WithProgram").Call(append(locs, jen.Line())...))
	}
	f.Var().Id("schemaSet").Op("=").Qual(rpcPath, "NewSchemaSet").Call(args...)
	if prog := e.svc.program; prog.text != "" {
		f.Line()
		comment(f, "schemaProgram is the params schemas' fast validators, compiled by rpcgen when this file was generated (see rpc.WithProgram).", false)
		f.Const().Id("schemaProgram").Op("=").Add(programLiteral(prog.text))
	}
	for _, m := range e.svc.methods {
		if !m.hasParams {
			continue
		}
		f.Line()
		comment(f, fmt.Sprintf("%s is the params schema of %s.", paramsSchemaVar(m), m.name), false)
		f.Var().Id(paramsSchemaVar(m)).Op("=").Id("schemaSet").Dot("Schema").Call(jen.Lit(m.paramsURL))
	}
	return f
}

// programLiteral renders a program as a Go string literal in lines of at
// most 64 bytes of program, joined with +, so that the generated file stays
// readable in a diff.
func programLiteral(text string) jen.Code {
	const width = 64
	var parts []jen.Code
	for len(text) > 0 {
		n := min(width, len(text))
		parts = append(parts, jen.Lit(text[:n]))
		text = text[n:]
	}
	out := jen.Empty()
	for i, p := range parts {
		if i > 0 {
			out.Op("+").Line()
		}
		out.Add(p)
	}
	return out
}

// defaultDraft07 reports whether a document is draft-07 without saying so
// in $schema (OpenRPC's schemas): then the SchemaSet must read documents
// without $schema as draft-07 rather than 2020-12.
func (s *service) defaultDraft07() bool {
	for _, d := range s.docs {
		if d.dialect == draft07 && d.root != nil && d.root.get("$schema") == nil {
			return true
		}
	}
	return false
}
