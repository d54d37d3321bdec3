package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	gojsonschema "github.com/google/jsonschema-go/jsonschema"
)

// The schema inference AddTool had before schemainfer.go, kept as the
// oracle ours must agree with byte for byte: the schema library's ForType
// over a copy of the type without our keyword tags, then the keyword tags
// set on what it gives.

// librarySchemaFor is what schemaFor gave for t with the schema library.
func librarySchemaFor(t reflect.Type) ([]byte, error) {
	plain, err := oracleWithoutKeywordTags(t, map[reflect.Type]bool{})
	if err != nil {
		return nil, err
	}
	raw := map[reflect.Type]*gojsonschema.Schema{reflect.TypeFor[json.RawMessage](): {}}
	s, err := gojsonschema.ForType(plain, &gojsonschema.ForOptions{TypeSchemas: raw})
	if err != nil {
		return nil, err
	}
	if err := oracleApplyKeywordTags(t, s, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	b, err := json.Marshal(s)
	return rawPointerAllowsAnyValue(b), err
}

// errOracleBlind marks a type the oracle cannot judge: hiding its keyword
// tags from the library means rebuilding it with reflect.StructOf, which
// cannot embed an unexported type. Inference promotes that type's fields
// as encoding/json does (TestSchemaTagKeywordsInAnEmbeddedUnexportedStructApply).
var errOracleBlind = errors.New("keyword tags beside an embedded unexported type: the oracle cannot rebuild it")

// rawPointerAllowsAnyValue mends the one schema where ours departs from
// the library's on purpose: a *json.RawMessage holds any JSON value (null
// as nil), where the library gave it "type":["null"] (null only). No other
// Go type gets a type list of null alone.
func rawPointerAllowsAnyValue(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(`{"type":["null"]}`), []byte(`true`))
	return bytes.ReplaceAll(b, []byte(`"type":["null"],`), nil)
}

// oracleJSONName is the property name encoding/json gives f, and whether
// it encodes f at all, as the oracle read it.
func oracleJSONName(f reflect.StructField) (string, bool) {
	if !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch {
	case f.Tag.Get("json") == "-":
		return "", false
	case name == "":
		return f.Name, true
	}
	return name, true
}

// oracleWithoutKeywordTags returns a type that encodes as t does but whose
// keyword tags are gone, for the schema library, which refuses them: the
// same type when t has none, otherwise struct types rebuilt with
// reflect.StructOf.
func oracleWithoutKeywordTags(t reflect.Type, seen map[reflect.Type]bool) (reflect.Type, error) {
	if !hasKeywordTags(t, map[reflect.Type]bool{}) {
		return t, nil
	}
	if seen[t] {
		// Without keyword tags the schema library refuses the cycle itself.
		return nil, fmt.Errorf("cycle detected for type %v", t)
	}
	seen[t] = true
	defer delete(seen, t)
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		elem, err := oracleWithoutKeywordTags(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		switch t.Kind() {
		case reflect.Pointer:
			return reflect.PointerTo(elem), nil
		case reflect.Slice:
			return reflect.SliceOf(elem), nil
		case reflect.Array:
			return reflect.ArrayOf(t.Len(), elem), nil
		default:
			return reflect.MapOf(t.Key(), elem), nil
		}
	}
	var fields []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue // never encoded
		}
		if f.PkgPath != "" {
			return nil, fmt.Errorf("%v embeds the unexported type %v: %w", t, f.Type, errOracleBlind)
		}
		ft, err := oracleWithoutKeywordTags(f.Type, seen)
		if err != nil {
			return nil, err
		}
		f.Type = ft
		// The schema library reads only these two keys.
		orig := f.Tag
		f.Tag = ""
		if j, ok := orig.Lookup("json"); ok {
			f.Tag = reflect.StructTag("json:" + strconv.Quote(j))
		}
		if tag, ok := orig.Lookup("jsonschema"); ok && !inKeywordForm(tag) {
			f.Tag += reflect.StructTag(" jsonschema:" + strconv.Quote(tag))
		}
		f.Index, f.Offset = nil, 0
		fields = append(fields, f)
	}
	return reflect.StructOf(fields), nil
}

