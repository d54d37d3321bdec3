package mcp

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// The `jsonschema:"…"` struct tag of a field whose schema is inferred: see
// AddTool for the syntax. A free-text tag is the description, set while
// the schema is inferred (schemainfer.go); a tag in keyword form is read
// here and applied to the inferred schema.

// tagKeywords are the keywords a jsonschema tag may set, in the order they
// are documented.
var tagKeywords = []string{
	"description", "title", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
	"minLength", "maxLength", "pattern", "format", "default", "examples",
}

// itemKeywords are the keywords that, on a slice or array field, constrain
// its items.
var itemKeywords = map[string]bool{
	"enum": true, "minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"minLength": true, "maxLength": true, "pattern": true, "format": true,
}

// inKeywordForm reports whether a tag is in keyword form: it begins with
// WORD=, an "=" before any space, tab or newline. (A scan, not a regular
// expression: compiling one at package init cost every program that links
// this package a start-up's worth of regexp code and stack.)
func inKeywordForm(tag string) bool {
	i := strings.IndexAny(tag, " \t\n=")
	return i >= 0 && tag[i] == '='
}

// tagKeyword is one KEYWORD=VALUE of a tag.
type tagKeyword struct{ name, value string }

// parseSchemaTag splits a tag in keyword form into its keywords. A comma
// ends a value only where a known KEYWORD= follows it; otherwise it is part
// of the value.
func parseSchemaTag(tag string) ([]tagKeyword, error) {
	var kws []tagKeyword
	for _, part := range strings.Split(tag, ",") {
		name, value, ok := strings.Cut(part, "=")
		if !ok || !slices.Contains(tagKeywords, name) {
			if len(kws) == 0 {
				name, _, _ := strings.Cut(tag, "=")
				return nil, fmt.Errorf("unknown keyword %q (known: %s)", name, strings.Join(tagKeywords, ", "))
			}
			kws[len(kws)-1].value += "," + part
			continue
		}
		if slices.ContainsFunc(kws, func(k tagKeyword) bool { return k.name == name }) {
			return nil, fmt.Errorf("keyword %q given twice", name)
		}
		kws = append(kws, tagKeyword{name, value})
	}
	return kws, nil
}

// applyKeywordTags sets on s, the schema inferred for t, what the keyword
// tags of t's fields say.
func applyKeywordTags(t reflect.Type, s *toolSchema, seen map[reflect.Type]bool) error {
	if s == nil || seen[t] {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return applyKeywordTags(t.Elem(), s, seen)
	case reflect.Slice, reflect.Array:
		return applyKeywordTags(t.Elem(), s.items, seen)
	case reflect.Map:
		return applyKeywordTags(t.Elem(), s.additional, seen)
	case reflect.Struct:
	default:
		return nil
	}
	seen[t] = true
	defer delete(seen, t)
	for _, f := range reflect.VisibleFields(t) {
		name, _, ok := jsonField(f)
		if !ok {
			continue
		}
		prop := s.property(name)
		if prop == nil {
			continue
		}
		if tag, ok := f.Tag.Lookup("jsonschema"); ok && inKeywordForm(tag) {
			if err := applyTag(f.Type, prop, tag); err != nil {
				return fmt.Errorf("field %s.%s: jsonschema tag %q: %w", t, f.Name, tag, err)
			}
		}
		if !f.Anonymous {
			if err := applyKeywordTags(f.Type, prop, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// applyTag sets the keywords of one field's tag on its schema prop; t is
// the field's Go type.
func applyTag(t reflect.Type, prop *toolSchema, tag string) error {
	kws, err := parseSchemaTag(tag)
	if err != nil {
		return err
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	for _, kw := range kws {
		target, vt := prop, t
		if itemKeywords[kw.name] && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) && prop.items != nil {
			target, vt = prop.items, t.Elem()
			for vt.Kind() == reflect.Pointer {
				vt = vt.Elem()
			}
		}
		if err := setKeyword(target, vt, kw); err != nil {
			return fmt.Errorf("%s: %w", kw.name, err)
		}
	}
	return checkTagValues(prop)
}

// tagCheckURL names the schema of a field while the values its tag gives
// are checked against it; nothing is ever fetched from it.
const tagCheckURL = toolSchemaURL + "tag.json"

// checkTagValues checks that the default and the examples prop has fit
// prop, the schema they are part of.
func checkTagValues(prop *toolSchema) error {
	if len(prop.defaultValue) == 0 && len(prop.examples) == 0 {
		return nil
	}
	text, err := prop.appendJSON(nil)
	if err != nil {
		return err
	}
	sch, err := compileSelfContained(tagCheckURL, text)
	if err != nil {
		return err
	}
	if len(prop.defaultValue) > 0 {
		if err := sch.ValidateJSON(prop.defaultValue); err != nil {
			return fmt.Errorf("default %s: %w", prop.defaultValue, err)
		}
	}
	for _, ex := range prop.examples {
		if err := sch.Validate(ex); err != nil {
			return fmt.Errorf("example %v: %w", ex, err)
		}
	}
	return nil
}

// setKeyword sets one keyword on s, the schema of a value of Go type t.
func setKeyword(s *toolSchema, t reflect.Type, kw tagKeyword) error {
	switch kw.name {
	case "description":
		s.description = kw.value
	case "title":
		s.title = kw.value
	case "format":
		s.format = kw.value
	case "pattern":
		if _, err := regexp.Compile(kw.value); err != nil {
			return err
		}
		s.pattern = kw.value
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		n, err := strconv.ParseFloat(kw.value, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return fmt.Errorf("%q is not a number", kw.value)
		}
		switch kw.name {
		case "minimum":
			s.minimum = &n
		case "maximum":
			s.maximum = &n
		case "exclusiveMinimum":
			s.exclusiveMinimum = &n
		default:
			s.exclusiveMaximum = &n
		}
	case "minLength", "maxLength":
		n, err := strconv.Atoi(kw.value)
		if err != nil || n < 0 {
			return fmt.Errorf("%q is not a length", kw.value)
		}
		if kw.name == "minLength" {
			s.minLength = &n
		} else {
			s.maxLength = &n
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
			s.enum = values
		} else {
			s.examples = values
		}
	case "default":
		v, err := tagValue(t, kw.value)
		if err != nil {
			return err
		}
		if s.defaultValue, err = json.Marshal(v); err != nil {
			return err
		}
	}
	return nil
}

// tagValue reads a value given in a tag for a field of Go type t: the text
// itself for a string, JSON otherwise.
func tagValue(t reflect.Type, text string) (any, error) {
	if t.Kind() == reflect.String {
		return text, nil
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return nil, fmt.Errorf("%q is not JSON", text)
	}
	return v, nil
}
