package gen

import (
	"github.com/dave/jennifer/jen"
)

// present is the condition under which an optional tuple position is
// written.
func present(fl *field) *jen.Statement {
	if fl.typ.kind == refNullable {
		return jen.Id("v").Dot(fl.name).Dot("Set")
	}
	return jen.Id("v").Dot(fl.name).Op("!=").Nil()
}

// tupleMarshaler writes a tuple as a JSON array: the required positions,
// then the optional ones up to the last present one, then Rest.
func tupleMarshaler(f *jen.File, nt *namedType) {
	tp := nt.tuple
	f.Line()
	comment(f, "MarshalJSON writes "+nt.name+" as a JSON array, leaving out absent optional positions at the end. An absent position followed by a present one is written as null.", false)
	f.Func().Params(jen.Id("v").Id(nt.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).BlockFunc(func(g *jen.Group) {
		for _, fl := range nt.fields {
			if fl.fillEmpty {
				g.If(jen.Id("v").Dot(fl.name).Op("==").Nil()).Block(
					jen.Id("v").Dot(fl.name).Op("=").Add(typeCode(fl.typ)).Values(),
				)
			}
		}
		g.Id("items").Op(":=").Index().Any().ValuesFunc(func(vg *jen.Group) {
			for _, fl := range nt.fields {
				vg.Id("v").Dot(fl.name)
			}
		})
		if tp.required < len(nt.fields) {
			g.Id("n").Op(":=").Lit(tp.required)
			for i, fl := range nt.fields[tp.required:] {
				g.If(present(fl)).Block(jen.Id("n").Op("=").Lit(tp.required + i + 1))
			}
			if tp.rest != nil {
				g.If(jen.Len(jen.Id("v").Dot("Rest")).Op(">").Lit(0)).Block(jen.Id("n").Op("=").Len(jen.Id("items")))
			}
			g.Id("items").Op("=").Id("items").Index(jen.Empty(), jen.Id("n"))
		}
		if tp.rest != nil {
			g.For(jen.List(jen.Id("_"), jen.Id("x")).Op(":=").Range().Id("v").Dot("Rest")).Block(
				jen.Id("items").Op("=").Append(jen.Id("items"), jen.Id("x")),
			)
		}
		g.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Id("items")))
	})
}

// tupleUnmarshaler reads a tuple from a JSON array; missing positions stay
// zero (absent), and items past the positions go to Rest.
func tupleUnmarshaler(f *jen.File, nt *namedType) {
	tp := nt.tuple
	n := len(nt.fields)
	f.Line()
	comment(f, "UnmarshalJSON reads "+nt.name+" from a JSON array. Positions the array does not reach are left absent.", false)
	f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().BlockFunc(func(g *jen.Group) {
		g.Var().Id("items").Index().Qual(jsonPath, "RawMessage")
		g.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("items")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Err()),
		)
		g.Op("*").Id("v").Op("=").Id(nt.name).Values()
		g.Id("targets").Op(":=").Index().Any().ValuesFunc(func(vg *jen.Group) {
			for _, fl := range nt.fields {
				vg.Op("&").Id("v").Dot(fl.name)
			}
		})
		g.For(jen.List(jen.Id("i"), jen.Id("item")).Op(":=").Range().Id("items")).BlockFunc(func(lg *jen.Group) {
			lg.If(jen.Id("i").Op(">=").Lit(n)).Block(jen.Break())
			lg.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("item"), jen.Id("targets").Index(jen.Id("i"))), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Err()),
			)
		})
		if tp.rest != nil {
			g.If(jen.Len(jen.Id("items")).Op(">").Lit(n)).Block(
				jen.Id("v").Dot("Rest").Op("=").Make(jen.Index().Add(typeCode(*tp.rest)), jen.Len(jen.Id("items")).Op("-").Lit(n)),
				jen.For(jen.List(jen.Id("i"), jen.Id("item")).Op(":=").Range().Id("items").Index(jen.Lit(n), jen.Empty())).Block(
					jen.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("item"), jen.Op("&").Id("v").Dot("Rest").Index(jen.Id("i"))), jen.Err().Op("!=").Nil()).Block(
						jen.Return(jen.Err()),
					),
				),
			)
		}
		g.Return(jen.Nil())
	})
}
