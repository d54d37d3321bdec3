package gen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
)

// The codec tables: a struct whose members the runtime can walk gets an
// rpc.StructCodec (its fields' offsets, member keys, omit rules and how
// each value is written and read) instead of a straight-line encoder and
// decoder, and its AppendJSON, UnmarshalJSON and UnmarshalCheckedJSON
// become one call each into rpc.AppendStruct and rpc.DecodeStruct. A
// table is data: the generated packages hold one walker in rpc rather
// than a function per struct, which is most of their code. A field the
// table cannot describe (a map, a Nullable, a type of the config) gets a
// small function in the table for that field alone. A struct keeps the
// straight-line methods when its Extra map is not of raw JSON, when a
// member name needs an escape, or when such a function would call a
// generated type's method: the table refers to the function and the
// method to the table, which Go refuses as an initialization cycle when
// the types refer to each other.

// codecName is the name of the StructCodec variable of the struct name.
func codecName(name string) string { return "codec" + name }

// codecDesc is how one value is described in a table, or ok false when
// the table cannot describe it (in that direction).
type codecDesc struct {
	enc, dec string     // the rpc.EncodeKind and rpc.DecodeKind constants; "" for none
	typ      typeRef    // the value's type, for Type
	elem     *codecDesc // a pointer's or slice's element
	size     bool       // Size is the element's size
}

// describeValue is the table's description of a value of type t.
func describeValue(t typeRef) codecDesc {
	d := codecDesc{typ: t, enc: encodeKind(t), dec: decodeKind(t)}
	s := seeAlias(t)
	switch {
	case s.ptr:
		elem := s
		elem.ptr = false
		e := describeValue(elem)
		if d.enc == "EncodePointer" && e.enc == "" || d.dec == "DecodeKindPointer" && e.dec == "" {
			panic("gen: a pointer's element the table cannot describe") // encodeKind and decodeKind rule it out
		}
		d.elem = &e
	case s.kind == refSlice && d.enc == "EncodeSlice":
		e := describeValue(*s.elem)
		d.elem, d.size = &e, true
	}
	return d
}

// encodeKind is the rpc.EncodeKind that writes a value of type t, or ""
// when the table cannot write it.
func encodeKind(t typeRef) string {
	t = seeAlias(t)
	if t.ptr {
		elem := t
		elem.ptr = false
		if fallsBack(elem) || encodeKind(elem) == "" {
			return ""
		}
		return "EncodePointer"
	}
	switch t.kind {
	case refRaw:
		return "EncodeRaw"
	case refBasic:
		return basicEncodeKind(t.basic)
	case refNamed:
		switch {
		case t.named.kind == namedEnum:
			return "EncodeString"
		case t.named.kind == namedDefined && t.named.underlying.kind == refBasic && !t.named.underlying.ptr:
			return basicEncodeKind(t.named.underlying.basic)
		case hasAppendJSON(t.named):
			return "EncodeAppender"
		}
	case refSlice:
		if !fallsBack(t) && encodeKind(*t.elem) != "" {
			return "EncodeSlice"
		}
	}
	return ""
}

// basicEncodeKind is the rpc.EncodeKind of a basic Go type.
func basicEncodeKind(basic string) string {
	switch basic {
	case "string":
		return "EncodeString"
	case "int64":
		return "EncodeInt"
	case "float64":
		return "EncodeFloat"
	case "bool":
		return "EncodeBool"
	}
	return ""
}

// decodeKind is the rpc.DecodeKind that reads a value of type t as
// memberDecode does; never "" (rpc.DecodeKindJSON reads anything).
func decodeKind(t typeRef) string {
	if t.ptr {
		elem := t
		elem.ptr = false
		if elemDecodeFunc(elem) != nil {
			return "DecodeKindPointer"
		}
		return "DecodeKindJSON"
	}
	if t.kind == refSlice && !t.elem.ptr && elemDecodeFunc(*t.elem) != nil {
		return "" // DecodeSlice, in a function of the table
	}
	switch decodeHelper(t) {
	case "DecodeCheckedRaw":
		return "DecodeKindRaw"
	case "DecodeString":
		return "DecodeKindString"
	case "DecodeBool":
		return "DecodeKindBool"
	case "DecodeInt":
		return "DecodeKindInt"
	case "DecodeFloat":
		return "DecodeKindFloat"
	case "DecodeRawMap":
		return "DecodeKindRawMap"
	case "DecodeUnmarshaler":
		return "DecodeKindUnmarshaler"
	}
	return "DecodeKindJSON"
}