// oracleApplyKeywordTags sets on s, the schema inferred for t, what the keyword
// tags of t's fields say.
func oracleApplyKeywordTags(t reflect.Type, s *gojsonschema.Schema, seen map[reflect.Type]bool) error {
	if s == nil || seen[t] {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return oracleApplyKeywordTags(t.Elem(), s, seen)
	case reflect.Slice, reflect.Array:
		return oracleApplyKeywordTags(t.Elem(), s.Items, seen)
	case reflect.Map:
		return oracleApplyKeywordTags(t.Elem(), s.AdditionalProperties, seen)
	case reflect.Struct:
	default:
		return nil
	}
	seen[t] = true
	defer delete(seen, t)
	for _, f := range reflect.VisibleFields(t) {
		name, ok := oracleJSONName(f)
		if !ok {
			continue
		}
		prop := s.Properties[name]
		if prop == nil {
			continue
		}
		if tag, ok := f.Tag.Lookup("jsonschema"); ok && inKeywordForm(tag) {
			if err := oracleApplyTag(f.Type, prop, tag); err != nil {
				return fmt.Errorf("field %s.%s: jsonschema tag %q: %w", t, f.Name, tag, err)
			}
		}
		if !f.Anonymous {
			if err := oracleApplyKeywordTags(f.Type, prop, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// oracleApplyTag sets the keywords of one field's tag on its schema prop; t is
// the field's Go type.
func oracleApplyTag(t reflect.Type, prop *gojsonschema.Schema, tag string) error {
	kws, err := parseSchemaTag(tag)
	if err != nil {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, kw := range kws {
		target, vt := prop, t
		if itemKeywords[kw.name] && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && prop.Items != nil {
			target, vt = prop.Items, t.Elem()
			for vt.Kind() == reflect.Pointer {
				vt = vt.Elem()
			}
		}
		if err := oracleSetKeyword(target, vt, kw); err != nil {
			return fmt.Errorf("%s: %w", kw.name, err)
		}
	}
	// What the tag gave must fit the schema it is part of.
	resolved, err := prop.Resolve(nil)
	if err != nil {
		return err
	}
	if len(prop.Default) > 0 {
		var v any
		if err := json.Unmarshal(prop.Default, &v); err != nil {
			return fmt.Errorf("default: %w", err)
		}
		if err := resolved.Validate(v); err != nil {
			return fmt.Errorf("default %s: %w", prop.Default, err)
		}
	}
	for _, ex := range prop.Examples {
		if err := resolved.Validate(ex); err != nil {
			return fmt.Errorf("example %v: %w", ex, err)
		}
	}
	return nil
}

// oracleSetKeyword sets one keyword on s, the schema of a value of Go type t.
func oracleSetKeyword(s *gojsonschema.Schema, t reflect.Type, kw tagKeyword) error {
	switch kw.name {
	case "description":
		s.Description = kw.value
	case "title":
		s.Title = kw.value
	case "format":
		s.Format = kw.value
	case "pattern":
		if _, err := regexp.Compile(kw.value); err != nil {
			return err
		}
		s.Pattern = kw.value
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		n, err := strconv.ParseFloat(kw.value, 64)
		if err != nil {
			return fmt.Errorf("%q is not a number", kw.value)
		}
		switch kw.name {
		case "minimum":
			s.Minimum = &n
		case "maximum":
			s.Maximum = &n
		case "exclusiveMinimum":
			s.ExclusiveMinimum = &n
		default:
			s.ExclusiveMaximum = &n
		}
	case "minLength", "maxLength":
		n, err := strconv.Atoi(kw.value)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a length", kw.value)
		}
		if kw.name == "minLength" {
			s.MinLength = &n
		} else {
			s.MaxLength = &n
		}
	case "enum", "examples":
		var values []any
		for _, text := range strings.Split(kw.value, "|") {
			v, err := tagValue(t, text)
			if err != nil {
				return err
			}
			values = append(values, v)
		}
		if kw.name == "enum" {
			s.Enum = values
		} else {
			s.Examples = values
		}
	case "default":
		v, err := tagValue(t, kw.value)
		if err != nil {
			return err
		}
		if s.Default, err = json.Marshal(v); err != nil {
			return err
		}
	}
	return nil
}

// hasKeywordTags reports whether t, or a type it is built from, has a
// struct field with a jsonschema tag in keyword form.
func hasKeywordTags(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = t.Elem()
	}
	if t.Kind() == reflect.Map {
		return hasKeywordTags(t.Elem(), seen)
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return false
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if tag, ok := f.Tag.Lookup("jsonschema"); ok && inKeywordForm(tag) {
			return true
		}
		if hasKeywordTags(f.Type, seen) {
			return true
		}
	}
	return false
}
