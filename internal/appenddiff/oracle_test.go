package appenddiff_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/jsonwrite"
	"github.com/schemarpc/schemarpc/rpc"
)

// target is one generated type with AppendJSON.
type target struct {
	typ reflect.Type
}

// of names the generated type T as a target.
func of[T any]() target { return target{typ: reflect.TypeFor[T]()} }

// pkg is the last element of the type's package path.
func (t target) pkg() string { return filepath.Base(t.typ.PkgPath()) }

// generated are the packages whose types the walk compares.
var generated = func() map[string]bool {
	out := map[string]bool{}
	for _, tg := range targets {
		out[tg.typ.PkgPath()] = true
	}
	return out
}()

var appenderType = reflect.TypeFor[rpc.JSONAppender]()

// isTarget reports whether values of t are compared: a generated type with
// AppendJSON, declared on the value (enums, defined types) or on the
// pointer (structs and unions).
func isTarget(t reflect.Type) bool {
	return generated[t.PkgPath()] && (t.Implements(appenderType) || reflect.PointerTo(t).Implements(appenderType))
}

// newEncode is what is under test: the value's AppendJSON, called through
// a pointer to a copy of it when the method is the pointer's.
func newEncode(v reflect.Value) ([]byte, error) {
	if a, ok := v.Interface().(rpc.JSONAppender); ok {
		return a.AppendJSON(nil)
	}
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return p.Interface().(rpc.JSONAppender).AppendJSON(nil)
}

// encode is encoding/json without HTML escaping, the bytes the runtime
// put on the wire before AppendJSON.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// oldEncode encodes v the way generated code did before AppendJSON, one
// level deep: nested generated values encode themselves (with AppendJSON),
// each of them compared on its own by the walk.
//
//   - a union box: encoding/json of its Value (nil is null);
//   - a union's Unknown variant: Raw compacted (as it is when marked
//     Compact), null when empty;
//   - a struct: encoding/json of a copy without methods, after the fills
//     (a nil required list or map made empty, an empty const property set
//     to its const), then the Extra members joined on as JoinExtra did;
//   - an enum or defined type: encoding/json of the value converted to its
//     unnamed underlying type.
func oldEncode(v reflect.Value) ([]byte, error) {
	t := v.Type()
	switch {
	case isBox(t, "Value"):
		return encode(v.Field(0).Interface())
	case isUnknownVariant(t):
		if v.Field(0).Len() == 0 {
			return []byte("null"), nil
		}
		if t.NumField() == 2 && v.Field(1).Bool() {
			return v.Field(0).Bytes(), nil // Compact: the program vouches for Raw
		}
		return encode(v.Field(0).Interface())
	case t.Kind() == reflect.Struct:
		return oldStruct(v)
	}
	return encode(v.Convert(unnamed(t)).Interface())
}

// isBox reports whether t is a struct of one untagged field with the name:
// a union's box (Value) or its Unknown variant (Raw). Generated struct
// fields always carry a json tag.
func isBox(t reflect.Type, name string) bool {
	return t.Kind() == reflect.Struct && t.NumField() == 1 && t.Field(0).Name == name && t.Field(0).Tag == ""
}

// isUnknownVariant reports whether t is a union's Unknown variant: its
// untagged Raw, and the untagged Compact flag that says Raw is compact
// JSON the program built (copied as it is).
func isUnknownVariant(t reflect.Type) bool {
	if isBox(t, "Raw") {
		return true
	}
	return t.Kind() == reflect.Struct && t.NumField() == 2 &&
		t.Field(0).Name == "Raw" && t.Field(0).Tag == "" &&
		t.Field(1).Name == "Compact" && t.Field(1).Tag == "" && t.Field(1).Type.Kind() == reflect.Bool
}

// unnamed is the type literal a defined type is defined over.
func unnamed(t reflect.Type) reflect.Type {
	switch t.Kind() {
	case reflect.Slice:
		return reflect.SliceOf(t.Elem())
	case reflect.Map:
		return reflect.MapOf(t.Key(), t.Elem())
	case reflect.String:
		return reflect.TypeFor[string]()
	case reflect.Int64:
		return reflect.TypeFor[int64]()
	case reflect.Float64:
		return reflect.TypeFor[float64]()
	case reflect.Bool:
		return reflect.TypeFor[bool]()
	}
	panic("no unnamed type for " + t.String())
}