// omitRule is the rpc.OmitRule of a field, from its omit option as
// omitCondition reads it; ok is false when no rule says it (a map with
// omitempty, a Nullable with omitzero).
func omitRule(fl *field) (rule string, ok bool) {
	t := seeAlias(fl.typ)
	switch fl.omit {
	case "omitempty":
		if t.ptr {
			return "OmitNil", true
		}
		switch t.shape() {
		case shapeString, shapeSlice, shapeRaw:
			return "OmitEmpty", true
		case shapeMap:
			return "", false
		case shapeScalar:
			switch b := underlyingBasic(t); {
			case b == "bool" || t.kind == refQual && t.qual.name == "bool":
				return "OmitFalse", true
			case b == "int64":
				return "OmitZeroInt", true
			case b == "float64":
				return "OmitZeroFloat", true
			}
			return "", false
		}
		return "OmitNever", true // a struct is never empty to encoding/json
	case "omitzero":
		if t.ptr {
			return "OmitNil", true
		}
		switch t.shape() {
		case shapeSlice, shapeMap, shapeRaw:
			return "OmitNil", true
		case shapeNullable:
			return "", false
		case shapeString:
			return "OmitEmpty", true
		}
	}
	return "OmitNever", omitCondition(fl, func() *jen.Statement { return jen.Id("v") }) == nil
}

// fieldInTable reports whether the table writes fl itself: its value and
// omit rule have kinds, and a fill replaces what fillable tests.
func fieldInTable(fl *field) bool {
	if _, ok := omitRule(fl); !ok || encodeKind(fl.typ) == "" {
		return false
	}
	return !fl.fillEmpty || fl.typ.shape() == shapeSlice || fl.typ.shape() == shapeMap
}

// usesTable reports whether the struct nt gets a table: its Extra map,
// if any, is of raw JSON, a field the table does not write itself calls
// no generated method (see the note at the top of this file), and no
// member name needs an escape (the table keeps a name only in its key).
func usesTable(nt *namedType) bool {
	if nt.extra != nil {
		if s := seeAlias(*nt.extra); s.kind != refRaw || s.ptr {
			return false
		}
	}
	for _, fl := range nt.fields {
		if !fieldInTable(fl) && callsMethods(fl.typ) || memberKey(fl.jsonName) != `,"`+fl.jsonName+`":` {
			return false
		}
	}
	return true
}

// callsMethods reports whether the code that writes a value of type t
// calls a method of a generated type.
func callsMethods(t typeRef) bool {
	t = seeAlias(t)
	switch t.kind {
	case refNamed:
		return t.named.kind != namedEnum && hasAppendJSON(t.named)
	case refSlice, refMap, refNullable:
		return callsMethods(*t.elem)
	}
	return false
}

