package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
	"github.com/schemarpc/schemarpc/rpc"
)

// marshalToolSchema writes the JSON form of s as a tool's schema is sent:
// compact, with <, > and & escaped as encoding/json's Marshal escapes
// them, members in the order appendJSON writes them.
func marshalToolSchema(s *toolSchema) ([]byte, error) {
	out, err := s.appendJSON(nil)
	if err != nil {
		return nil, err
	}
	if bytes.ContainsAny(out, "<>&") {
		var esc bytes.Buffer
		json.HTMLEscape(&esc, out)
		out = esc.Bytes()
	}
	return out, nil
}

// appendJSON appends the JSON form of s, unescaped: true for the schema
// without keywords, false for the one that allows nothing, otherwise an
// object whose members come in a fixed order (type, properties, items,
// the annotations, the assertions, required, additionalProperties,
// format), so a type's schema is the same text every time.
func (s *toolSchema) appendJSON(b []byte) ([]byte, error) {
	if s.never {
		return append(b, "false"...), nil
	}
	start := len(b)
	b = append(b, '{')
	key := func(name string) { b = appendMemberName(b, start, name) }
	var err error
	switch {
	case s.typ != "":
		key("type")
		b = jsonwrite.String(b, s.typ)
	case s.types != nil:
		key("type")
		b = appendStrings(b, s.types)
	}
	if s.props != nil {
		key("properties")
		b = append(b, '{')
		for i, p := range s.props {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonwrite.String(b, p.name)
			b = append(b, ':')
			if b, err = p.schema.appendJSON(b); err != nil {
				return nil, err
			}
		}
		b = append(b, '}')
	}
	if s.items != nil {
		key("items")
		if b, err = s.items.appendJSON(b); err != nil {
			return nil, err
		}
	}
	for _, m := range []struct{ name, value string }{{"title", s.title}, {"description", s.description}} {
		if m.value != "" {
			key(m.name)
			b = jsonwrite.String(b, m.value)
		}
	}
	if len(s.defaultValue) > 0 {
		key("default")
		if b, err = rpc.AppendRawJSON(b, s.defaultValue); err != nil {
			return nil, err
		}
	}
	for _, m := range []struct {
		name   string
		values []any
	}{{"examples", s.examples}, {"enum", s.enum}} {
		if len(m.values) > 0 {
			key(m.name)
			if b, err = rpc.AppendJSONValue(b, m.values); err != nil {
				return nil, err
			}
		}
	}
	for _, m := range []struct {
		name  string
		value *float64
	}{{"minimum", s.minimum}, {"maximum", s.maximum}, {"exclusiveMinimum", s.exclusiveMinimum}, {"exclusiveMaximum", s.exclusiveMaximum}} {
		if m.value != nil {
			key(m.name)
			if b, err = jsonwrite.Float64(b, *m.value); err != nil {
				return nil, err
			}
		}
	}
	if s.minLength != nil {
		key("minLength")
		b = jsonwrite.Int64(b, int64(*s.minLength))
	}
	if s.maxLength != nil {
		key("maxLength")
		b = jsonwrite.Int64(b, int64(*s.maxLength))
	}
	if s.pattern != "" {
		key("pattern")
		b = jsonwrite.String(b, s.pattern)
	}
	if s.minItems != nil {
		key("minItems")
		b = jsonwrite.Int64(b, int64(*s.minItems))
	}
	if s.maxItems != nil {
		key("maxItems")
		b = jsonwrite.Int64(b, int64(*s.maxItems))
	}
	if len(s.required) > 0 {
		key("required")
		b = appendStrings(b, s.required)
	}
	if s.additional != nil {
		key("additionalProperties")
		if b, err = s.additional.appendJSON(b); err != nil {
			return nil, err
		}
	}
	if s.format != "" {
		key("format")
		b = jsonwrite.String(b, s.format)
	}
	if len(b) == start+1 {
		return append(b[:start], "true"...), nil
	}
	return append(b, '}'), nil
}

// appendMemberName appends the name of the next member of the object that
// begins at b[start], after a comma unless it is the first.
func appendMemberName(b []byte, start int, name string) []byte {
	if len(b) > start+1 {
		b = append(b, ',')
	}
	b = jsonwrite.String(b, name)
	return append(b, ':')
}

// appendStrings appends ss as a JSON array of strings.
func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonwrite.String(b, s)
	}
	return append(b, ']')
}
