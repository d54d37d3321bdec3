package gen

import "github.com/dave/jennifer/jen"

// positionalParams writes the statements that turn a client method's params
// into what a by-position or either method takes, and returns the
// expression to send: rpc.EncodeParams, given the positions and which of
// them may be null, sends a by-position method's params as an array in
// declared order (absent trailing params left out, an absent one before a
// present one as null when its schema allows null, an error otherwise) and
// an either method's params as that array when it says exactly what the
// object says, by name otherwise. Nil params stay absent.
func positionalParams(g *jen.Group, m *method) *jen.Statement {
	nullable := jen.Nil()
	if len(m.paramNullable) > 0 {
		nullable = jen.Index().Bool().ValuesFunc(func(v *jen.Group) {
			for _, n := range m.paramNullable {
				v.Lit(n)
			}
		})
	}
	g.List(jen.Id("p"), jen.Err()).Op(":=").Qual(rpcPath, "EncodeParams").Call(
		jen.Id("params"),
		jen.Qual(rpcPath, paramStructureNames[m.structure]),
		jen.Index().String().ValuesFunc(func(v *jen.Group) {
			for _, n := range m.paramNames {
				v.Lit(n)
			}
		}),
		nullable,
	)
	fail := jen.Return(jen.Err())
	if !m.notification {
		fail = jen.Return(zeroValue(m.result), jen.Err())
	}
	g.If(jen.Err().Op("!=").Nil()).Block(fail)
	return jen.Id("p")
}
