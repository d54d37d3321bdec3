package rpc_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// The zoo: Go types a user might decode into, of every kind DecodeJSON
// reads, for the differential tests against the oracle
// (github.com/go-json-experiment/json with its default options).

type zooInner struct {
	N uint8   `json:"n"`
	S *string `json:"s,omitempty"`
}

type ZooEmbedded struct {
	E      int    `json:"e"`
	Shadow string `json:"shadow"`
}

type zooStruct struct {
	A    int             `json:"a"`
	B    []string        `json:"b"`
	C    zooInner        `json:"c"`
	D    []byte          `json:"d"`
	F    float64         `json:"f,omitzero"`
	Q    int             `json:"q,string"`
	U    uint            `json:",omitempty"`
	Skip int             `json:"-"`
	Dash int             `json:"-,"`
	I    any             `json:"i"`
	M    map[string]int  `json:"m"`
	P    *zooInner       `json:"p"`
	T    time.Time       `json:"t"`
	Ig   string          `json:"ig,case:ignore"`
	Txt  zooText         `json:"txt"`
	UJ   *zooJSON        `json:"uj"`
	Raw  json.RawMessage `json:"raw"`
	Arr  [2]int          `json:"arr"`
	F32  float32         `json:"f32"`
	I8   int8            `json:"i8"`
	ZooEmbedded
	Shadow int `json:"shadow"`
	hidden int
}

// zooNumbers holds json.Numbers, which the oracle decodes as Go 1.27's
// encoding/json has them decode themselves only from Go 1.27 on.
type zooNumbers struct {
	N json.Number            `json:"n"`
	S json.Number            `json:"s,string"`
	M map[json.Number]string `json:"m"`
}

type zooFallback struct {
	A    int            `json:"a"`
	Rest map[string]any `json:",embed"`
}

// zooConflict is a struct of two fields with one JSON name, which
// cannot be decoded into; built by reflection, as vet refuses it written.
var zooConflict = reflect.StructOf([]reflect.StructField{
	{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
	{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
})

type zooStringTag struct {
	S string  `json:"s,string"`
	N int64   `json:"n,string"`
	U uint16  `json:"u,string"`
	F float64 `json:"f,string"`
}

type zooTree struct {
	V    int        `json:"v"`
	Kids []*zooTree `json:"kids"`
}

type zooChan struct {
	C chan int `json:"c"`
}

// zooHidden is embedded through a pointer it cannot be allocated for.
type zooHidden struct {
	H int `json:"h"`
}

type zooEmbeddedPointers struct {
	*zooHidden
	*ZooEmbedded
	A int `json:"a"`
}

// zooAny is an interface every value satisfies, but not any itself.
type zooAny interface{}

// zooByte is a byte type of its own: a slice of them is an array of
// numbers, not base64.
type zooByte byte

type zooWide struct {
	I16 int16            `json:"i16"`
	U32 uint32           `json:"u32"`
	P   uintptr          `json:"p"`
	B   []zooByte        `json:"b"`
	K   map[string][]int `json:"k"`
}

type zooDuration struct {
	D time.Duration `json:"d"`
}

type zooFolded struct {
	FooBar int `json:"foo_bar,case:ignore"`
	Foobar int `json:"FOOBAR,case:ignore"`
}

// zooText reads itself from text: "ok" followed by anything.
type zooText struct{ got string }

func (z *zooText) UnmarshalText(b []byte) error {
	if !strings.HasPrefix(string(b), "ok") {
		return errors.New("text must start with ok")
	}
	z.got = string(b)
	return nil
}

// zooKey is a map key that reads itself from text.
type zooKey struct{ k string }

func (z *zooKey) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		return errors.New("empty key")
	}
	z.k = strings.ToUpper(string(b))
	return nil
}

// zooJSON reads itself with encoding/json and refuses strings.
type zooJSON struct{ m map[string]int }

func (z *zooJSON) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return errors.New("no strings")
	}
	return json.Unmarshal(b, &z.m)
}

