package rpc

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// EncodeParams returns params in the form a method with the given structure
// takes, for [Caller.Call] and [Caller.Notify]. Generated clients call it for
// methods whose params may go by position.
//
// params is any value whose JSON encoding is an object (a generated params
// struct) or null; names are the method's positional params in order (the
// ParamNames of its [Method]), and nullable[i] says whether the schema of
// names[i] accepts null (a nil or short slice means it does not).
//
//   - ByName: params are returned unchanged.
//   - ByPosition: the members of the encoded object, in the order of names,
//     as a JSON array. Members left out at the end are left out of the array
//     (trailing optional params); a member left out before one that is
//     present is sent as null when its schema accepts null, and is an error
//     otherwise, since no array can say "absent" there. A member that names
//     no position is an error.
//   - Either: the array as for ByPosition when it says exactly what the
//     object says, that is when no member before a present one is missing
//     and every member has a position; the object (by name) otherwise, which
//     keeps "absent" apart from null.
//
// Params that encode as null stay null: the call is sent without params.
func EncodeParams(params any, structure ParamStructure, names []string, nullable []bool) (any, error) {
	if structure == ByName {
		return params, nil
	}
	var obj bytes.Buffer
	if err := encodeValue(&obj, params); err != nil {
		return nil, err
	}
	if bytes.Equal(obj.Bytes(), []byte("null")) {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(obj.Bytes(), &members); err != nil {
		return nil, fmt.Errorf("rpc: positional params must encode as a JSON object: %w", err)
	}
	byName := func(format string, args ...any) (any, error) {
		if structure == Either {
			return json.RawMessage(obj.Bytes()), nil
		}
		return nil, fmt.Errorf("rpc: by-position params: "+format, args...)
	}
	position := make(map[string]int, len(names))
	for i, n := range names {
		position[n] = i
	}
	last := -1
	for name := range members {
		i, ok := position[name]
		if !ok {
			return byName("%q is not a positional param (want one of %q)", name, names)
		}
		last = max(last, i)
	}
	var arr bytes.Buffer
	arr.WriteByte('[')
	for i := 0; i <= last; i++ {
		if i > 0 {
			arr.WriteByte(',')
		}
		v, ok := members[names[i]]
		switch {
		case ok:
			arr.Write(v)
		case structure == ByPosition && i < len(nullable) && nullable[i]:
			arr.WriteString("null")
		default:
			return byName("%s is absent but %s after it is present, and %s cannot be null", names[i], names[last], names[i])
		}
	}
	arr.WriteByte(']')
	return json.RawMessage(arr.Bytes()), nil
}
