package gen

import (
	"fmt"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/stretchr/testify/assert"
)

func TestMemberDecodeChoosesAHelperByTheFieldType(t *testing.T) {
	extraStruct := &namedType{name: "Meta", kind: namedStruct, extra: &typeRef{kind: refRaw}}
	plainStruct := &namedType{name: "Point", kind: namedStruct}
	enum := &namedType{name: "Level", kind: namedEnum}
	cursor := &namedType{name: "Cursor", kind: namedDefined, underlying: basic("string")}
	count := &namedType{name: "Count", kind: namedDefined, underlying: basic("int64")}
	metaMap := &namedType{name: "Bag", kind: namedDefined, underlying: typeRef{kind: refMap, elem: &typeRef{kind: refRaw}}}
	list := &namedType{name: "List", kind: namedDefined, underlying: typeRef{kind: refSlice, elem: &typeRef{kind: refBasic, basic: "string"}}}
	union := &namedType{name: "Token", kind: namedUnion}
	tuple := &namedType{name: "Pair", kind: namedTuple}
	alias := &namedType{name: "Other", kind: namedAlias, underlying: typeRef{kind: refNamed, named: extraStruct}}
	ptrAlias := &namedType{name: "Ref", kind: namedAlias, underlying: typeRef{kind: refBasic, basic: "string", ptr: true}}
	named := func(nt *namedType) typeRef { return typeRef{kind: refNamed, named: nt} }
	ptr := func(t typeRef) typeRef { t.ptr = true; return t }
	slice := func(t typeRef) typeRef { return typeRef{kind: refSlice, elem: &t} }
	configRaw := qualRef(goType{path: jsonPath, name: "RawMessage"})

	tests := []struct {
		name string
		typ  typeRef
		want string
	}{
		{"string", basic("string"), "rpc.DecodeString(value, &v.F)"},
		{"bool", basic("bool"), "rpc.DecodeBool(value, &v.F)"},
		{"integer", basic("int64"), "rpc.DecodeInt(value, &v.F)"},
		{"number", basic("float64"), "rpc.DecodeFloat(value, &v.F)"},
		{"raw JSON", typeRef{kind: refRaw}, "rpc.DecodeCheckedRaw(value, &v.F)"},
		{"raw JSON named in the config", configRaw, "rpc.DecodeCheckedRaw(value, &v.F)"},
		{"slice of raw JSON named in the config", slice(configRaw), "rpc.DecodeSlice(value, &v.F, rpc.DecodeCheckedRaw)"},
		{"enum", named(enum), "rpc.DecodeString(value, &v.F)"},
		{"type defined on string", named(cursor), "rpc.DecodeString(value, &v.F)"},
		{"type defined on int64", named(count), "rpc.DecodeInt(value, &v.F)"},
		{"map of raw JSON", typeRef{kind: refMap, elem: &typeRef{kind: refRaw}}, "rpc.DecodeRawMap(value, &v.F)"},
		{"type defined on a map of raw JSON", named(metaMap), "rpc.DecodeRawMap(value, &v.F)"},
		{"struct that keeps unknown members", named(extraStruct), "rpc.DecodeUnmarshaler(value, &v.F)"},
		{"tuple", named(tuple), "rpc.DecodeUnmarshaler(value, &v.F)"},
		{"alias of a struct that keeps unknown members", named(alias), "rpc.DecodeUnmarshaler(value, &v.F)"},
		{"pointer to string", ptr(basic("string")), "rpc.DecodePointer(value, &v.F, rpc.DecodeString[string])"},
		{"pointer to bool", ptr(basic("bool")), "rpc.DecodePointer(value, &v.F, rpc.DecodeBool[bool])"},
		{"pointer to struct", ptr(named(extraStruct)), "rpc.DecodePointer(value, &v.F, rpc.DecodeUnmarshaler[Meta])"},
		{"pointer to union", ptr(named(union)), "rpc.DecodePointer(value, &v.F, rpc.DecodeValue[Token])"},
		{"slice of structs", slice(named(extraStruct)), "rpc.DecodeSlice(value, &v.F, rpc.DecodeUnmarshaler[Meta])"},
		{"slice of strings", slice(basic("string")), "rpc.DecodeSlice(value, &v.F, rpc.DecodeString[string])"},
		{"slice of unions", slice(named(union)), "rpc.DecodeSlice(value, &v.F, rpc.DecodeValue[Token])"},
		// the rest keep DecodeJSON
		{"union", named(union), "rpc.DecodeJSON(value, &v.F)"},
		{"struct without UnmarshalJSON", named(plainStruct), "rpc.DecodeJSON(value, &v.F)"},
		{"slice of structs without UnmarshalJSON", slice(named(plainStruct)), "rpc.DecodeJSON(value, &v.F)"},
		{"type defined on a slice", named(list), "rpc.DecodeJSON(value, &v.F)"},
		{"alias of a pointer", named(ptrAlias), "rpc.DecodeJSON(value, &v.F)"},
		{"slice of pointers", slice(ptr(basic("string"))), "rpc.DecodeJSON(value, &v.F)"},
		{"map of strings", typeRef{kind: refMap, elem: &typeRef{kind: refBasic, basic: "string"}}, "rpc.DecodeJSON(value, &v.F)"},
		{"nullable", basic("string").nullable(), "rpc.DecodeJSON(value, &v.F)"},
		{"type from the config", typeRef{kind: refQual, qual: goType{path: "example.com/x", name: "T"}}, "rpc.DecodeJSON(value, &v.F)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code := memberDecode(tt.typ, jen.Op("&").Id("v").Dot("F"))
			f := jen.NewFile("p")
			f.ImportName(rpcPath, "rpc")
			f.Var().Id("_").Op("=").Add(code)
			out := fmt.Sprintf("%#v", f)
			assert.Contains(t, out, "var _ = "+tt.want, out)
		})
	}
}
