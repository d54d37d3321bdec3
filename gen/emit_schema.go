package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// schemaFile renders schema_gen.go: the input documents, verbatim, in an
// rpc.SchemaSet, and one lazily compiled params schema per method.
func (e *emitter) schemaFile() *jen.File {
	f := e.newFile()
	comment(f, "schemaSet holds the schema documents "+e.svc.name+" was generated from, verbatim, keyed by their absolute URL.", false)
	args := []jen.Code{jen.Map(jen.String()).String().ValuesFunc(func(g *jen.Group) {
		for _, doc := range e.svc.docs {
			g.Line().Lit(doc.url).Op(":").Add(goString(string(doc.raw)))
		}
		g.Line()
	})}
	if e.svc.defaultDraft07() {
		args = append(args, jen.Qual(rpcPath, "WithDefaultDraft").Call(jen.Qual(jsonschemaPath, "Draft7")))
	}
	f.Var().Id("schemaSet").Op("=").Qual(rpcPath, "NewSchemaSet").Call(args...)
	for _, m := range e.svc.methods {
		if !m.hasParams {
			continue
		}
		f.Line()
		comment(f, fmt.Sprintf("%s returns the params schema of %s, compiled on first use.", paramsSchemaVar(m), m.name), false)
		f.Var().Id(paramsSchemaVar(m)).Op("=").Qual(syncPath, "OnceValue").Call(
			jen.Func().Params().Op("*").Qual(jsonschemaPath, "Schema").Block(
				jen.Return(jen.Id("schemaSet").Dot("MustCompile").Call(jen.Lit(m.paramsURL))),
			),
		)
	}
	return f
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
