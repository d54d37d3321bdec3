package gen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// hasUnions reports whether the service declares any union, and so needs
// unions_gen.go.
func (e *emitter) hasUnions() bool {
	for _, nt := range e.svc.types {
		if nt.kind == namedUnion {
			return true
		}
	}
	return false
}

// unionsFile renders unions_gen.go: for each union, the box type with its
// codec and accessors, the sealed variant interface, the Unknown variant
// and the marker methods; then the helpers the codecs share.
func (e *emitter) unionsFile() *jen.File {
	f := e.newFile()
	var need helperNeeds
	first := true
	for _, nt := range e.svc.types {
		if nt.kind != namedUnion {
			continue
		}
		if !first {
			f.Line()
		}
		first = false
		e.unionType(f, nt, &need)
	}
	unionHelpers(f, need)
	return f
}

// helperNeeds says which shared helpers the union codecs call.
type helperNeeds struct {
	tag, integer, has bool
}

// describeVariant says how the codec recognises a variant, for the docs.
func describeVariant(uc *unionCase, v *variant) string {
	switch {
	case uc.class == '{' && uc.tagProp != "":
		var tags []string
		for _, t := range v.tags {
			tags = append(tags, fmt.Sprintf("%q: %s", uc.tagProp, jsonQuote(t)))
		}
		s := strings.Join(tags, " or ")
		if uc.def == v {
			s += ", or no " + strconv.Quote(uc.tagProp)
		}
		return s
	case uc.byItem:
		var words []string
		for _, cl := range v.itemClasses {
			for _, u := range unionClasses {
				if u.class == cl {
					words = append(words, u.word)
				}
			}
		}
		s := "an array of " + strings.Join(words, " or ")
		if uc.variants[0] == v {
			s += ", or an empty array"
		}
		return s
	case uc.class == '{' && len(v.keys) > 0:
		var keys []string
		for _, k := range v.keys {
			keys = append(keys, strconv.Quote(k))
		}
		return "an object with " + strings.Join(keys, " and ") + " (the largest required set present wins)"
	case uc.class == '{' && len(uc.variants) > 1 && v.key == "":
		return "an object with none of the members above"
	case uc.class == '{' && len(uc.variants) > 1:
		return "an object with " + strconv.Quote(v.key)
	case uc.class == '0' && uc.integer == v:
		return "an integer"
	case uc.class == '0' && uc.number == v:
		return "a number that is not written as an integer"
	case uc.class == '0' && v.kinds&kNumber == 0:
		return "an integer"
	}
	return map[byte]string{'"': "a string", '0': "a number", 't': "a boolean", '{': "an object", '[': "an array"}[uc.class]
}

