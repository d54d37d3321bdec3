package mcpcheck

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
)

// Mutate calls emit with a copy of v for each member of each object inside
// v (at JSON pointer at, "" for the top): one copy without the member, one
// with its value replaced by a value of another JSON type (OtherType). The
// differential tests feed the mutants to our schema and the published one
// and expect the same verdict. v must be a tree as encoding/json decodes
// it; it is never modified.
func Mutate(v any, at string, emit func(what string, mutant any)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			ptr := at + "/" + k
			removed := maps.Clone(x)
			delete(removed, k)
			emit("without "+ptr, removed)
			retyped := maps.Clone(x)
			retyped[k] = OtherType(x[k])
			emit("with "+ptr+" retyped", retyped)
			Mutate(x[k], ptr, func(what string, m any) {
				c := maps.Clone(x)
				c[k] = m
				emit(what, c)
			})
		}
	case []any:
		for i, item := range x {
			Mutate(item, at+"/"+strconv.Itoa(i), func(what string, m any) {
				c := slices.Clone(x)
				c[i] = m
				emit(what, c)
			})
		}
	}
}

// OtherType returns a value whose JSON type differs from v's.
func OtherType(v any) any {
	switch v.(type) {
	case string:
		return json.Number("7")
	case map[string]any, []any, bool, nil:
		return "a string"
	default: // a number
		return true
	}
}
