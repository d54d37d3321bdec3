package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// typesFile renders types_gen.go: every named type except unions, in name
// order.
func (e *emitter) typesFile() *jen.File {
	f := e.newFile()
	first := true
	for _, nt := range e.svc.types {
		if nt.kind == namedUnion {
			continue
		}
		if !first {
			f.Line()
		}
		first = false
		e.namedType(f, nt)
	}
	return f
}

func (e *emitter) typeDoc(f *jen.File, nt *namedType) {
	doc := nt.doc
	if doc == "" {
		doc = nt.name + " is generated from " + nt.origin.String() + "."
	}
	if len(nt.bases) > 0 {
		doc = joinNote(doc, "It includes the properties of "+joinWords(nt.bases)+" (allOf).")
	}
	doc = joinNote(doc, nt.note)
	comment(f, doc, nt.deprecated)
}

// joinWords lists names as "A", "A and B", "A, B and C".
func joinWords(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func (e *emitter) namedType(f *jen.File, nt *namedType) {
	e.typeDoc(f, nt)
	switch nt.kind {
	case namedStruct:
		f.Type().Id(nt.name).StructFunc(func(g *jen.Group) {
			structFields(g, nt, true)
			if nt.extra != nil {
				if len(nt.fields) > 0 {
					g.Line()
				}
				comment(g, "Extra holds the members the schema does not name as properties, so that they are encoded again as they were received.", false)
				g.Id("Extra").Map(jen.String()).Add(typeCode(*nt.extra)).Tag(map[string]string{"json": "-"})
			}
		})
		structMarshaler(f, nt)
		structUnmarshaler(f, nt)
		defaultAccessors(f, nt)
	case namedTuple:
		f.Type().Id(nt.name).StructFunc(func(g *jen.Group) {
			structFields(g, nt, false)
			if nt.tuple.rest != nil {
				g.Line()
				comment(g, "Rest holds the items after the positions the schema names.", false)
				g.Id("Rest").Index().Add(typeCode(*nt.tuple.rest))
			}
		})
		tupleMarshaler(f, nt)
		tupleUnmarshaler(f, nt)
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
		valueAppender(f, nt)
	case namedDefined:
		f.Type().Id(nt.name).Add(typeCode(nt.underlying))
		if hasAppendJSON(nt) {
			valueAppender(f, nt)
		}
	case namedAlias:
		f.Type().Id(nt.name).Op("=").Add(typeCode(nt.underlying))
	}
}

// structFields writes the fields of a struct or tuple, with their doc
// comments and (for structs) JSON tags.
func structFields(g *jen.Group, nt *namedType, tags bool) {
	for i, fl := range nt.fields {
		prev := nt.fields[max(i-1, 0)]
		if i > 0 && (fl.doc != "" || fl.deprecated || prev.doc != "" || prev.deprecated) {
			g.Line()
		}
		doc := fl.doc
		if fl.def != "" {
			doc = joinNote(doc, "Default: "+fl.def+" (Get"+fl.name+" returns it when the field is absent).")
		}
		comment(g, doc, fl.deprecated)
		s := g.Id(fl.name).Add(typeCode(fl.typ))
		if tags {
			tag := fl.jsonName
			if fl.omit != "" {
				tag += "," + fl.omit
			}
			s.Tag(map[string]string{"json": tag})
		}
	}
}

// structMarshaler gives a struct its encoder: AppendJSON, which writes it
// member by member, and MarshalJSON on top of it.
func structMarshaler(f *jen.File, nt *namedType) {
	structAppender(f, nt)
	marshalViaAppend(f, nt.name)
}

func fieldList(fs []*field) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.name)
	}
	return joinWords(names)
}

// knownNames are the member names of a struct's properties, as literals.
func knownNames(nt *namedType) []jen.Code {
	var out []jen.Code
	for _, fl := range nt.fields {
		out = append(out, jen.Lit(fl.jsonName))
	}
	return out
}

// defaultAccessors writes Get<Field> for each optional property with a
// default: the field's value when present, the default otherwise. Decoding
// never fills defaults in, so absence stays visible.
func defaultAccessors(f *jen.File, nt *namedType) {
	for _, fl := range nt.fields {
		if fl.def == "" {
			continue
		}
		ret := fl.typ
		ret.ptr = false
		var absent, value jen.Code
		switch {
		case fl.typ.ptr:
			absent = jen.Id("v").Dot(fl.name).Op("==").Nil()
			value = jen.Op("*").Id("v").Dot(fl.name)
		case fl.typ.shape() == shapeString:
			absent = jen.Id("v").Dot(fl.name).Op("==").Lit("")
			value = jen.Id("v").Dot(fl.name)
		default:
			absent = jen.Id("v").Dot(fl.name).Op("==").Nil()
			value = jen.Id("v").Dot(fl.name)
		}
		f.Line()
		comment(f, fmt.Sprintf("Get%s returns %s, or its default %s when it is absent.", fl.name, fl.name, fl.def), false)
		f.Func().Params(jen.Id("v").Id(nt.name)).Id("Get"+fl.name).Params().Add(typeCode(ret)).Block(
			jen.If(absent).BlockFunc(func(g *jen.Group) {
				if lit := defaultLiteral(ret, fl.defNode); lit != nil {
					g.Return(lit)
					return
				}
				g.Var().Id("d").Add(typeCode(ret))
				g.Id("_").Op("=").Qual(rpcPath, "DecodeJSON").Call(jen.Index().Byte().Call(goString(fl.def)), jen.Op("&").Id("d"))
				g.Return(jen.Id("d"))
			}),
			jen.Return(value),
		)
	}
}

// defaultLiteral is a Go constant for a scalar default, or nil.
func defaultLiteral(t typeRef, d *node) jen.Code {
	switch t.shape() {
	case shapeString:
		return jen.Lit(d.str)
	case shapeScalar:
		switch d.kind {
		case kindBool:
			return jen.Lit(d.boolean)
		case kindNumber:
			if underlyingBasic(t) == "int64" {
				v, _ := d.int64()
				return jen.Lit(int(v))
			}
			return jen.Id(d.number.String())
		}
	case shapeRaw:
		return jen.Qual(jsonPath, "RawMessage").Call(goString(nodeJSON(d)))
	}
	return nil
}
