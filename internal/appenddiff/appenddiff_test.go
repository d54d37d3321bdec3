package appenddiff_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// examplesDir holds the published example messages, one directory per
// schema definition.
var examplesDir = filepath.Join("..", "..", "..", "shared", "mcp-spec", "2026-07-28", "examples")

// examples reads the published example messages by definition name; the
// test skips when they are absent.
func examples(t *testing.T) map[string][][]byte {
	entries, err := os.ReadDir(examplesDir)
	if os.IsNotExist(err) {
		t.Skipf("the published example messages are not at %s: run this test in a checkout next to the shared specs", examplesDir)
	}
	require.NoError(t, err)
	out := map[string][][]byte{}
	for _, e := range entries {
		files, err := filepath.Glob(filepath.Join(examplesDir, e.Name(), "*.json"))
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			out[e.Name()] = append(out[e.Name()], b)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// valuesIn collects the objects and arrays at any depth of the JSON value v.
func valuesIn(v []byte, out map[string]bool) {
	if o, ok := jsonscan.NewObject(v); ok {
		out[string(v)] = true
		for {
			_, mv, ok := o.Next()
			if !ok {
				return
			}
			valuesIn(mv, out)
		}
	}
	if len(v) > 0 && v[0] == '[' {
		out[string(v)] = true
		var items []json.RawMessage
		if json.Unmarshal(v, &items) == nil {
			for _, it := range items {
				valuesIn(it, out)
			}
		}
	}
}

// synthetic builds an object naming every property of t, each with a value
// of the field's Go kind, so that types without a published example are
// exercised too.
func synthetic(t reflect.Type) string {
	if t.Kind() != reflect.Struct {
		return sampleValue(t)
	}
	var parts []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || name == "" {
			continue
		}
		parts = append(parts, strconv.Quote(name)+":"+sampleValue(f.Type))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func sampleValue(t reflect.Type) string {
	if t == reflect.TypeFor[json.RawMessage]() {
		return `{"k":[1,true,"<&>"]}`
	}
	switch t.Kind() {
	case reflect.Pointer:
		return sampleValue(t.Elem())
	case reflect.String:
		return `"s <b> & \u2028 \u00e9"`
	case reflect.Bool:
		return `true`
	case reflect.Int, reflect.Int64, reflect.Int32:
		return `3`
	case reflect.Float64, reflect.Float32:
		return `2.5e-7`
	case reflect.Slice:
		return `[` + sampleValue(t.Elem()) + `]`
	case reflect.Map:
		return `{"b":` + sampleValue(t.Elem()) + `,"a":` + sampleValue(t.Elem()) + `}`
	case reflect.Struct:
		if t.NumField() == 1 && t.Field(0).Name == "Value" { // a union: any object
			return `{"type":"text","text":"t"}`
		}
		return `{}`
	}
	return `null`
}

// replacements are the values each member of a synthetic object is given
// in turn: every JSON kind, escapes, and numbers written in many ways.
var replacements = []string{
	`null`, `0`, `-0`, `-1.5`, `1E+2`, `100000000000000000000000`, `1e-7`, `"s"`, `""`, `"\u003c\ud83d\ude00"`,
	`true`, `false`, `[]`, `[1,"a",null]`, `{}`, `{"type":"text","text":"t","x-extra":[1, 2]}`, ` { "a" : [ 1 ] } `,
}

// mutations derives inputs from an object: unknown members added (kept in
// Extra and sorted on the way out), and each member given another value.
func mutations(obj string) []string {
	o, ok := jsonscan.NewObject([]byte(obj))
	if !ok {
		return nil
	}
	type member struct{ name, value string }
	var ms []member
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		ms = append(ms, member{`"` + string(k) + `"`, string(v)})
	}
	render := func(ms []member) string {
		parts := make([]string, len(ms))
		for i, m := range ms {
			parts[i] = m.name + ":" + m.value
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	out := []string{render(append(append([]member(nil), ms...), member{`"zz-b"`, `1`}, member{`"<a&b>"`, `"<>"`}, member{`"aa"`, ` [ 1 , 2.50 ] `}))}
	for i := range ms {
		for _, r := range replacements {
			with := append([]member(nil), ms...)
			with[i].value = r
			out = append(out, render(with))
		}
	}
	return out
}

// decode decodes in into a new value of t the way the runtime does; false
// when the input does not fit the type.
func decode(t reflect.Type, in []byte) (reflect.Value, bool) {
	p := reflect.New(t)
	if err := rpc.DecodeJSON(in, p.Interface()); err != nil {
		return reflect.Value{}, false
	}
	return p.Elem(), true
}

func TestAppendJSONMatchesTheEncodingItReplaced(t *testing.T) {
	ex := examples(t)
	cross := map[string]bool{}
	for _, list := range ex {
		for _, b := range list {
			valuesIn(b, cross)
		}
	}
	crossList := make([]string, 0, len(cross))
	for s := range cross {
		crossList = append(crossList, s)
	}
	sort.Strings(crossList)

	var decoded, compared, failures int
	byType := map[reflect.Type]int{}
	for _, tg := range targets {
		inputs := []string{synthetic(tg.typ)}
		inputs = append(inputs, mutations(synthetic(tg.typ))...)
		for _, b := range ex[tg.typ.Name()] {
			inputs = append(inputs, string(b))
			inputs = append(inputs, mutations(string(b))...)
		}
		inputs = append(inputs, crossList...)
		values := []reflect.Value{reflect.New(tg.typ).Elem()} // the zero value
		for _, in := range inputs {
			if v, ok := decode(tg.typ, []byte(in)); ok {
				values = append(values, v)
			}
		}
		for _, v := range values {
			decoded++
			n, diffs := differences(v)
			compared += n
			walk(v, func(x reflect.Value) { byType[x.Type()]++ })
			for _, d := range diffs {
				t.Error(d)
				if failures++; failures > 20 {
					t.Fatalf("stopping after %d differences", failures)
				}
			}
		}
	}
	var never []string
	for _, tg := range targets {
		if byType[tg.typ] < 2 {
			never = append(never, tg.pkg()+"."+tg.typ.Name())
		}
	}
	assert.Empty(t, never, "every type is compared on more than its zero value")
	t.Logf("%d types, %d values decoded, %d encodings compared", len(targets), decoded, compared)
}

// TestAppendJSONMatchesOnValuesDecodingCannotMake compares values built in
// Go: pointer variants, Extra members that repeat a declared name, strings
// that are not valid UTF-8, floats at the format boundaries, and Nullable
// in its three states.
func TestAppendJSONMatchesOnValuesDecodingCannotMake(t *testing.T) {
	prio := 1e21
	small := 1e-7
	yes := true
	values := []any{
		v20251125.CallToolResult{
			Content: []v20251125.ContentBlock{
				{Value: &v20251125.TextContent{Text: "bad \xff utf8 <&> \u2028"}},
				{Value: (*v20251125.TextContent)(nil)},
				{},
				{Value: v20251125.UnknownContentBlock{Raw: json.RawMessage(` { "type" : "video" } `)}},
				{Value: v20251125.UnknownContentBlock{}},
				{Value: v20251125.UnknownContentBlock{Raw: json.RawMessage(`{"type":"audio2"}`), Compact: true}},
				{Value: v20251125.ImageContent{Annotations: &v20251125.Annotations{Priority: &prio, Audience: []v20251125.Role{}}}},
			},
			StructuredContent: json.RawMessage(`{"sum": 3}`),
			IsError:           &yes,
			Extra:             map[string]json.RawMessage{"content": json.RawMessage(`1`), "b": nil, "a": json.RawMessage(` "x" `)},
			Meta:              v20251125.Meta{},
		},
		v20251125.Annotations{Priority: &small, LastModified: "\x00\x1f\x7f"},
		v20260728.CallToolResult{Content: []v20260728.ContentBlock{}, Meta: &v20260728.ResultMetaObject{Extra: map[string]json.RawMessage{"z": json.RawMessage(`1`), "a": json.RawMessage(`[ ]`)}}},
		v20260728.TextContent{Meta: v20260728.MetaObject{"z": json.RawMessage(`1`), "a": json.RawMessage(`[ ]`)}},
		v20260728.Tool{Name: "t", InputSchema: json.RawMessage(` {"type": "object"} `)},
	}
	for _, nv := range nullableValues(t) {
		values = append(values, nv)
	}
	for _, x := range values {
		n, diffs := differences(reflect.ValueOf(x))
		assert.Empty(t, diffs)
		assert.NotZero(t, n)
	}
}

// nullableValues finds a generated struct with an rpc.Nullable field and
// returns it absent, null and set.
func nullableValues(t *testing.T) []any {
	for _, tg := range targets {
		if tg.typ.Kind() != reflect.Struct {
			continue
		}
		for i := range tg.typ.NumField() {
			f := tg.typ.Field(i)
			if !strings.HasPrefix(f.Type.Name(), "Nullable[") {
				continue
			}
			var out []any
			for _, set := range []struct{ set, valid bool }{{false, false}, {true, false}, {true, true}} {
				v := reflect.New(tg.typ).Elem()
				v.Field(i).FieldByName("Set").SetBool(set.set)
				v.Field(i).FieldByName("Valid").SetBool(set.valid)
				out = append(out, v.Interface())
			}
			return out
		}
	}
	t.Log("no generated type has an rpc.Nullable field")
	return nil
}

// TestAppendJSONFailsWhereTheOldEncodingFailed: a NaN, raw JSON that is not
// JSON (in a field, an Extra member, a map value, an unknown variant) fail
// the whole encoding, with the cause in the error.
func TestAppendJSONFailsWhereTheOldEncodingFailed(t *testing.T) {
	nan := math.NaN()
	inf := math.Inf(1)
	bad := json.RawMessage(`{"a":`)
	cases := []struct {
		name  string
		value any
		cause string
	}{
		{"a NaN", v20251125.Annotations{Priority: &nan}, "NaN"},
		{"an infinity nested in a union", v20251125.CallToolResult{Content: []v20251125.ContentBlock{{Value: v20251125.TextContent{Annotations: &v20251125.Annotations{Priority: &inf}}}}}, "+Inf"},
		{"invalid raw JSON in a field", v20251125.CallToolResult{StructuredContent: bad}, "unexpected end of JSON input"},
		{"empty non-nil raw JSON", v20251125.CallToolResult{StructuredContent: json.RawMessage{}}, "unexpected end of JSON input"},
		{"invalid raw JSON in Extra", v20251125.Annotations{Extra: map[string]json.RawMessage{"x": bad}}, "unexpected end of JSON input"},
		{"invalid raw JSON in a map", v20260728.TextContent{Meta: v20260728.MetaObject{"x": json.RawMessage(`nope`)}}, "invalid character"},
		{"an unknown variant that is not JSON", v20251125.CallToolResult{Content: []v20251125.ContentBlock{{Value: v20251125.UnknownContentBlock{Raw: bad}}}}, "unexpected end of JSON input"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := reflect.ValueOf(tc.value)
			_, oldErr := oldEncode(v)
			require.Error(t, oldErr, "the old encoding failed too")
			b, err := newEncode(v)
			require.Error(t, err)
			assert.Nil(t, b)
			assert.Contains(t, err.Error(), tc.cause)
			_, err = json.Marshal(tc.value)
			assert.Error(t, err, "MarshalJSON fails as well")
		})
	}
}

func TestTargetsCoverEveryAppender(t *testing.T) {
	listed := map[string]bool{}
	for _, tg := range targets {
		listed[tg.pkg()+"."+tg.typ.Name()] = true
	}
	want := map[string]bool{}
	for _, dir := range []string{"mcp/v20251125", "mcp/v20260728", "examples/calc/calcrpc"} {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*_gen.go"))
		require.NoError(t, err)
		for _, path := range files {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			require.NoError(t, err)
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "AppendJSON" {
					recv := fn.Recv.List[0].Type
					if star, ok := recv.(*ast.StarExpr); ok { // structs and unions: (*T).AppendJSON
						recv = star.X
					}
					want[filepath.Base(dir)+"."+recv.(*ast.Ident).Name] = true
				}
			}
		}
	}
	assert.Equal(t, want, listed, "targets_test.go must list every generated type with AppendJSON")
}

// fuzzTypes are the rich types the fuzz target decodes its input into:
// results and params that nest unions, maps, raw JSON and Extra members.
var fuzzTypes = []reflect.Type{
	reflect.TypeFor[v20251125.CallToolResult](),
	reflect.TypeFor[v20251125.Tool](),
	reflect.TypeFor[v20251125.InitializeResult](),
	reflect.TypeFor[v20251125.CreateMessageRequestParams](),
	reflect.TypeFor[v20260728.CallToolResult](),
	reflect.TypeFor[v20260728.Tool](),
	reflect.TypeFor[v20260728.DiscoverResult](),
	reflect.TypeFor[v20260728.CreateMessageRequestParams](),
}

// FuzzAppendJSONMatchesTheEncodingItReplaced decodes arbitrary input into
// each of fuzzTypes and compares both encodings of every generated value
// in what was decoded.
func FuzzAppendJSONMatchesTheEncodingItReplaced(f *testing.F) {
	f.Add([]byte(`{"content":[{"type":"text","text":"hi <&>","_meta":{"b":1,"a":[ 2 ]}},{"type":"video"}],"structuredContent":{"sum": 3},"isError":false,"x":1}`))
	f.Add([]byte(`{"name":"add","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true},"icons":[{"src":"a.png"}]}`))
	f.Add([]byte(`{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true}},"serverInfo":{"name":"s","version":"1"}}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":{"type":"text","text":"q"}}],"maxTokens":10,"temperature":0.5,"stopSequences":[]}`))
	for _, t := range fuzzTypes {
		files, _ := filepath.Glob(filepath.Join(examplesDir, t.Name(), "*.json"))
		for _, path := range files {
			if b, err := os.ReadFile(path); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, typ := range fuzzTypes {
			v, ok := decode(typ, in)
			if !ok {
				continue
			}
			_, diffs := differences(v)
			assert.Empty(t, diffs, "%s", in)
		}
	})
}