func (e *emitter) unionType(f *jen.File, nt *namedType, need *helperNeeds) {
	u := nt.union
	doc := nt.doc
	if doc == "" {
		doc = nt.name + " is generated from " + nt.origin.String() + "."
	}
	var lines []string
	how := map[*variant][]string{}
	for _, uc := range u.cases {
		for _, v := range uc.variants {
			how[v] = append(how[v], describeVariant(uc, v))
		}
	}
	for _, v := range u.variants {
		lines = append(lines, "- "+v.typ.name+": "+strings.Join(how[v], "; "))
	}
	if u.nullable {
		lines = append(lines, "- nil: null")
	}
	lines = append(lines, "- "+u.unknown+": any other value, kept as received")
	doc = joinNote(doc, "Value holds one of ("+u.keyword+"):\n\n"+strings.Join(lines, "\n"))
	doc = joinNote(doc, nt.note)
	comment(f, doc, nt.deprecated)
	f.Type().Id(nt.name).Struct(
		jen.Comment("Value is the variant; nil is written as null."),
		jen.Id("Value").Id(u.iface),
	)

	// The sealed interface and its members.
	f.Line()
	var names []string
	for _, v := range u.variants {
		names = append(names, v.typ.name)
	}
	comment(f, fmt.Sprintf("%s is implemented by the variants of %s (%s and %s), values or pointers; no other type can implement it.", u.iface, nt.name, strings.Join(names, ", "), u.unknown), false)
	f.Type().Id(u.iface).Interface(jen.Id(u.marker).Params())
	for _, v := range u.variants {
		f.Line()
		f.Func().Params(jen.Id(v.typ.name)).Id(u.marker).Params().Block()
	}
	f.Line()
	comment(f, fmt.Sprintf("%s holds a value of %s that matches none of the variants the schema lists (one a newer peer may send), as it was received, so that it is sent on unchanged.", u.unknown, nt.name), false)
	f.Type().Id(u.unknown).Struct(
		jen.Comment("Raw is the value's JSON text."),
		jen.Id("Raw").Qual(jsonPath, "RawMessage"),
		jen.Line(),
		jen.Comment("Compact says that Raw is compact JSON text the program built itself"),
		jen.Comment("(with AppendJSON, say), which AppendJSON then copies as it is, where it"),
		jen.Comment("otherwise checks and compacts Raw. Text that is not compact JSON breaks"),
		jen.Comment("the message it is written into."),
		jen.Id("Compact").Bool(),
	)
	f.Line()
	f.Func().Params(jen.Id(u.unknown)).Id(u.marker).Params().Block()
	f.Line()
	comment(f, "MarshalJSON writes Raw unchanged, or null when it is empty.", false)
	f.Func().Params(jen.Id("v").Id(u.unknown)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("v").Dot("Raw")).Op("==").Lit(0)).Block(
			jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
		),
		jen.Return(jen.Id("v").Dot("Raw"), jen.Nil()),
	)

	unknownAppender(f, u.unknown)

	// The codec.
	unionAppender(f, nt)
	marshalViaAppend(f, nt.name)
	f.Line()
	comment(f, "UnmarshalJSON picks the variant by the value's JSON kind"+dispatchWords(u)+"; a value no variant claims becomes "+u.unknown+". It does not validate: the runtime validator does.", false)
	f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id("UnmarshalJSON").Params(jen.Id("b").Index().Byte()).Error().BlockFunc(func(g *jen.Group) {
		g.Switch(jen.Id("unionClass").Call(jen.Id("b"))).BlockFunc(func(sg *jen.Group) {
			if u.nullable {
				sg.Case(jen.LitRune('n')).Block(
					jen.Id("v").Dot("Value").Op("=").Nil(),
					jen.Return(jen.Nil()),
				)
			}
			for _, uc := range u.cases {
				sg.Case(jen.LitRune(rune(uc.class))).BlockFunc(func(cg *jen.Group) {
					e.unionCase(cg, nt, uc, need)
				})
			}
		})
		g.Id("v").Dot("Value").Op("=").Id(u.unknown).Values(jen.Id("Raw").Op(":").Append(jen.Qual(jsonPath, "RawMessage").Call(jen.Nil()), jen.Id("b").Op("...")))
		g.Return(jen.Nil())
	})

	// Accessors, in variant order.
	for _, v := range u.variants {
		f.Line()
		comment(f, fmt.Sprintf("As%s returns the %s variant, and whether the value is one.", v.accessor, v.typ.name), false)
		f.Func().Params(jen.Id("v").Id(nt.name)).Id("As"+v.accessor).Params().Params(jen.Op("*").Id(v.typ.name), jen.Bool()).Block(
			jen.Switch(jen.Id("x").Op(":=").Id("v").Dot("Value").Assert(jen.Type())).Block(
				jen.Case(jen.Id(v.typ.name)).Block(jen.Return(jen.Op("&").Id("x"), jen.True())),
				jen.Case(jen.Op("*").Id(v.typ.name)).Block(jen.Return(jen.Id("x"), jen.Id("x").Op("!=").Nil())),
			),
			jen.Return(jen.Nil(), jen.False()),
		)
	}
}

// dispatchWords adds how object variants are told apart to the codec doc.
func dispatchWords(u *union) string {
	for _, uc := range u.cases {
		if uc.class == '{' && len(uc.variants) > 1 {
			if uc.tagProp != "" {
				return " and, for objects, by the value of " + strconv.Quote(uc.tagProp)
			}
			return " and, for objects, by the members present"
		}
	}
	return ""
}

// decodeVariant decodes b as the variant and stores it.
func decodeVariant(g *jen.Group, v *variant) {
	g.Var().Id("x").Id(v.typ.name)
	g.Id("err").Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("x"))
	g.Id("v").Dot("Value").Op("=").Id("x")
	g.Return(jen.Id("err"))
}

