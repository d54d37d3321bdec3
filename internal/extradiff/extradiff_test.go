package extradiff_test

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/rpc"
)

// target is one generated type with an Extra map.
type target struct {
	typ reflect.Type
}

// of names the generated type T as a target.
func of[T any]() target { return target{typ: reflect.TypeFor[T]()} }

// pkg is the last element of the type's package path, as in the bindings'
// directory names.
func (t target) pkg() string { return filepath.Base(t.typ.PkgPath()) }

// newDecode decodes b with the type's own (one-pass) UnmarshalJSON.
func (t target) newDecode(b []byte) (any, error) {
	p := reflect.New(t.typ)
	err := p.Interface().(json.Unmarshaler).UnmarshalJSON(b)
	return p.Elem().Interface(), err
}

// checkedDecode decodes b with the type's UnmarshalCheckedJSON, which
// must give what UnmarshalJSON gives for text the strict scanner accepts.
func (t target) checkedDecode(b []byte) (any, error) {
	p := reflect.New(t.typ)
	err := p.Interface().(rpc.CheckedUnmarshaler).UnmarshalCheckedJSON(b)
	return p.Elem().Interface(), err
}

// oldDecode decodes b the way generated code did before DecodeMembers: the
// whole object into a struct with the same fields and no methods, then the
// unknown members by decoding the object into a map (splitExtra, the old
// SplitExtra, kept here as the oracle since SplitExtra now runs on
// DecodeMembers).
func (t target) oldDecode(b []byte) (any, error) {
	fields := make([]reflect.StructField, t.typ.NumField())
	var known []string
	extraAt := -1
	for i := range fields {
		f := t.typ.Field(i)
		fields[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			extraAt = i
			continue
		}
		known = append(known, name)
	}
	if extraAt < 0 {
		return nil, fmt.Errorf("%s has no Extra field", t.typ)
	}
	plain := reflect.New(reflect.StructOf(fields))
	out := reflect.New(t.typ).Elem()
	if err := rpc.DecodeJSON(b, plain.Interface()); err != nil {
		return out.Interface(), err
	}
	for i := range fields {
		out.Field(i).Set(plain.Elem().Field(i))
	}
	var extra any
	var err error
	switch t.typ.Field(extraAt).Type.Elem() {
	case reflect.TypeFor[json.RawMessage]():
		extra, err = splitExtra[json.RawMessage](b, known...)
	case reflect.TypeFor[float64]():
		extra, err = splitExtra[float64](b, known...)
	default:
		return nil, fmt.Errorf("%s: no old path for Extra of %s", t.typ, t.typ.Field(extraAt).Type)
	}
	if err != nil {
		return out.Interface(), err
	}
	out.Field(extraAt).Set(reflect.ValueOf(extra).Convert(t.typ.Field(extraAt).Type))
	return out.Interface(), nil
}