// zoo makes a value to decode into, by name: most are zero, some hold
// values already, to check what is merged and what replaced.
var zoo = []struct {
	name string
	make func() any
}{
	{"bool", func() any { return new(bool) }},
	{"string", func() any { return new(string) }},
	{"int", func() any { return new(int) }},
	{"int8", func() any { return new(int8) }},
	{"uint8", func() any { return new(uint8) }},
	{"uint64", func() any { return new(uint64) }},
	{"int64", func() any { return new(int64) }},
	{"float32", func() any { return new(float32) }},
	{"float64", func() any { return new(float64) }},
	{"bytes", func() any { return new([]byte) }},
	{"byte array", func() any { return new([4]byte) }},
	{"ints", func() any { return new([]int) }},
	{"int array", func() any { return new([2]int) }},
	{"strings with capacity", func() any { s := make([]string, 1, 4); s[0] = "x"; return &s }},
	{"map of ints", func() any { return new(map[string]int) }},
	{"map by int", func() any { return new(map[int]string) }},
	{"map by uint8", func() any { return new(map[uint8]bool) }},
	{"map by float", func() any { return new(map[float64]int) }},
	{"map by bool", func() any { return new(map[bool]int) }},
	{"map by text key", func() any { return new(map[zooKey]int) }},
	{"map of structs, filled", func() any {
		return &map[string]zooInner{"a": {N: 1}, "b": {N: 2}}
	}},
	{"map of pointers", func() any { return new(map[string]*int) }},
	{"pointer", func() any { return new(*int) }},
	{"pointer to pointer", func() any { return new(**string) }},
	{"any", func() any { return new(any) }},
	{"any holding a map", func() any { var x any = map[string]any{"k": 1.0}; return &x }},
	{"any holding a number", func() any { var x any = 1.5; return &x }},
	{"stringer", func() any { return new(fmt.Stringer) }},
	{"interface of no methods", func() any { return new(zooAny) }},
	{"map by any", func() any { return new(map[any]int) }},
	{"anys", func() any { return new([]any) }},
	{"raw", func() any { return new(json.RawMessage) }},
	{"number", func() any { return new(json.Number) }},
	{"numbers", func() any { return new(zooNumbers) }},
	{"time", func() any { return new(time.Time) }},
	{"duration", func() any { return new(time.Duration) }},
	{"text", func() any { return new(zooText) }},
	{"json method", func() any { return new(zooJSON) }},
	{"struct", func() any { return new(zooStruct) }},
	{"struct, filled", func() any {
		s := "kept"
		return &zooStruct{A: 7, C: zooInner{N: 3, S: &s}, M: map[string]int{"old": 1}, P: &zooInner{N: 9}, Ig: "x"}
	}},
	{"structs", func() any { return new([]zooStruct) }},
	{"fallback", func() any { return new(zooFallback) }},
	{"conflict", func() any { return reflect.New(zooConflict).Interface() }},
	{"string tags", func() any { return new(zooStringTag) }},
	{"tree", func() any { return new(zooTree) }},
	{"chan", func() any { return new(zooChan) }},
	{"struct duration", func() any { return new(zooDuration) }},
	{"folded", func() any { return new(zooFolded) }},
	{"embedded pointers", func() any { return new(zooEmbeddedPointers) }},
	{"wide", func() any { return new(zooWide) }},
	{"stringer holding a value", func() any { var s fmt.Stringer = time.Second; return &s }},
}

