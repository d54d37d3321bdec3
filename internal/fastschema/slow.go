package fastschema

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/schemarpc/schemarpc/internal/jsonformat"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// The slow paths below build the oracle's generic value for one part of the
// input. They allocate; they serve keywords the common messages do not use
// (uniqueItems, format, const and enum of arrays and objects).

// tree scans the value at i and decodes it as the oracle sees it: objects
// as map[string]any, arrays as []any, numbers as json.Number.
func (s *state) tree(i int) (any, result) {
	e, ok := s.skip(i)
	if !ok {
		return nil, rBad
	}
	v, err := parseJSON(s.data[i:e])
	if err != nil {
		return nil, rBad
	}
	return v, rOK
}

// sortStrings sorts names in place.
func sortStrings(names []string) { slices.Sort(names) }

// uniqueItems reports whether the array at i has no two equal elements.
func (s *state) uniqueItems(i int) result {
	v, r := s.tree(i)
	if r != rOK {
		return r
	}
	arr, _ := v.([]any)
	if len(arr) < 2 {
		return rOK
	}
	seen := make(map[string]struct{}, len(arr))
	var b bytes.Buffer
	for _, e := range arr {
		b.Reset()
		if !canonical(&b, e) {
			return rUnk
		}
		if _, dup := seen[b.String()]; dup {
			return rFail
		}
		seen[b.String()] = struct{}{}
	}
	return rOK
}

// checkFormat runs the format's own check on the value at i, decoded as the
// oracle would pass it.
func (s *state) checkFormat(f *jsonformat.Format, i int) result {
	d := s.data
	var v any
	switch kindAt(d[i]) {
	case kString:
		e, esc, ok := s.scanString(i)
		if !ok {
			return rBad
		}
		if esc {
			v = string(jsonscan.AppendUnescaped(nil, d[i+1:e-1]))
		} else {
			v = string(d[i+1 : e-1])
		}
	case kNumber:
		e, ok := s.scanNumber(i)
		if !ok {
			return rBad
		}
		v = json.Number(d[i:e])
	case kBool:
		v = d[i] == 't'
	case kNull:
		v = nil
	default:
		var r result
		if v, r = s.tree(i); r != rOK {
			return r
		}
	}
	return boolResult(f.Validate(v) == nil)
}