// structCodec writes the table of the struct nt and its one-line
// AppendJSON (and, with an Extra map, UnmarshalJSON and
// UnmarshalCheckedJSON).
func (e *emitter) structCodec(f *jen.File, nt *namedType) {
	table := codecName(nt.name)
	self := func() *jen.Statement {
		return jen.Op("&").Id(table)
	}
	ptr := jen.Qual("unsafe", "Pointer").Call(jen.Id("v"))
	f.Line()
	comment(f, "AppendJSON appends the JSON encoding of "+nt.name+" to b and returns the extended slice: "+appendWhat(nt)+".", false)
	f.Func().Params(appendReceiver(nt.name)).Id("AppendJSON").Params(jen.Id("b").Index().Byte()).Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Return(jen.Qual(rpcPath, "AppendStruct").Call(jen.Id("b"), ptr, self())),
	)
	marshalViaAppend(f, nt.name)
	if nt.extra != nil {
		for _, m := range []struct {
			name, doc string
			checked   bool
		}{
			{"UnmarshalJSON", "UnmarshalJSON decodes " + nt.name + ", keeping the members the schema does not name in Extra.", false},
			{"UnmarshalCheckedJSON", "UnmarshalCheckedJSON is UnmarshalJSON for input the strict scanner has already accepted, which it does not check again (rpc.CheckedUnmarshaler).", true},
		} {
			f.Line()
			comment(f, m.doc, false)
			f.Func().Params(jen.Id("v").Op("*").Id(nt.name)).Id(m.name).Params(jen.Id("b").Index().Byte()).Error().Block(
				jen.Return(jen.Qual(rpcPath, "DecodeStruct").Call(jen.Id("b"), jen.Lit(m.checked), jen.Qual("unsafe", "Pointer").Call(jen.Id("v")), self())),
			)
		}
		f.Line()
		comment(f, "UnmarshalJSONChecksInput marks "+nt.name+" as a rpc.CheckingUnmarshaler: its UnmarshalJSON checks its whole input, so rpc.DecodeJSON does not check it first.", false)
		f.Func().Params(jen.Op("*").Id(nt.name)).Id("UnmarshalJSONChecksInput").Params().Block()
	}
	var fields []jen.Code
	for _, fl := range nt.fields {
		fields = append(fields, e.fieldCodec(f, nt, fl))
	}
	f.Line()
	comment(f, table+" is how "+nt.name+" is written and read, for rpc.AppendStruct and rpc.DecodeStruct.", false)
	f.Var().Id(table).Op("=").Qual(rpcPath, "StructCodec").Values(jen.DictFunc(func(d jen.Dict) {
		d[jen.Id("Type")] = jen.Parens(jen.Op("*").Id(nt.name)).Call(jen.Nil())
		if len(fields) > 0 {
			d[jen.Id("Fields")] = jen.Index().Qual(rpcPath, "FieldCodec").Values(fields...)
		}
		if nt.extra != nil {
			d[jen.Id("Extra")] = offsetOf(nt, "Extra")
			d[jen.Id("HasExtra")] = jen.True()
		}
		if _, ok := e.recurring[nt.name]; ok {
			d[jen.Id("Recurring")] = jen.True()
			e.recurring[nt.name] = true
		}
	}))
}

// offsetOf is the offset of the struct nt's field name.
func offsetOf(nt *namedType, name string) jen.Code {
	return jen.Qual("unsafe", "Offsetof").Call(jen.Id(nt.name).Values().Dot(name))
}

// fieldCodec is the rpc.FieldCodec of fl, a field of nt; the ValueCodec
// variables it refers to are written to f the first time they are used.
func (e *emitter) fieldCodec(f *jen.File, nt *namedType, fl *field) jen.Code {
	inTable := fieldInTable(fl)
	var value string
	if inTable || nt.extra != nil {
		fill := ""
		switch {
		case !inTable:
		case fl.fill:
			fill = string(jsonwrite.String(nil, fl.constant))
		case fl.fillEmpty && fl.typ.shape() == shapeMap:
			fill = "{}"
		case fl.fillEmpty:
			fill = "[]"
		}
		value = e.valueCodec(f, fl.typ, fill)
	}
	return jen.ValuesFunc(func(g *jen.Group) {
		line := func(name string, value jen.Code) { g.Line().Id(name).Op(":").Add(value) }
		line("Key", goString(memberKey(fl.jsonName)))
		line("Offset", jen.Uint32().Call(offsetOf(nt, fl.name)))
		if inTable {
			if rule, _ := omitRule(fl); rule != "OmitNever" {
				line("Omit", jen.Qual(rpcPath, rule))
			}
		} else {
			line("Append", memberFunc(nt, fl))
		}
		if value != "" {
			line("Value", jen.Op("&").Id(value))
		}
		g.Line()
	})
}