// oracleInputs are JSON texts, valid and not, that the zoo's types take or
// refuse.
var oracleInputs = []string{
	``, ` `, `null`, ` null `, `true`, `false`, `0`, `-0`, `1`, `-1`, `255`, `256`, `-129`, `1.5`, `1e2`, `1E400`, `-1e400`,
	`1.`, `1.x`, `1e`, `1e+`, `1ex`, `1.5e-`, `2.e3`, `-`, `-x`, `01`, `-01`, `[1.]`, `{"a":1e}`, `{"a":1.5E+`, `[0.5,1e-]`,
	`18446744073709551615`, `18446744073709551616`, `9223372036854775808`, `100000000000000000000.5`, `3.4e39`,
	`""`, `"x"`, `"ok go"`, `"AAAA"`, `"AAA="`, `"AA=="`, `"AQID"`, `"AQIDBA=="`, `"AQ\nID"`, `"!!"`, `"\u00e9t\u00e9"`, `"\ud83d\ude00"`,
	`"2006-01-02T15:04:05Z"`, `"2006-01-02T15:04:05.999+07:00"`, `"2006-01-02T1:04:05Z"`, `"2006-01-02T15:04:05,5Z"`, `"2006-01-02T15:04:05+25:00"`, `"2006-01-02"`,
	`"12"`, `"-12"`, `"1.5"`, `"1e3"`, `" 1"`, `"01"`, `"null"`,
	`[]`, `[1,2]`, `[1,2,3]`, `["a","b"]`, `[null]`, `[1,"x"]`, `[[1],[2]]`, `[{"a":1},{"a":"x"}]`, `[1,]`, `[,]`, `[1}`, `[}`, `[`,
	`{}`, `{"a":1}`, `{"a":null}`, `{"a":"1"}`, `{"a":1.5}`, `{"a":1,"a":2}`, `{"a":1,"A":2}`, `{"A":1}`, `{"1":"x","2":"y"}`, `{"0":1,"-0":2}`,
	`{"1.0":1,"1":2}`, `{"true":1}`, `{"x":1}`, `{"":1}`, `{"k":{"n":1}}`, `{"a":{"n":5}}`, `{"a":{"s":"t"},"b":{"n":300}}`,
	`{"b":["x","y"],"c":{"n":2,"s":"z"},"d":"AQID","f":2.5,"q":"42","U":3,"Skip":1,"-":2,"i":{"k":[1,true,null,"s"]}}`,
	`{"m":{"x":1,"y":2},"p":{"n":4},"t":"2006-01-02T15:04:05Z","ig":"y","IG":"z","txt":"ok","uj":{"q":1},"raw":[1, 2],"arr":[3,4]}`,
	`{"e":5,"shadow":6,"ZooEmbedded":1,"num":"12","f32":1.5,"i8":-5,"hidden":3}`,
	`{"q":42}`, `{"q":"x"}`, `{"q":"4.5"}`, `{"txt":"bad"}`, `{"txt":1}`, `{"txt":null}`, `{"uj":"s"}`, `{"uj":{"q":"x"}}`, `{"uj":null}`,
	`{"t":"x"}`, `{"t":1}`, `{"arr":[1]}`, `{"arr":[1,2,3]}`, `{"arr":[1,"x"]}`, `{"d":"!"}`, `{"d":1}`, `{"f32":1e39}`, `{"i8":128}`,
	`{"i":{"a":1,"a":2}}`, `{"i":[1,2}`, `{"raw":{"a":[1,}}`, `{"b":[1]}`, `{"c":[]}`, `{"p":null}`, `{"p":{"n":-1}}`, `{"m":{"x":"1"}}`,
	`{"a":1,"rest":{"b":[1]},"z":"q"}`, `{"x":1}`, `{"s":"x"}`, `{"n":"12","u":"65535","f":"1.5"}`, `{"n":"1e2"}`, `{"u":"65536"}`, `{"f":"x"}`,
	`{"v":1,"kids":[{"v":2,"kids":[{"v":3}]},null]}`, `{"c":null}`, `{"c":1}`, `{"d":null}`, `{"d":"1s"}`, `{"d":1}`,
	`{"n":5,"s":"6","m":{"1.5":"x"}}`, `{"n":"5"}`, `{"n":"x"}`, `{"s":7}`, `{"m":{"x":"y"}}`, `{"n":true}`, `{"n":-0.5e3}`,
	`{"foo_bar":1}`, `{"FooBar":1}`, `{"foo-bar":1}`, `{"FOOBAR":2}`, `{"foobar":3}`,
	`{"a":1} x`, `{"a":1}{}`, `{"a":"x"} x`, `{"a":"x",]`, `{"a":"x",`, `{"a":1,}`, `{,}`, `{"a"}`, `{"a" 1}`, `{"a":1]`, `{1:2}`,
	`{"a":tru}`, `{"a":nul`, `{"a":-}`, `{"a":1.}`, `{"a":01}`, `{"a":1.5x}`, "{\"b\":[\"a\x01\"]}", `{"b":["\x"]}`, `{"b":["\ud800"]}`,
	`{"b":["\ud800\u0041"]}`, "{\"b\":[\"\xff\"]}", "{\"\xff\":1}", `{"r":{"x":1,"x":2}}`, `{"zz":{"q":x}}`, `{"a~/":1,"a~/":2}`,
	`x`, `]`, `"abc`, `"\u12`, `"\u12x4"`, `{"a":1,"b"`, `{"a" :`, `[1,2`, `{"a":[1,2`,
	`{"h":1}`, `{"e":2,"a":3}`, `{"a":3,"h":null}`, `{"i16":-32769,"u32":4294967296}`, `{"p":1,"b":[1,2,256]}`, `{"b":"AQ=="}`, `{"k":{"x":[1],"x":[2]}}`,
	`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"p":19}`,
	`{"m":{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"m":13,"n":14,"o":15,"p":16,"q":17,"r":18,"\u0070":19}}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000), strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	`{"i":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`, `{"i":` + strings.Repeat("{\"a\":", 10000) + `1` + strings.Repeat("}", 10000) + `}`,
	`{"raw":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`, `{"zz":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`,
}

// oracleReadsNumbers reports whether the oracle decodes json.Number as
// DecodeJSON does: it does when json.Number has its own
// UnmarshalJSONFrom (Go 1.27's encoding/json, on which the oracle is then
// built); before, it decoded json.Number as any string type.
var oracleReadsNumbers = reflect.PointerTo(reflect.TypeFor[json.Number]()).Implements(reflect.TypeFor[jsonv2.UnmarshalerFrom]())

// agreesWithOracle decodes in into a fresh value from make with DecodeJSON
// and with the oracle, and fails t unless both succeed with equal values
// or both fail with the same DecodeReason. The zoo's json.Numbers are
// compared only with an oracle that reads them as DecodeJSON does.
func agreesWithOracle(t *testing.T, name string, make func() any, in []byte) {
	t.Helper()
	if !oracleReadsNumbers && (name == "number" || name == "numbers") {
		t.Skip("this oracle decodes json.Number as a string type; TestDecodeJSONReadsJSONNumberAsGo127Does pins it")
	}
	got, want := make(), make()
	err := rpc.DecodeJSON(in, got)
	wantErr := jsonv2.Unmarshal(in, want)
	if wantErr != nil {
		require.Error(t, err, "%s %q: the oracle fails: %v", name, in, wantErr)
		var derr *rpc.DecodeError
		if !errors.As(err, &derr) && errors.As(wantErr, new(*jsonv2.SemanticError)) == false {
			t.Errorf("%s %q: not a *DecodeError: %T", name, in, err)
		}
		assert.Equal(t, rpc.OracleReason(wantErr), rpc.DecodeReason(err), "%s %q", name, in)
		return
	}
	require.NoError(t, err, "%s %q", name, in)
	assert.True(t, reflect.DeepEqual(want, got), "%s %q:\nwant %#v\ngot  %#v", name, in, want, got)
}

func TestDecodeJSONAgreesWithTheOracle(t *testing.T) {
	for _, z := range zoo {
		t.Run(z.name, func(t *testing.T) {
			for _, in := range oracleInputs {
				agreesWithOracle(t, z.name, z.make, []byte(in))
			}
		})
	}
}

// A syntax error's byte offset is where the oracle finds the fault: the
// reasons say where only as a JSON Pointer, so this is held apart.
func TestASyntaxErrorIsAtTheOraclesOffset(t *testing.T) {
	checked := 0
	for _, z := range zoo {
		for _, in := range oracleInputs {
			err := rpc.DecodeJSON([]byte(in), z.make())
			var derr *rpc.DecodeError
			if !errors.As(err, &derr) || !derr.Syntactic() {
				continue
			}
			var serr *jsontext.SyntacticError
			if !errors.As(jsonv2.Unmarshal([]byte(in), z.make()), &serr) {
				continue // the kinds of error are held to agree by the reasons
			}
			assert.Equal(t, serr.ByteOffset, derr.Offset, "%s %q", z.name, in)
			checked++
		}
	}
	assert.NotZero(t, checked)
}

func FuzzDecodeJSONAgreesWithTheOracle(f *testing.F) {
	for i := range zoo {
		for _, in := range oracleInputs {
			f.Add(uint8(i), []byte(in))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, in []byte) {
		z := zoo[int(which)%len(zoo)]
		agreesWithOracle(t, z.name, z.make, in)
	})
}

// DecodeJSON reads json.Number by the rules of Go 1.27's encoding/json on
// every Go release; the oracle does only from Go 1.27 on.
func TestDecodeJSONReadsJSONNumberAsGo127Does(t *testing.T) {
	for _, tc := range []struct {
		in, want, reason string
	}{
		{`5`, "5", ""},
		{`-1.5e300`, "-1.5e300", ""},
		{`"12"`, "12", ""},
		{`null`, "", ""},
		{`"x"`, "", "a string where a string is expected"},
		{`"1 "`, "", "a string where a string is expected"},
		{`true`, "", "a boolean where a string is expected"},
		{`{}`, "", "an object where a string is expected"},
	} {
		n := json.Number("before")
		err := rpc.DecodeJSON([]byte(tc.in), &n)
		if tc.reason != "" {
			assert.Equal(t, tc.reason, rpc.DecodeReason(err), "%s", tc.in)
			continue
		}
		require.NoError(t, err, "%s", tc.in)
		assert.Equal(t, json.Number(tc.want), n, "%s", tc.in)
	}
	var m map[json.Number]int
	require.NoError(t, rpc.DecodeJSON([]byte(`{"1e2":1}`), &m))
	assert.Equal(t, map[json.Number]int{"1e2": 1}, m, "a member name holds the number")
}