func (e *emitter) unionCase(g *jen.Group, nt *namedType, uc *unionCase, need *helperNeeds) {
	switch {
	case len(uc.variants) == 1 && uc.class == '0' && uc.variants[0].kinds&kNumber == 0:
		// An integer variant only: other numbers are unknown.
		need.integer = true
		g.If(jen.Id("unionInteger").Call(jen.Id("b"))).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, uc.variants[0]) })
	case len(uc.variants) == 1:
		decodeVariant(g, uc.variants[0])
	case uc.class == '0':
		need.integer = true
		g.If(jen.Id("unionInteger").Call(jen.Id("b"))).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, uc.integer) })
		decodeVariant(g, uc.number)
	case uc.tagProp != "":
		need.tag = true
		g.Var().Id("members").Map(jen.String()).Qual(jsonPath, "RawMessage")
		g.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("members")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		g.List(jen.Id("tag"), jen.Id("ok")).Op(":=").Id("members").Index(jen.Lit(uc.tagProp))
		if uc.def != nil {
			g.If(jen.Op("!").Id("ok")).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, uc.def) })
		}
		// Sorted by tag, so the output does not depend on variant order.
		type arm struct {
			tags []string
			v    *variant
		}
		var arms []arm
		for _, v := range uc.variants {
			tags := append([]string(nil), v.tags...)
			sort.Strings(tags)
			arms = append(arms, arm{tags, v})
		}
		g.If(jen.List(jen.Id("s"), jen.Id("isString")).Op(":=").Id("unionTag").Call(jen.Id("tag")), jen.Id("ok").Op("&&").Id("isString")).Block(
			jen.Switch(jen.Id("s")).BlockFunc(func(sg *jen.Group) {
				for _, a := range arms {
					var lits []jen.Code
					for _, t := range a.tags {
						lits = append(lits, jen.Lit(t))
					}
					sg.Case(lits...).BlockFunc(func(cg *jen.Group) { decodeVariant(cg, a.v) })
				}
			}),
		)
	case uc.byItem:
		g.Var().Id("items").Index().Qual(jsonPath, "RawMessage")
		g.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("items")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		g.If(jen.Len(jen.Id("items")).Op("==").Lit(0)).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, uc.variants[0]) })
		g.Switch(jen.Id("unionClass").Call(jen.Id("items").Index(jen.Lit(0)))).BlockFunc(func(sg *jen.Group) {
			for _, v := range uc.variants {
				var lits []jen.Code
				for _, cl := range v.itemClasses {
					lits = append(lits, jen.LitRune(rune(cl)))
				}
				sg.Case(lits...).BlockFunc(func(cg *jen.Group) { decodeVariant(cg, v) })
			}
		})
	case uc.bySet != nil:
		need.has = true
		g.Var().Id("members").Map(jen.String()).Qual(jsonPath, "RawMessage")
		g.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("members")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		for _, v := range uc.bySet {
			args := []jen.Code{jen.Id("members")}
			for _, k := range v.keys {
				args = append(args, jen.Lit(k))
			}
			g.If(jen.Id("unionHas").Call(args...)).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, v) })
		}
		if uc.def != nil {
			decodeVariant(g, uc.def)
		}
	default:
		g.Var().Id("members").Map(jen.String()).Qual(jsonPath, "RawMessage")
		g.If(jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("b"), jen.Op("&").Id("members")), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err()))
		for _, v := range uc.variants {
			if v != uc.def {
				g.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("members").Index(jen.Lit(v.key)), jen.Id("ok")).BlockFunc(func(ig *jen.Group) { decodeVariant(ig, v) })
			}
		}
		if uc.def != nil {
			decodeVariant(g, uc.def)
		}
	}
}

// unionHelpers writes the functions the union codecs share.
func unionHelpers(f *jen.File, need helperNeeds) {
	f.Line()
	comment(f, "unionClass classifies a JSON value by its first byte: '\"' for a string, '0' for a number, 't' for a boolean, '{', '[' or 'n' (null).", false)
	f.Func().Id("unionClass").Params(jen.Id("b").Index().Byte()).Byte().Block(
		jen.For(jen.List(jen.Id("_"), jen.Id("c")).Op(":=").Range().Id("b")).Block(
			jen.Switch(jen.Id("c")).Block(
				jen.Case(jen.LitRune(' '), jen.LitRune('\t'), jen.LitRune('\n'), jen.LitRune('\r')).Block(jen.Continue()),
				jen.Case(jen.LitRune('t'), jen.LitRune('f')).Block(jen.Return(jen.LitRune('t'))),
				jen.Case(jen.LitRune('"'), jen.LitRune('{'), jen.LitRune('['), jen.LitRune('n')).Block(jen.Return(jen.Id("c"))),
			),
			jen.Return(jen.LitRune('0')),
		),
		jen.Return(jen.Lit(0)),
	)
	if need.tag {
		f.Line()
		comment(f, "unionTag returns the value of a JSON string, and whether raw is one.", false)
		f.Func().Id("unionTag").Params(jen.Id("raw").Qual(jsonPath, "RawMessage")).Params(jen.String(), jen.Bool()).Block(
			jen.Var().Id("s").String(),
			jen.If(jen.Id("unionClass").Call(jen.Id("raw")).Op("!=").LitRune('"')).Block(jen.Return(jen.Lit(""), jen.False())),
			jen.Err().Op(":=").Qual(rpcPath, "DecodeJSON").Call(jen.Id("raw"), jen.Op("&").Id("s")),
			jen.Return(jen.Id("s"), jen.Err().Op("==").Nil()),
		)
	}
	if need.has {
		f.Line()
		comment(f, "unionHas reports whether an object has every one of the members.", false)
		f.Func().Id("unionHas").Params(jen.Id("members").Map(jen.String()).Qual(jsonPath, "RawMessage"), jen.Id("keys").Op("...").String()).Bool().Block(
			jen.For(jen.List(jen.Id("_"), jen.Id("k")).Op(":=").Range().Id("keys")).Block(
				jen.If(jen.List(jen.Id("_"), jen.Id("ok")).Op(":=").Id("members").Index(jen.Id("k")), jen.Op("!").Id("ok")).Block(jen.Return(jen.False())),
			),
			jen.Return(jen.True()),
		)
	}
	if need.integer {
		f.Line()
		comment(f, "unionInteger reports whether a JSON number is written as an integer (no fraction, no exponent).", false)
		f.Func().Id("unionInteger").Params(jen.Id("b").Index().Byte()).Bool().Block(
			jen.Return(jen.Op("!").Qual("bytes", "ContainsAny").Call(jen.Id("b"), jen.Lit(".eE"))),
		)
	}
}
