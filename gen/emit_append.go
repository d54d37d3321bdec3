package gen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
)

// The AppendJSON methods: every generated struct, union, enum and defined
// type writes its own JSON by appending to a byte slice, member by member,
// with the output encoding/json would give (without HTML escaping) plus
// the rules MarshalJSON adds (required lists and maps never null, consts
// filled in, Extra members). Nested generated values are asked directly;
// values of other types go through rpc.AppendJSONValue.

// seeAlias follows aliases to the type they name, and reads a config
// type that is json.RawMessage as raw JSON.
func seeAlias(t typeRef) typeRef {
	for t.kind == refNamed && t.named.kind == namedAlias && !t.ptr {
		t = t.named.underlying
	}
	if t.kind == refQual && t.qual.path == jsonPath && t.qual.name == "RawMessage" {
		t = typeRef{kind: refRaw, ptr: t.ptr}
	}
	return t
}

// hasAppendJSON reports whether the generated type nt gets an AppendJSON
// method.
func hasAppendJSON(nt *namedType) bool {
	switch nt.kind {
	case namedStruct, namedUnion, namedEnum:
		return true
	case namedDefined:
		return definedAppends(nt.underlying)
	}
	return false
}

// definedAppends reports whether a defined type over u can write itself
// as encoding/json writes it. A defined type loses the methods of the type
// it is defined over, so over json.RawMessage (encoding/json writes base64),
// rpc.Nullable (written as a plain struct), a generated or a config type it
// is left to encoding/json, which keeps its encoding as it was.
func definedAppends(u typeRef) bool {
	if u.ptr {
		return false
	}
	switch u.kind {
	case refBasic, refSlice, refMap:
		return true
	}
	return false
}

// appendWriter builds the statements of one function that appends to b:
// an AppendJSON body or a closure that writes one map value.
type appendWriter struct {
	usesErr bool // a statement assigns err, which the function must declare
	// lastTry and lastCall are the statement try wrote last and its call,
	// so that a body of that one statement becomes return call.
	lastTry  jen.Code
	lastCall jen.Code
}

// body wraps the statements written so far into a function body: err
// declared when used, and the final return.
func (w *appendWriter) body(stmts []jen.Code, ret jen.Code) []jen.Code {
	if len(stmts) == 1 && stmts[0] == w.lastTry {
		return []jen.Code{jen.Return(w.lastCall)}
	}
	var out []jen.Code
	if w.usesErr {
		out = append(out, jen.Var().Err().Error())
	}
	out = append(out, stmts...)
	return append(out, ret)
}

// appendLit appends a constant text.
func appendLit(s string) jen.Code {
	return jen.Id("b").Op("=").Append(jen.Id("b"), jen.Add(goString(s)).Op("..."))
}

// assign appends with a call that cannot fail.
func assign(call jen.Code) jen.Code {
	return jen.Id("b").Op("=").Add(call)
}

// try appends with a call that may fail, returning its error.
func (w *appendWriter) try(call jen.Code) jen.Code {
	w.usesErr = true
	w.lastCall = call
	w.lastTry = jen.If(jen.List(jen.Id("b"), jen.Err()).Op("=").Add(call), jen.Err().Op("!=").Nil()).Block(
		jen.Return(jen.Nil(), jen.Err()),
	)
	return w.lastTry
}

