package rpc

import (
	"slices"
)

// SplitExtra decodes the members of the JSON object b whose names are not
// in known, each into a V, with DecodeJSON's exact-name rules; nil when
// there are none. It is DecodeMembers for a caller that decodes its known
// members itself; generated code of earlier versions calls it from
// UnmarshalJSON.
func SplitExtra[V any](b []byte, known ...string) (map[string]V, error) {
	return DecodeMembers[V](b, func(name, _ []byte) (bool, error) {
		return slices.Contains(known, string(name)), nil
	})
}

// JoinExtra adds the members of extra whose names are not in known to the
// encoded JSON object b, and returns the result; b itself is left as it
// is. A member named in known is left out: the declared field has already
// written it. The members are added sorted by name, as encoding/json writes
// a map. Generated code of earlier versions calls it from MarshalJSON; the
// generated AppendJSON methods write their Extra members with
// AppendExtraMembers instead.
func JoinExtra[V any](b []byte, extra map[string]V, known ...string) ([]byte, error) {
	if len(b) <= 2 { // b is {}: the extra members are the whole object
		out, err := appendMembers(nil, extra, appendAny[V], listed(known))
		if err != nil {
			return nil, err
		}
		if len(out) == 0 {
			return b, nil
		}
		return EndJSONObject(out, 0), nil
	}
	open := b[: len(b)-1 : len(b)-1] // the closing brace cut off; appending copies
	out, err := appendMembers(open, extra, appendAny[V], listed(known))
	if err != nil {
		return nil, err
	}
	if len(out) == len(open) {
		return b, nil
	}
	return append(out, '}'), nil
}

// appendAny writes one value of an Extra map of any element type.
func appendAny[V any](b []byte, v V) ([]byte, error) { return AppendJSONValue(b, v) }
