package rpc

import (
	"encoding/json"
	"slices"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// SplitExtra decodes the members of the JSON object b whose names are not
// in known, each into a V, with DecodeJSON's exact-name rules; nil when
// there are none. Generated types that keep the members their schema does
// not name call it from UnmarshalJSON.
func SplitExtra[V any](b []byte, known ...string) (map[string]V, error) {
	// The common case, an object with only known members, is answered by
	// stepping through it in place; anything unusual (a repeated name, bad
	// input) takes the decoding path below, which reports it.
	if o, ok := jsonscan.NewObject(b); ok && len(known) <= 64 {
		var out map[string]V
		var seen uint64
		clean := true
		for clean {
			k, raw, ok := o.Next()
			if !ok {
				break
			}
			if i := slices.IndexFunc(known, func(n string) bool { return jsonscan.NameIs(k, n) }); i >= 0 {
				clean = seen&(1<<i) == 0
				seen |= 1 << i
				continue
			}
			name, ok := jsonscan.Name(k)
			if !ok {
				clean = false
				break
			}
			if _, dup := out[name]; dup {
				clean = false
				break
			}
			var x V
			if r, isRaw := any(&x).(*json.RawMessage); isRaw && jsonscan.Strict(raw, DefaultMaxDepth) {
				*r = append(json.RawMessage(nil), raw...)
			} else if err := DecodeJSON(raw, &x); err != nil {
				return nil, err
			}
			if out == nil {
				out = make(map[string]V)
			}
			out[name] = x
		}
		if clean && !o.Err() {
			return out, nil
		}
	}
	var all map[string]json.RawMessage
	if err := DecodeJSON(b, &all); err != nil {
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
		if err := DecodeJSON(raw, &x); err != nil {
			return nil, err
		}
		out[k] = x
	}
	return out, nil
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
