package gen

import "github.com/dave/jennifer/jen"

// structUnmarshaler gives a struct with an Extra map an UnmarshalJSON that
// fills it with the members its properties do not name. It walks the object
// once with rpc.DecodeMembersChecked: each property's member is decoded
// straight into its field (see memberDecode), and every other member into
// Extra. The walk checks the whole object as it goes, so the struct is
// also marked as a rpc.CheckingUnmarshaler, which rpc.DecodeJSON does not
// check again; UnmarshalCheckedJSON is the same walk for input the strict
// scanner has already accepted (rpc.CheckedUnmarshaler), which it does
// not check again: a member value handed out by the walk, or params read
// with their message. Both share one unexported decodeMembers.
func structUnmarshaler(f *jen.File, nt *namedType) {
	if nt.extra == nil {
		return
	}
	f.Line()
	comment(f, "UnmarshalJSON decodes "+nt.name+", keeping the members the schema does not name in Extra.", false)
	f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Return(jen.Id("v").Dot("decodeMembers").Call(jen.Id("b"), jen.False())),
	)
	f.Line()
	comment(f, "UnmarshalCheckedJSON is UnmarshalJSON for input the strict scanner has already accepted, which it does not check again (rpc.CheckedUnmarshaler).", false)
	f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id("UnmarshalCheckedJSON").Params(jen.Id("b").Index().Byte()).Error().Block(
		jen.Return(jen.Id("v").Dot("decodeMembers").Call(jen.Id("b"), jen.True())),
	)
	f.Line()
	comment(f, "decodeMembers is UnmarshalJSON, or with checked UnmarshalCheckedJSON.", false)
	f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id("decodeMembers").Params(jen.Id("b").Index().Byte(), jen.Id("checked").Bool()).Error().Block(
		jen.Op("*").Id("v").Op("=").Id(nt.name).Values(),
		jen.List(jen.Id("extra"), jen.Err()).Op(":=").Qual(rpcPath, "DecodeMembersChecked").Index(typeCode(*nt.extra)).Call(
			jen.Id("b"),
			jen.Id("checked"),
			jen.Func().Params(jen.List(memberNameParam(nt), jen.Id("value")).Index().Byte()).Params(jen.Bool(), jen.Error()).BlockFunc(func(g *jen.Group) {
				memberSwitch(g, nt)
				g.Return(jen.False(), jen.Nil())
			}),
		),
		jen.Id("v").Dot("Extra").Op("=").Id("extra"),
		jen.Return(jen.Err()),
	)
	f.Line()
	comment(f, "UnmarshalJSONChecksInput marks "+nt.name+" as a rpc.CheckingUnmarshaler: its UnmarshalJSON checks its whole input, so rpc.DecodeJSON does not check it first.", false)
	f.Func().Params(jen.Op("*").Id(nt.name)).Id("UnmarshalJSONChecksInput").Params().Block()
}

// memberNameParam names the member-name parameter of the callback: "_"
// when the struct has no properties to look it up against.
func memberNameParam(nt *namedType) jen.Code {
	if len(nt.fields) == 0 {
		return jen.Id("_")
	}
	return jen.Id("name")
}

// memberSwitch writes the lookup from a member name to its field: a case
// per property that decodes the value into the field.
func memberSwitch(g *jen.Group, nt *namedType) {
	if len(nt.fields) == 0 {
		return
	}
	g.Switch(jen.String().Call(jen.Id("name"))).BlockFunc(func(sw *jen.Group) {
		for _, fl := range nt.fields {
			sw.Case(jen.Lit(fl.jsonName)).Block(
				jen.Return(jen.True(), memberDecode(fl.typ, jen.Op("&").Id("v").Dot(fl.name))),
			)
		}
	})
}