// value returns the statements that append the JSON of val, of type t;
// nonNil says val is known not to be nil (a pointer, slice or map the
// caller has checked); depth names the loop variables of nested slices and
// maps.
func (w *appendWriter) value(t typeRef, val jen.Code, nonNil bool, depth int) []jen.Code {
	t = seeAlias(t)
	x := func() *jen.Statement { return jen.Add(val) }
	orNull := func(stmts ...jen.Code) []jen.Code {
		if nonNil {
			return stmts
		}
		return []jen.Code{jen.If(x().Op("==").Nil()).Block(appendLit("null")).Else().Block(stmts...)}
	}
	if t.ptr {
		elem := t
		elem.ptr = false
		if fallsBack(elem) {
			// encoding/json follows the pointer itself (nil is null).
			return []jen.Code{w.try(jen.Qual(rpcPath, "AppendJSONValue").Call(jen.Id("b"), x()))}
		}
		var target jen.Code = x() // a method is called through the pointer
		switch e := seeAlias(elem); {
		case e.kind == refNamed && e.named.kind != namedEnum:
		case e.kind == refNullable:
			target = jen.Parens(jen.Op("*").Add(x()))
		default:
			target = jen.Op("*").Add(x())
		}
		return orNull(w.value(elem, target, false, depth)...)
	}
	switch t.kind {
	case refRaw:
		return []jen.Code{w.try(jen.Qual(rpcPath, "AppendRawJSON").Call(jen.Id("b"), x()))}
	case refBasic:
		switch t.basic {
		case "string":
			return []jen.Code{assign(jen.Qual(rpcPath, "AppendJSONString").Call(jen.Id("b"), x()))}
		case "int64":
			return []jen.Code{assign(jen.Qual("strconv", "AppendInt").Call(jen.Id("b"), x(), jen.Lit(10)))}
		case "float64":
			return []jen.Code{w.try(jen.Qual(rpcPath, "AppendJSONFloat").Call(jen.Id("b"), x()))}
		case "bool":
			return []jen.Code{assign(jen.Qual("strconv", "AppendBool").Call(jen.Id("b"), x()))}
		}
	case refNamed:
		if t.named.kind == namedEnum {
			return []jen.Code{assign(jen.Qual(rpcPath, "AppendJSONString").Call(jen.Id("b"), jen.String().Call(x())))}
		}
		if hasAppendJSON(t.named) {
			return []jen.Code{w.try(x().Dot("AppendJSON").Call(jen.Id("b")))}
		}
	case refSlice:
		if fallsBack(t) {
			break
		}
		i, v := fmt.Sprintf("i%d", depth), fmt.Sprintf("x%d", depth)
		loop := jen.For(jen.List(jen.Id(i), jen.Id(v)).Op(":=").Range().Add(x())).BlockFunc(func(g *jen.Group) {
			g.If(jen.Id(i).Op(">").Lit(0)).Block(jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(',')))
			for _, s := range w.value(*t.elem, jen.Id(v), false, depth+1) {
				g.Add(s)
			}
		})
		return orNull(
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune('[')),
			loop,
			jen.Id("b").Op("=").Append(jen.Id("b"), jen.LitRune(']')),
		)
	case refMap:
		return []jen.Code{w.try(jen.Qual(rpcPath, "AppendJSONMap").Call(jen.Id("b"), x(), elemWriter(*t.elem, depth+1)))}
	case refNullable:
		return []jen.Code{jen.If(jen.Op("!").Add(x()).Dot("Valid")).Block(appendLit("null")).Else().Block(w.value(*t.elem, x().Dot("Value"), false, depth)...)}
	}
	return []jen.Code{w.try(jen.Qual(rpcPath, "AppendJSONValue").Call(jen.Id("b"), x()))}
}

// fallsBack reports whether value leaves a value of type t (not a
// pointer) to rpc.AppendJSONValue: a config type, a generated type without
// AppendJSON (a tuple), or a slice of bytes (base64 to encoding/json).
func fallsBack(t typeRef) bool {
	t = seeAlias(t)
	switch t.kind {
	case refQual:
		return true
	case refNamed:
		return !hasAppendJSON(t.named)
	case refSlice:
		e := seeAlias(*t.elem)
		return e.kind == refQual && e.qual.path == "" && (e.qual.name == "byte" || e.qual.name == "uint8")
	}
	return false
}

// elemWriter is a function that appends one value of type t, for the map
// and Extra helpers: rpc.AppendRawJSON for raw JSON, a closure otherwise.
func elemWriter(t typeRef, depth int) jen.Code {
	if s := seeAlias(t); s.kind == refRaw && !s.ptr {
		return jen.Qual(rpcPath, "AppendRawJSON")
	}
	v := fmt.Sprintf("x%d", depth)
	var w appendWriter
	stmts := w.value(t, jen.Id(v), false, depth+1)
	return jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id(v).Add(typeCode(t))).Params(jen.Index().Byte(), jen.Error()).Block(
		w.body(stmts, jen.Return(jen.Id("b"), jen.Nil()))...,
	)
}

// memberKey is a member's name as written before its value, with the comma
// every member starts with (rpc.EndJSONObject turns the first into the
// opening brace).
func memberKey(name string) string {
	return "," + string(jsonwrite.String(nil, name)) + ":"
}

// omitted is the condition under which a field is written, from its omit
// option as encoding/json reads it; nil when it is always written. nonNil
// says the condition rules out a nil value.
func omitted(fl *field, val func() *jen.Statement) (cond jen.Code, nonNil bool) {
	cond = omitCondition(fl, val)
	switch t := seeAlias(fl.typ); {
	case cond == nil:
		return nil, false
	case t.ptr:
		return cond, true
	}
	switch fl.typ.shape() {
	case shapeSlice, shapeMap, shapeRaw:
		return cond, true // len(x) != 0 or x != nil
	}
	return cond, false
}

