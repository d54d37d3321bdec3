package rpc

import (
	"encoding/json"
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
// encoded JSON object b, and returns the result. A member named in known is
// left out: the declared field has already written it. Generated types that
// keep unknown members call it from MarshalJSON.
func JoinExtra[V any](b []byte, extra map[string]V, known ...string) ([]byte, error) {
	rest := make(map[string]V, len(extra))
	for k, x := range extra {
		if !slices.Contains(known, k) {
			rest[k] = x
		}
	}
	if len(rest) == 0 {
		return b, nil
	}
	more, err := json.Marshal(rest)
	if err != nil {
		return nil, err
	}
	if len(b) <= 2 { // b is {}: the extra members are the whole object
		return more, nil
	}
	out := append(b[:len(b)-1:len(b)-1], ',') // splice in before the closing brace
	return append(out, more[1:]...), nil
}
