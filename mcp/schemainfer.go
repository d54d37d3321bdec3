package mcp

import (
	"encoding"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"
)

// toolSchema is a JSON Schema inferred from a Go type: the keywords
// inference and the jsonschema tag can set, and nothing else. Its JSON form
// (schemajson.go) lists them in a fixed order.
type toolSchema struct {
	typ   string   // one type, written as a string
	types []string // several types (or one, nullable), written as an array, when typ is ""

	props      []toolProperty // in field order; nil for none, non-nil and empty for an empty object
	items      *toolSchema
	additional *toolSchema // additionalProperties
	never      bool        // the schema false: no value is valid
	required   []string

	title, description, pattern, format string
	defaultValue                        json.RawMessage
	examples, enum                      []any
	minimum, maximum                    *float64
	exclusiveMinimum, exclusiveMaximum  *float64
	minLength, maxLength                *int
	minItems, maxItems                  *int
}

// toolProperty is one member of a schema's properties.
type toolProperty struct {
	name   string
	schema *toolSchema
}

// property returns the schema of the property name, nil when there is
// none.
func (s *toolSchema) property(name string) *toolSchema {
	for _, p := range s.props {
		if p.name == name {
			return p.schema
		}
	}
	return nil
}

// setProperty makes schema the property name, moving the name to the end
// when a field before had it: the last field of a name is the one that
// counts, in its place.
func (s *toolSchema) setProperty(name string, schema *toolSchema) {
	s.props = slices.DeleteFunc(s.props, func(p toolProperty) bool { return p.name == name })
	s.props = append(s.props, toolProperty{name, schema})
}

// allowNull makes s also allow null, for a pointer.
func (s *toolSchema) allowNull() {
	if s.typ != "" {
		s.types, s.typ = []string{"null", s.typ}, ""
	}
}

// valueTypeSchema returns the schema of the Go types whose JSON form is
// not what their kind says (they have their own MarshalJSON or MarshalText),
// and nil for any other type. A json.RawMessage holds any JSON value.
func valueTypeSchema(t reflect.Type) *toolSchema {
	switch t {
	case reflect.TypeFor[time.Time](), reflect.TypeFor[slog.Level](),
		reflect.TypeFor[big.Int](), reflect.TypeFor[big.Rat](), reflect.TypeFor[big.Float]():
		return &toolSchema{typ: "string"}
	case reflect.TypeFor[json.RawMessage]():
		return &toolSchema{}
	}
	return nil
}

// inferToolSchema derives the JSON Schema of t, before the keyword tags
// are applied (applyKeywordTags): seen holds the named types on the way
// to t, to refuse a type that contains itself.
func inferToolSchema(t reflect.Type, seen map[reflect.Type]bool) (*toolSchema, error) {
	pointer := false
	for t.Kind() == reflect.Pointer {
		pointer, t = true, t.Elem()
	}
	if t.Name() != "" {
		if seen[t] {
			return nil, fmt.Errorf("cycle detected for type %v", t)
		}
		seen[t] = true
		defer delete(seen, t)
	}
	if s := valueTypeSchema(t); s != nil {
		if pointer {
			s.allowNull() // a schema without a type (json.RawMessage) allows null already
		}
		return s, nil
	}
	s := &toolSchema{}
	switch t.Kind() {
	case reflect.Bool:
		s.typ = "boolean"
	case reflect.Int, reflect.Int64:
		s.typ = "integer"
	case reflect.Uint, reflect.Uint64, reflect.Uintptr:
		s.typ, s.minimum = "integer", ptrTo(0.0)
	case reflect.Int8:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(float64(math.MinInt8)), ptrTo(float64(math.MaxInt8))
	case reflect.Int16:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(float64(math.MinInt16)), ptrTo(float64(math.MaxInt16))
	case reflect.Int32:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(float64(math.MinInt32)), ptrTo(float64(math.MaxInt32))
	case reflect.Uint8:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(0.0), ptrTo(float64(math.MaxUint8))
	case reflect.Uint16:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(0.0), ptrTo(float64(math.MaxUint16))
	case reflect.Uint32:
		s.typ, s.minimum, s.maximum = "integer", ptrTo(0.0), ptrTo(float64(math.MaxUint32))
	case reflect.Float32, reflect.Float64:
		s.typ = "number"
	case reflect.String:
		s.typ = "string"
	case reflect.Interface:
		// any JSON value
	case reflect.Map:
		if t.Key().Kind() != reflect.String && !t.Key().Implements(reflect.TypeFor[encoding.TextMarshaler]()) {
			return nil, fmt.Errorf("%v: a map key of type %v has no JSON Schema (a string is needed)", t, t.Key())
		}
		elem, err := inferToolSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		s.typ, s.additional = "object", elem
	case reflect.Slice, reflect.Array:
		elem, err := inferToolSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		s.items = elem
		if t.Kind() == reflect.Slice {
			s.types = []string{"null", "array"} // a nil slice encodes as null
		} else {
			s.typ, s.minItems, s.maxItems = "array", ptrTo(t.Len()), ptrTo(t.Len())
		}
	case reflect.Struct:
		if err := inferStructSchema(t, s, seen); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("type %v has no JSON form, so no JSON Schema", t)
	}
	if pointer {
		s.allowNull()
	}
	return s, nil
}

// inferStructSchema sets on s the schema of the struct type t: an object
// with a property for each field encoding/json writes, required unless
// omitempty or omitzero, and no other property. The fields of embedded
// structs are the struct's own; an embedded type of another kind is not
// written.
func inferStructSchema(t reflect.Type, s *toolSchema, seen map[reflect.Type]bool) error {
	s.typ, s.additional = "object", &toolSchema{never: true}
	for _, f := range reflect.VisibleFields(t) {
		if s.props == nil {
			s.props = []toolProperty{}
		}
		if f.Anonymous {
			if valueTypeSchema(f.Type) != nil {
				return fmt.Errorf("%v embeds %v, which is not a JSON object", t, f.Type)
			}
			continue // its fields follow it
		}
		name, settings, ok := jsonField(f)
		if !ok {
			continue
		}
		fs, err := inferToolSchema(f.Type, seen)
		if err != nil {
			return err
		}
		if tag, ok := f.Tag.Lookup("jsonschema"); ok {
			switch {
			case tag == "":
				return fmt.Errorf("empty jsonschema tag on struct field %v.%s", t, f.Name)
			case !inKeywordForm(tag):
				fs.description = tag // applyKeywordTags reads the others
			}
		}
		s.setProperty(name, fs)
		if !slices.Contains(settings, "omitempty") && !slices.Contains(settings, "omitzero") {
			s.required = append(s.required, name)
		}
	}
	return nil
}

// jsonField is the property name encoding/json gives the struct field f,
// the options its json tag lists after the name, and whether f is encoded
// at all.
func jsonField(f reflect.StructField) (name string, options []string, ok bool) {
	if !f.IsExported() {
		return "", nil, false
	}
	tag, tagged := f.Tag.Lookup("json")
	if !tagged {
		return f.Name, nil, true
	}
	name, rest, hasOptions := strings.Cut(tag, ",")
	if name == "-" && !hasOptions {
		return "", nil, false
	}
	if name == "" {
		name = f.Name
	}
	if rest != "" {
		options = strings.Split(rest, ",")
	}
	return name, options, true
}

// ptrTo returns a pointer to a copy of v.
func ptrTo[T any](v T) *T { return &v }
