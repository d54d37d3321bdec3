package rpc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
)

// JSONAppender is a value that writes its own JSON encoding by appending to
// a byte slice, as every type rpcgen generates does (a pointer to one, for
// its structs and unions, whose AppendJSON has a pointer receiver). The runtime asks such
// a value directly when it encodes a message: the JSON lands in the
// message's buffer, with no intermediate slice and no second pass to check
// and compact it.
type JSONAppender interface {
	// AppendJSON appends the value's JSON encoding, compact and without
	// HTML escaping, to b and returns the extended slice.
	AppendJSON(b []byte) ([]byte, error)
}

// The functions below are the pieces generated AppendJSON methods are made
// of. Each writes what encoding/json's Encoder with SetEscapeHTML(false)
// writes for the same value.

// AppendJSONKey appends key, a member's name as generated AppendJSON
// methods write it before the value (`,"name":`, the comma included). It
// is one call where an inlined append would repeat its growth code for
// every member of every generated type: kept out of line on purpose, it
// makes each member a few dozen bytes of code smaller, and a program that
// links the generated MCP packages some tens of kilobytes smaller.
//
//go:noinline
func AppendJSONKey(b []byte, key string) []byte { return append(b, key...) }

// AppendJSONString appends s as a JSON string.
func AppendJSONString(b []byte, s string) []byte { return jsonwrite.String(b, s) }

// AppendJSONFloat appends f as a JSON number; NaN and the infinities are an
// error.
func AppendJSONFloat(b []byte, f float64) ([]byte, error) { return jsonwrite.Float64(b, f) }

// AppendRawJSON appends raw compacted, or null when raw is nil, as
// json.RawMessage encodes; raw that is not exactly one JSON value (an empty
// non-nil raw among them) is an error.
func AppendRawJSON(b []byte, raw json.RawMessage) ([]byte, error) {
	if raw == nil {
		return append(b, "null"...), nil
	}
	return jsonwrite.Raw(b, raw)
}

// AppendJSONValue appends the JSON encoding of any value: a JSONAppender
// writes itself, anything else goes through encoding/json (without HTML
// escaping). Generated code calls it for the types it does not write
// itself, such as the types a config maps a schema to.
func AppendJSONValue(b []byte, v any) ([]byte, error) {
	if a, ok := v.(JSONAppender); ok {
		if rv := reflect.ValueOf(v); rv.Kind() != reflect.Pointer || !rv.IsNil() {
			return a.AppendJSON(b)
		}
		return append(b, "null"...), nil
	}
	buf := bytes.NewBuffer(b)
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	out := buf.Bytes()
	return out[:len(out)-1], nil // Encode's newline
}

// AppendJSONMap appends m as a JSON object with its members sorted by name,
// as encoding/json writes a map, each value written by elem; a nil map is
// null.
func AppendJSONMap[M ~map[string]V, V any](b []byte, m M, elem func([]byte, V) ([]byte, error)) ([]byte, error) {
	if m == nil {
		return append(b, "null"...), nil
	}
	start := len(b)
	b, err := appendMembers(b, m, elem, nil)
	if err != nil {
		return b, err
	}
	return EndJSONObject(b, start), nil
}

// AppendExtraMembers appends the members of extra whose names are not in
// known, sorted by name, each written as a comma, the name, a colon and the
// value (by elem): the unknown members a generated type keeps in its Extra
// map, after the members of its fields.
func AppendExtraMembers[V any](b []byte, extra map[string]V, elem func([]byte, V) ([]byte, error), known ...string) ([]byte, error) {
	return appendMembers(b, extra, elem, listed(known))
}

// listed reports a name's presence in names, for appendMembers.
func listed(names []string) func(string) bool {
	return func(name string) bool { return slices.Contains(names, name) }
}

// appendMembers writes the members of m whose names known does not
// report (all of them when known is nil), each after a comma, sorted by
// name.
func appendMembers[M ~map[string]V, V any](b []byte, m M, elem func([]byte, V) ([]byte, error), known func(string) bool) ([]byte, error) {
	var small [16]string
	names := small[:0]
	for k := range m {
		if known == nil || !known(k) {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var err error
	for _, k := range names {
		b = append(b, ',')
		b = jsonwrite.String(b, k)
		b = append(b, ':')
		if b, err = elem(b, m[k]); err != nil {
			return b, err
		}
	}
	return b, nil
}

// EndJSONObject finishes an object whose members were appended from start
// on, each after a comma: the first comma becomes the opening brace (or,
// with no members, {} is written) and the closing brace is added. Writing
// every member the same way spares generated code from tracking which
// member comes first.
func EndJSONObject(b []byte, start int) []byte {
	if len(b) == start {
		return append(b, '{', '}')
	}
	b[start] = '{'
	return append(b, '}')
}
