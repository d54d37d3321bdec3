package gen

import (
	"strconv"

	"github.com/dave/jennifer/jen"
)

// typesFile renders types_gen.go: every named type, in name order.
func (e *emitter) typesFile() *jen.File {
	f := e.newFile()
	for i, nt := range e.svc.types {
		if i > 0 {
			f.Line()
		}
		e.namedType(f, nt)
	}
	return f
}

func (e *emitter) typeDoc(f *jen.File, nt *namedType) {
	doc := nt.doc
	if doc == "" {
		doc = nt.name + " is generated from " + nt.origin.String() + "."
	}
	if nt.note != "" {
		doc += "\n\n" + nt.note
	}
	comment(f, doc, nt.deprecated)
}

func (e *emitter) namedType(f *jen.File, nt *namedType) {
	e.typeDoc(f, nt)
	switch nt.kind {
	case namedStruct:
		f.Type().Id(nt.name).StructFunc(func(g *jen.Group) {
			for i, fl := range nt.fields {
				prev := nt.fields[max(i-1, 0)]
				if i > 0 && (fl.doc != "" || fl.deprecated || prev.doc != "" || prev.deprecated) {
					g.Line()
				}
				comment(g, fl.doc, fl.deprecated)
				tag := fl.jsonName
				if fl.omit != "" {
					tag += "," + fl.omit
				}
				g.Id(fl.name).Add(typeCode(fl.typ)).Tag(map[string]string{"json": tag})
			}
		})
		e.fillEmptyMarshaler(f, nt)
	case namedEnum:
		f.Type().Id(nt.name).String()
		f.Line()
		f.Const().DefsFunc(func(g *jen.Group) {
			for _, v := range nt.enum {
				g.Comment(v.name + " is " + strconv.Quote(v.value) + ".")
				g.Id(v.name).Id(nt.name).Op("=").Lit(v.value)
			}
		})
		f.Line()
		f.Comment("IsKnown reports whether v is one of the values the schema lists. Decoding")
		f.Comment("accepts any string, so that values added by a newer schema still arrive.")
		f.Func().Params(jen.Id("v").Id(nt.name)).Id("IsKnown").Params().Bool().Block(
			jen.Switch(jen.Id("v")).Block(
				jen.CaseFunc(func(g *jen.Group) {
					for _, v := range nt.enum {
						g.Id(v.name)
					}
				}).Block(jen.Return(jen.True())),
			),
			jen.Return(jen.False()),
		)
	case namedDefined:
		f.Type().Id(nt.name).Add(typeCode(nt.underlying))
	case namedAlias:
		f.Type().Id(nt.name).Op("=").Add(typeCode(nt.underlying))
	}
}

// fillEmptyMarshaler gives a struct with required lists or maps a MarshalJSON
// that writes a nil one as empty: null would break the schema.
func (e *emitter) fillEmptyMarshaler(f *jen.File, nt *namedType) {
	var fills []*field
	for _, fl := range nt.fields {
		if fl.fillEmpty {
			fills = append(fills, fl)
		}
	}
	if len(fills) == 0 {
		return
	}
	f.Line()
	comment(f, "MarshalJSON encodes "+nt.name+", writing a nil required list or map as empty rather than null, which the schema does not allow.", false)
	f.Func().Params(jen.Id("v").Id(nt.name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).BlockFunc(func(g *jen.Group) {
		g.Type().Id("plain").Id(nt.name)
		g.Id("p").Op(":=").Id("plain").Call(jen.Id("v"))
		for _, fl := range fills {
			g.If(jen.Id("p").Dot(fl.name).Op("==").Nil()).Block(
				jen.Id("p").Dot(fl.name).Op("=").Add(typeCode(fl.typ)).Values(),
			)
		}
		g.Return(jen.Qual(jsonPath, "Marshal").Call(jen.Id("p")))
	})
}