func oldStruct(v reflect.Value) ([]byte, error) {
	t := v.Type()
	fields := make([]reflect.StructField, t.NumField())
	var known []string
	extraAt := -1
	for i := range fields {
		f := t.Field(i)
		fields[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			extraAt = i
			continue
		}
		known = append(known, name)
	}
	plain := reflect.New(reflect.StructOf(fields)).Elem()
	plain.Set(v.Convert(plain.Type()))
	for i, fill := range fillsOf(t) {
		if f := plain.Field(i); f.IsZero() {
			f.Set(fill)
		}
	}
	b, err := encode(plain.Interface())
	if err != nil || extraAt < 0 || v.Field(extraAt).Len() == 0 {
		return b, err
	}
	return joinExtra(b, v.Field(extraAt), known)
}

// joinExtra is JoinExtra as generated MarshalJSON methods called it before
// AppendJSON: the unknown members copied to a map, encoded by
// encoding/json (sorted by name) and spliced in before the closing brace.
func joinExtra(b []byte, extra reflect.Value, known []string) ([]byte, error) {
	rest := map[string]any{}
	for it := extra.MapRange(); it.Next(); {
		if k := it.Key().String(); !contains(known, k) {
			rest[k] = it.Value().Interface()
		}
	}
	if len(rest) == 0 {
		return b, nil
	}
	more, err := encode(rest)
	if err != nil {
		return nil, err
	}
	if len(b) <= 2 {
		return more, nil
	}
	return append(b[:len(b)-1:len(b)-1], append([]byte{','}, more[1:]...)...), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var fillCache sync.Map // reflect.Type → map[int]reflect.Value

// fillsOf finds the fields the old MarshalJSON filled in when empty: a
// string property without omit option that the zero value writes as a
// non-empty string (its const), and a list or map property without omit
// option that the zero value writes as [] or {}. The generator's own tests
// pin which properties those are (TestRequiredListsAndMapsNeverMarshalAsNull,
// TestUnionsEncodeVariantsAndFillTheirConst); here they only make the old
// encoding comparable.
func fillsOf(t reflect.Type) map[int]reflect.Value {
	if m, ok := fillCache.Load(t); ok {
		return m.(map[int]reflect.Value)
	}
	zero, err := newEncode(reflect.New(t).Elem())
	if err != nil {
		panic(fmt.Sprintf("%s: the zero value does not encode: %v", t, err))
	}
	written := map[string]string{}
	o, ok := jsonscan.NewObject(zero)
	if !ok {
		panic(fmt.Sprintf("%s: the zero value is not an object: %s", t, zero))
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		written[string(k)] = string(v)
	}
	fills := map[int]reflect.Value{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		w, ok := written[name]
		if name == "-" || opts != "" || !ok {
			continue
		}
		switch f.Type.Kind() {
		case reflect.String:
			if s, err := strconv.Unquote(w); err == nil && s != "" {
				fills[i] = reflect.ValueOf(s).Convert(f.Type)
			}
		case reflect.Slice:
			if w == "[]" {
				fills[i] = reflect.MakeSlice(f.Type, 0, 0)
			}
		case reflect.Map:
			if w == "{}" {
				fills[i] = reflect.MakeMap(f.Type)
			}
		}
	}
	fillCache.Store(t, fills)
	return fills
}

// walk calls visit for every generated value with AppendJSON within v, v
// included, outermost first.
func walk(v reflect.Value, visit func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), visit)
		}
		return
	}
	if isTarget(v.Type()) {
		visit(v)
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				walk(v.Field(i), visit)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			walk(v.Index(i), visit)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			walk(it.Value(), visit)
		}
	}
}

// difference compares the two encodings of v: "" when they agree (both
// fail, or both write the same bytes).
func difference(v reflect.Value) string {
	newB, newErr := newEncode(v)
	oldB, oldErr := oldEncode(v)
	switch {
	case (newErr == nil) != (oldErr == nil):
		return fmt.Sprintf("%s: old error %v, new error %v (old %s, new %s)", v.Type(), oldErr, newErr, oldB, newB)
	case newErr != nil:
		return ""
	case !bytes.Equal(jsonwrite.UnescapeReplacement(newB), jsonwrite.UnescapeReplacement(oldB)):
		// Where encoding/json writes a string, Go 1.27 writes the U+FFFD
		// that stands for invalid UTF-8 as the character; Go 1.26 and
		// jsonwrite write the escape.
		return fmt.Sprintf("%s:\nold %s\nnew %s", v.Type(), oldB, newB)
	}
	return ""
}

// differences compares every generated value within v, v included.
func differences(v reflect.Value) (compared int, diffs []string) {
	walk(v, func(x reflect.Value) {
		compared++
		if d := difference(x); d != "" {
			diffs = append(diffs, d)
		}
	})
	return compared, diffs
}