// splitExtra is SplitExtra as it was before DecodeMembers: the whole object
// decoded into a map, the known names deleted, the rest decoded into V.
func splitExtra[V any](b []byte, known ...string) (map[string]V, error) {
	var all map[string]json.RawMessage
	if err := rpc.DecodeJSON(b, &all); err != nil {
		return nil, err
	}
	for _, k := range known {
		delete(all, k)
	}
	if len(all) == 0 {
		return nil, nil
	}
	out := make(map[string]V, len(all))
	for k, raw := range all {
		var x V
		if err := rpc.DecodeJSON(raw, &x); err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
}

// knownNames are the member names the type's properties take.
func (t target) knownNames() []string {
	var out []string
	for i := range t.typ.NumField() {
		name, _, _ := strings.Cut(t.typ.Field(i).Tag.Get("json"), ",")
		if name != "-" {
			out = append(out, name)
		}
	}
	return out
}

// member is one member of an object as written: name and value are raw
// JSON text (the name with its quotes).
type member struct{ name, value string }

func render(ms []member) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.name + ":" + m.value
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// members splits a JSON object into its members, in order.
func members(t *testing.T, b []byte) []member {
	o, ok := jsonscan.NewObject(b)
	require.True(t, ok, "an object: %s", b)
	var out []member
	for {
		k, v, ok := o.Next()
		if !ok {
			require.False(t, o.Err(), "well-formed: %s", b)
			return out
		}
		out = append(out, member{`"` + string(k) + `"`, string(v)})
	}
}

// replacements are the values each member is given in turn: every JSON
// kind, plus invalid UTF-8, a lone surrogate and the edge cases of numbers
// and strings.
var replacements = []string{
	`null`, `0`, `-1.5`, `1e400`, `"s"`, `""`, `true`, `[]`, `[1,"a"]`, `{}`, `{"type":"text","text":"t"}`, "\"\xff\"", `"\ud800"`,
	// numbers an integer field must refuse or take as they are
	`1.5`, `1e2`, `-0`, `12345678901234567890`, `-9223372036854775808`,
	// strings written with escapes, arrays of each kind, deep nesting
	`"\u00e9\"\n"`, `[null]`, `[{}]`, `["s","t"]`, `[1.5]`, `[{"type":"text","text":"t"}]`,
	strings.Repeat("[", 100) + strings.Repeat("]", 100),
}

// notObjects are inputs that are not a single well-formed object.
var notObjects = []string{``, ` `, `null`, ` null `, `[]`, `"x"`, `1`, `true`, `{`, `{"a":1}x`, `{"a":1,}`, `{"a"}`, `{"a":1 "b":2}`, "\xff", ` {} `}

// mutations derives inputs from an object's members: as is, with unknown
// members added, and with each member renamed (escaped, case-changed),
// repeated, or given another value.
func mutations(base []member) []string {
	out := []string{render(base)}
	add := func(ms ...member) []member { return append(append([]member(nil), base...), ms...) }
	out = append(out,
		render(add(member{`"io.modelcontextprotocol/related-task"`, `{"taskId":"t1"}`})),
		render(add(member{`"x-a"`, `1`}, member{`"x-b"`, ` [ 1 , 2.50 ] `}, member{`"x-c"`, `null`})),
		render(add(member{`"x-a"`, `1`}, member{`"x-a"`, `2`})),
		render(add(member{`"x-a"`, `1`}, member{`"x\u002da"`, `2`})),
		render(add(member{`"\u0078-esc"`, `"v"`})),
		render(add(member{"\"\xff\"", `1`})),
		render(add(member{`"x-deep"`, strings.Repeat("[", 200) + strings.Repeat("]", 200)})),
	)
	for i, m := range base {
		with := func(r member) []member {
			ms := append([]member(nil), base...)
			ms[i] = r
			return ms
		}
		name, _ := strconv.Unquote(m.name)
		out = append(out,
			render(with(member{escapeFirst(m.name), m.value})),
			render(add(m)),
			render(add(member{escapeFirst(m.name), m.value})),
		)
		if upper := upperFirst(name); upper != name {
			out = append(out, render(with(member{strconv.Quote(upper), m.value})))
		}
		for _, r := range replacements {
			out = append(out, render(with(member{m.name, r})))
		}
		if obj, ok := jsonscan.NewObject([]byte(m.value)); ok {
			_ = obj
			out = append(out, render(with(member{m.name, ` ` + m.value + ` `})))
		}
	}
	return out
}

// escapeFirst writes the first character of a quoted name as a \u escape.
func escapeFirst(quoted string) string {
	if len(quoted) < 3 || quoted[1] >= 0x80 || quoted[1] == '\\' {
		return quoted
	}
	return fmt.Sprintf(`"\u%04x%s`, quoted[1], quoted[2:])
}

func upperFirst(s string) string {
	for i, r := range s {
		return s[:i] + string(unicode.ToUpper(r)) + s[i+len(string(r)):]
	}
	return s
}

// synthetic builds an object naming every property of t, each with a value
// of the field's Go kind, so that types without a published example are
// exercised too.
func synthetic(t target) []member {
	var out []member
	for i := range t.typ.NumField() {
		f := t.typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		out = append(out, member{strconv.Quote(name), sampleValue(f.Type)})
	}
	return out
}

func sampleValue(t reflect.Type) string {
	if t == reflect.TypeFor[json.RawMessage]() {
		return `{"k":[1,true]}`
	}
	switch t.Kind() {
	case reflect.Pointer:
		return sampleValue(t.Elem())
	case reflect.String:
		return `"s"`
	case reflect.Bool:
		return `true`
	case reflect.Int, reflect.Int64, reflect.Int32:
		return `3`
	case reflect.Float64, reflect.Float32:
		return `2.5`
	case reflect.Slice:
		return `[]`
	case reflect.Map, reflect.Struct:
		return `{}`
	}
	return `null`
}

// examples reads the published example messages, by the name of the
// schema definition they illustrate; the test skips when they are absent.
func examples(t *testing.T) map[string][][]byte {
	dir := filepath.Join("..", "..", "..", "shared", "mcp-spec", "2026-07-28", "examples")
	entries, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		t.Skipf("the published example messages are not at %s: run this test in a checkout next to the shared specs", dir)
	}
	require.NoError(t, err)
	out := map[string][][]byte{}
	for _, e := range entries {
		files, err := filepath.Glob(filepath.Join(dir, e.Name(), "*.json"))
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

// objectsIn collects the objects at any depth of the JSON value v.
func objectsIn(v []byte, out map[string]bool) {
	if o, ok := jsonscan.NewObject(v); ok {
		out[string(v)] = true
		for {
			_, mv, ok := o.Next()
			if !ok {
				return
			}
			objectsIn(mv, out)
		}
	}
	if len(v) > 0 && v[0] == '[' {
		var items []json.RawMessage
		if json.Unmarshal(v, &items) == nil {
			for _, it := range items {
				objectsIn(it, out)
			}
		}
	}
}

// compare decodes in with both paths and reports any difference: error or
// no error, the error text, and the decoded value. Text the strict scanner
// accepts is decoded a third way, unchecked (checkedDecode), which must
// give the new path's value or error exactly.
func compare(t *testing.T, tg target, in string) bool {
	t.Helper()
	oldV, oldErr := tg.oldDecode([]byte(in))
	newV, newErr := tg.newDecode([]byte(in))
	if jsonscan.Strict([]byte(in), 10000) {
		checkedV, checkedErr := tg.checkedDecode([]byte(in))
		if fmt.Sprint(checkedErr) != fmt.Sprint(newErr) || !reflect.DeepEqual(checkedV, newV) {
			t.Errorf("%s.%s: %q: checked %#v, %v; new %#v, %v", tg.pkg(), tg.typ.Name(), in, checkedV, checkedErr, newV, newErr)
			return false
		}
	}
	if (oldErr == nil) != (newErr == nil) {
		t.Errorf("%s.%s: %q: old error %v, new error %v", tg.pkg(), tg.typ.Name(), in, oldErr, newErr)
		return false
	}
	if oldErr != nil {
		// Input with a syntax error and also a member of the wrong type
		// before it: the old path reported whichever it met first, the new
		// one checks the whole text first and reports the syntax error.
		if !jsonscan.Strict([]byte(in), 10000) {
			return true
		}
		if oldErr.Error() != newErr.Error() && !sameExceptGoType(oldErr.Error(), newErr.Error()) {
			t.Errorf("%s.%s: %q: old error %q, new error %q", tg.pkg(), tg.typ.Name(), in, oldErr, newErr)
			return false
		}
		return true
	}
	if !reflect.DeepEqual(oldV, newV) {
		t.Errorf("%s.%s: %q: old %#v, new %#v", tg.pkg(), tg.typ.Name(), in, oldV, newV)
		return false
	}
	return true
}

// sameExceptGoType reports whether two error texts differ only in the Go
// type named at the end, as they do for input that is not an object: the
// old path named the struct it decoded into (here an unnamed copy of the
// type), the new one the map of members it expected.
func sameExceptGoType(old, new string) bool {
	o, _, okOld := strings.Cut(old, " into Go struct")
	n, rest, okNew := strings.Cut(new, " into Go map[string]")
	return okOld && okNew && o == n && !strings.Contains(rest, " within ")
}

func TestOnePassDecodeMatchesTwoPassDecode(t *testing.T) {
	ex := examples(t)
	cross := map[string]bool{}
	for _, list := range ex {
		for _, b := range list {
			objectsIn(b, cross)
		}
	}
	crossList := make([]string, 0, len(cross))
	for s := range cross {
		crossList = append(crossList, s)
	}
	sort.Strings(crossList)

	var cases, failures int
	for _, tg := range targets {
		inputs := append([]string(nil), notObjects...)
		inputs = append(inputs, mutations(synthetic(tg))...)
		for _, b := range ex[tg.typ.Name()] {
			inputs = append(inputs, string(b))
			inputs = append(inputs, mutations(members(t, b))...)
		}
		inputs = append(inputs, crossList...)
		for _, in := range inputs {
			cases++
			if !compare(t, tg, in) {
				failures++
				if failures > 20 {
					t.Fatalf("stopping after %d differences", failures)
				}
			}
		}
	}
	t.Logf("%d types, %d decodes compared", len(targets), cases)
}

func TestTargetsCoverEveryTypeWithExtra(t *testing.T) {
	listed := map[string]bool{}
	for _, tg := range targets {
		listed[tg.pkg()+"."+tg.typ.Name()] = true
	}
	want := map[string]bool{}
	for _, pkg := range []string{"v20251125", "v20260728"} {
		path := filepath.Join("..", "..", "mcp", pkg, "types_gen.go")
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			// Every struct that keeps unknown members is marked as one whose
			// UnmarshalJSON checks its input, whether it decodes through its
			// table (rpc.DecodeStruct) or its own walk.
			if !ok || fn.Recv == nil || fn.Name.Name != "UnmarshalJSONChecksInput" {
				continue
			}
			star := fn.Recv.List[0].Type.(*ast.StarExpr)
			want[pkg+"."+star.X.(*ast.Ident).Name] = true
		}
	}
	assert.Equal(t, want, listed, "targets_test.go must list every generated type that keeps unknown members")
}