func omitCondition(fl *field, val func() *jen.Statement) jen.Code {
	t := seeAlias(fl.typ)
	switch fl.omit {
	case "omitempty":
		switch {
		case t.ptr:
			return val().Op("!=").Nil()
		}
		switch t.shape() {
		case shapeString:
			return val().Op("!=").Lit("")
		case shapeSlice, shapeMap, shapeRaw:
			return jen.Len(val()).Op("!=").Lit(0)
		case shapeScalar:
			if underlyingBasic(t) == "bool" || t.kind == refQual && t.qual.name == "bool" {
				return val()
			}
			return val().Op("!=").Lit(0)
		}
		return nil // a struct is never empty to encoding/json
	case "omitzero":
		switch {
		case t.ptr:
			return val().Op("!=").Nil()
		}
		switch t.shape() {
		case shapeSlice, shapeMap, shapeRaw:
			return val().Op("!=").Nil()
		case shapeNullable:
			return val().Dot("Set")
		case shapeString:
			return val().Op("!=").Lit("")
		}
	}
	return nil
}

// structAppender writes a struct's AppendJSON: the fields in order, each
// left out as its omit option says, a nil required list or map written
// empty, an empty const property written as its const, then the Extra
// members sorted by name.
func structAppender(f *jen.File, nt *namedType) {
	var w appendWriter
	var stmts []jen.Code
	stmts = append(stmts, jen.Id("start").Op(":=").Len(jen.Id("b")))
	for _, fl := range nt.fields {
		stmts = append(stmts, memberStatements(&w, fl)...)
	}
	if nt.extra != nil {
		args := []jen.Code{jen.Id("b"), jen.Id("v").Dot("Extra"), elemWriter(*nt.extra, 0)}
		args = append(args, knownNames(nt)...)
		stmts = append(stmts, jen.If(jen.Len(jen.Id("v").Dot("Extra")).Op(">").Lit(0)).Block(
			w.try(jen.Qual(rpcPath, "AppendExtraMembers").Call(args...)),
		))
	}
	f.Line()
	comment(f, "AppendJSON appends the JSON encoding of "+nt.name+" to b and returns the extended slice: "+appendWhat(nt)+".", false)
	f.Func().Params(appendReceiver(nt.name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		w.body(stmts, jen.Return(jen.Qual(rpcPath, "EndJSONObject").Call(jen.Id("b"), jen.Id("start")), jen.Nil()))...,
	)
}

// memberStatements are the statements that write the member of fl, a
// field of the struct v, as the straight-line AppendJSON writes it: left
// out as its omit option says, a nil required list or map written empty,
// an empty const property written as its const.
func memberStatements(w *appendWriter, fl *field) []jen.Code {
	val := func() *jen.Statement { return jen.Id("v").Dot(fl.name) }
	cond, nonNil := omitted(fl, val)
	var member []jen.Code
	member = append(member, assign(jen.Qual(rpcPath, "AppendJSONKey").Call(jen.Id("b"), goString(memberKey(fl.jsonName)))))
	switch {
	case fl.fill:
		member = append(member, jen.If(val().Op("==").Lit("")).Block(
			appendLit(string(jsonwrite.String(nil, fl.constant))),
		).Else().Block(assign(jen.Qual(rpcPath, "AppendJSONString").Call(jen.Id("b"), val()))))
	case fl.fillEmpty:
		empty := "[]"
		if fl.typ.shape() == shapeMap {
			empty = "{}"
		}
		member = append(member, jen.If(val().Op("==").Nil()).Block(appendLit(empty)).Else().Block(w.value(fl.typ, val(), true, 0)...))
	default:
		member = append(member, w.value(fl.typ, val(), nonNil, 0)...)
	}
	if cond != nil {
		return []jen.Code{jen.If(cond).Block(member...)}
	}
	return member
}

// appendWhat describes what a struct's AppendJSON writes, for its doc.
func appendWhat(nt *namedType) string {
	s := "the members of its fields in order, an absent optional one left out"
	var fills, consts []*field
	for _, fl := range nt.fields {
		if fl.fillEmpty {
			fills = append(fills, fl)
		}
		if fl.fill {
			consts = append(consts, fl)
		}
	}
	if len(fills) > 0 {
		s += ", a nil " + fieldList(fills) + " written as empty rather than null (which the schema does not allow)"
	}
	if len(consts) > 0 {
		s += ", an empty " + fieldList(consts) + " written as the value the schema requires"
	}
	if nt.extra != nil {
		s += ", then the Extra members sorted by name"
	}
	return s
}

// appendReceiver is the receiver of a struct's AppendJSON (a union and its
// Unknown variant are structs too): a pointer, so that the compiler makes
// no second method for *T that copies the struct and calls the first, as
// it does for every method with a value receiver. MarshalJSON keeps its
// value receiver, so that encoding/json asks a T as well as a *T.
func appendReceiver(name string) jen.Code {
	return jen.Id("v").Op("*").Id(name)
}

// valueAppender writes the AppendJSON of an enum or a defined type.
func valueAppender(f *jen.File, nt *namedType) {
	var w appendWriter
	var stmts []jen.Code
	var doc string
	if nt.kind == namedEnum {
		doc = "AppendJSON appends v to b as a JSON string."
		stmts = []jen.Code{assign(jen.Qual(rpcPath, "AppendJSONString").Call(jen.Id("b"), jen.String().Call(jen.Id("v"))))}
	} else {
		doc = "AppendJSON appends the JSON encoding of v to b and returns the extended slice."
		val := jen.Id("v")
		if nt.underlying.kind == refBasic {
			val = jen.Id(nt.underlying.basic).Call(jen.Id("v"))
		}
		stmts = w.value(nt.underlying, val, false, 0)
	}
	f.Line()
	comment(f, doc, false)
	f.Func().Params(jen.Id("v").Id(nt.name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		w.body(stmts, jen.Return(jen.Id("b"), jen.Nil()))...,
	)
}

// marshalBufferSize is the room MarshalJSON gives AppendJSON: most values
// fit in one allocation, where growing from nil would take four or five.
const marshalBufferSize = 128

// marshalViaAppend writes MarshalJSON as AppendJSON to a new slice.
func marshalViaAppend(f *jen.File, name string) {
	f.Line()
	comment(f, "MarshalJSON encodes v with AppendJSON.", false)
	f.Func().Params(jen.Id("v").Id(name)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Id("v").Dot("AppendJSON").Call(jen.Make(jen.Index().Byte(), jen.Lit(0), jen.Lit(marshalBufferSize)))),
	)
}

// unionAppender writes a union's AppendJSON: the variant writes itself; a
// nil Value (or a nil pointer variant) is null.
func unionAppender(f *jen.File, nt *namedType) {
	u := nt.union
	f.Line()
	comment(f, "AppendJSON appends the variant's JSON encoding to b; a nil Value is null.", false)
	f.Func().Params(appendReceiver(nt.name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch(jen.Id("x").Op(":=").Id("v").Dot("Value").Assert(jen.Type())).BlockFunc(func(g *jen.Group) {
			names := []string{}
			appends := map[string]bool{}
			for _, v := range u.variants {
				names = append(names, v.typ.name)
				appends[v.typ.name] = !fallsBack(typeRef{kind: refNamed, named: v.typ})
			}
			names = append(names, u.unknown)
			appends[u.unknown] = true
			for _, name := range names {
				call := jen.Qual(rpcPath, "AppendJSONValue").Call(jen.Id("b"), jen.Id("x"))
				if appends[name] {
					call = jen.Id("x").Dot("AppendJSON").Call(jen.Id("b"))
				}
				g.Case(jen.Id(name)).Block(jen.Return(call))
				g.Case(jen.Op("*").Id(name)).Block(jen.If(jen.Id("x").Op("!=").Nil()).Block(jen.Return(call)))
			}
		}),
		jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("...")), jen.Nil()),
	)
}

// unknownAppender writes the AppendJSON of a union's Unknown variant: Raw
// compacted (as it is when marked Compact), or null when it is empty.
func unknownAppender(f *jen.File, name string) {
	f.Line()
	comment(f, "AppendJSON appends Raw to b, compacted unless it is marked Compact, or null when it is empty.", false)
	f.Func().Params(appendReceiver(name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("v").Dot("Raw")).Op("==").Lit(0)).Block(
			jen.Return(jen.Append(jen.Id("b"), jen.Lit("null").Op("...")), jen.Nil()),
		),
		jen.If(jen.Id("v").Dot("Compact")).Block(
			jen.Return(jen.Append(jen.Id("b"), jen.Id("v").Dot("Raw").Op("...")), jen.Nil()),
		),
		jen.Return(jen.Qual(rpcPath, "AppendRawJSON").Call(jen.Id("b"), jen.Id("v").Dot("Raw"))),
	)
}
