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
	f.Var().Id("schemaSet").Op("=").Qual(rpcPath, "NewSchemaSet").Call(
		jen.Map(jen.String()).String().ValuesFunc(func(g *jen.Group) {
			for _, doc := range e.svc.docs {
				g.Line().Lit(doc.url).Op(":").Add(goString(string(doc.raw)))
			}
			g.Line()
		}),
	)
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