// valueCodec is the name of the rpc.ValueCodec variable of type t with
// fill as its Fill, which it writes to f (with those of its elements)
// when it is first asked for.
func (e *emitter) valueCodec(f *jen.File, t typeRef, fill string) string {
	key := fmt.Sprintf("%#v", typeCode(t))
	what := "a " + key
	if fill != "" {
		key += " " + fill
		what += ", written " + fill + " when empty,"
	}
	if name, ok := e.valueVars[key]; ok {
		return name
	}
	d := describeValue(t)
	var elem string
	if d.elem != nil && (d.enc == "EncodePointer" || d.enc == "EncodeSlice" || d.dec == "DecodeKindPointer") {
		elem = e.valueCodec(f, d.elem.typ, "")
	}
	word := typeWord(t)
	if fill != "" {
		word += "Filled"
	}
	name := "value" + word
	for i := 2; e.valueNames[name]; i++ {
		name = fmt.Sprintf("value%s%d", word, i)
	}
	if e.valueVars == nil {
		e.valueVars, e.valueNames = map[string]string{}, map[string]bool{}
	}
	e.valueVars[key], e.valueNames[name] = name, true
	f.Line()
	comment(f, name+" is how "+what+" is written and read.", false)
	f.Var().Id(name).Op("=").Qual(rpcPath, "ValueCodec").Values(jen.DictFunc(func(m jen.Dict) {
		if d.enc != "" {
			m[jen.Id("Enc")] = jen.Qual(rpcPath, d.enc)
		}
		if d.dec != "" {
			m[jen.Id("Dec")] = jen.Qual(rpcPath, d.dec)
		} else {
			m[jen.Id("Decode")] = jen.Func().Params(jen.Id("value").Index().Byte(), jen.Id("p").Qual("unsafe", "Pointer")).Error().Block(
				jen.Return(memberDecode(t, jen.Parens(jen.Op("*").Add(typeCode(t))).Call(jen.Id("p")))),
			)
		}
		m[jen.Id("Type")] = jen.Parens(jen.Op("*").Add(typeCode(t))).Call(jen.Nil())
		if elem != "" {
			m[jen.Id("Elem")] = jen.Op("&").Id(elem)
		}
		if fill != "" {
			m[jen.Id("Fill")] = goString(fill)
		}
		if d.size && d.enc == "EncodeSlice" {
			m[jen.Id("Size")] = jen.Qual("unsafe", "Sizeof").Call(jen.Op("*").New(typeCode(*seeAlias(t).elem)))
		}
	}))
	return name
}

// typeWord is t as a word, for the name of its ValueCodec variable.
func typeWord(t typeRef) string {
	if t.ptr {
		elem := t
		elem.ptr = false
		return "Ptr" + typeWord(elem)
	}
	switch t.kind {
	case refRaw:
		return "RawMessage"
	case refBasic:
		return exportedWord(t.basic)
	case refNamed:
		return t.named.name
	case refSlice:
		return "Slice" + typeWord(*t.elem)
	case refMap:
		return "Map" + typeWord(*t.elem)
	case refNullable:
		return "Nullable" + typeWord(*t.elem)
	case refQual:
		return exportedWord(t.qual.name)
	}
	return "Value"
}

// exportedWord is s with its first letter upper case.
func exportedWord(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// memberFunc is the function that writes the member of fl, a field the
// table does not write itself, given the struct: the statements the
// straight-line AppendJSON has for it.
func memberFunc(nt *namedType, fl *field) jen.Code {
	var w appendWriter
	stmts := append([]jen.Code{jen.Id("v").Op(":=").Parens(jen.Op("*").Id(nt.name)).Call(jen.Id("p"))}, memberStatements(&w, fl)...)
	return jen.Func().Params(jen.Id("b").Index().Byte(), jen.Id("p").Qual("unsafe", "Pointer")).Params(jen.Index().Byte(), jen.Error()).Block(
		w.body(stmts, jen.Return(jen.Id("b"), jen.Nil()))...,
	)
}
