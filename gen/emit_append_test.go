package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMemberKeysAreWrittenAsEncodingJSONWritesNames(t *testing.T) {
	for name, want := range map[string]string{
		"type":        `,"type":`,
		"_meta":       `,"_meta":`,
		"a<b>&c":      `,"a<b>&c":`,
		"é":           `,"é":`,
		"line\u2028x": `,"line\u2028x":`,
	} {
		assert.Equal(t, want, memberKey(name), "%q", name)
	}
}

// TestTypesEncodingJSONWouldWriteDifferentlyAreLeftToIt pins which types
// the generated AppendJSON writes itself and which it hands to
// rpc.AppendJSONValue, because a defined type loses the methods of the
// type it is defined over.
func TestTypesEncodingJSONWouldWriteDifferentlyAreLeftToIt(t *testing.T) {
	str := basic("string")
	structType := &namedType{name: "S", kind: namedStruct}
	tuple := &namedType{name: "P", kind: namedTuple}
	defined := func(u typeRef) *namedType { return &namedType{name: "D", kind: namedDefined, underlying: u} }
	alias := func(u typeRef) *namedType { return &namedType{name: "A", kind: namedAlias, underlying: u} }
	named := func(nt *namedType) typeRef { return typeRef{kind: refNamed, named: nt} }
	cases := []struct {
		name      string
		typ       typeRef
		fallsBack bool
	}{
		{"a basic type", str, false},
		{"raw JSON", raw, false},
		{"a generated struct", named(structType), false},
		{"a tuple (its own MarshalJSON)", named(tuple), true},
		{"a config type", typeRef{kind: refQual, qual: goType{path: "time", name: "Time"}}, true},
		{"the config's json.RawMessage", typeRef{kind: refQual, qual: goType{path: jsonPath, name: "RawMessage"}}, false},
		{"a list of strings", typeRef{kind: refSlice, elem: &str}, false},
		{"a list of bytes (base64)", typeRef{kind: refSlice, elem: &typeRef{kind: refQual, qual: goType{name: "byte"}}}, true},
		{"a defined list", named(defined(typeRef{kind: refSlice, elem: &str})), false},
		{"a type defined over raw JSON (base64)", named(defined(raw)), true},
		{"a type defined over a struct", named(defined(named(structType))), true},
		{"a type defined over Nullable", named(defined(str.nullable())), true},
		{"an alias of a struct", named(alias(named(structType))), false},
		{"an alias of a config type", named(alias(typeRef{kind: refQual, qual: goType{path: "time", name: "Time"}})), true},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.fallsBack, fallsBack(tc.typ), tc.name)
	}
}
