package fastschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/big"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// constant is one value of a "const" or "enum" keyword, prepared for
// comparison with instance bytes.
type constant struct {
	kind  kindMask // kNull, kBool, kNumber, kString, kArray or kObject; 0 equals nothing
	b     bool
	s     string
	dec   decimal  // kNumber: the value, when decOK
	decOK bool     // dec holds the value exactly
	rat   *big.Rat // kNumber: the value as the oracle reads it
	tree  any      // kArray, kObject: the value
}

// newConstant prepares the schema value v, as the compiler stored it.
func newConstant(v any) *constant {
	switch v := v.(type) {
	case nil:
		return &constant{kind: kNull}
	case bool:
		return &constant{kind: kBool, b: v}
	case string:
		return &constant{kind: kString, s: v}
	case []any:
		return &constant{kind: kArray, tree: v}
	case map[string]any:
		return &constant{kind: kObject, tree: v}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &constant{}
		}
	case float32:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return &constant{}
		}
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
	default:
		return &constant{}
	}
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	if !ok {
		return &constant{} // the oracle finds it equal to nothing
	}
	c := &constant{kind: kNumber, rat: r}
	c.dec, c.decOK = ratDecimal(r)
	return c
}

// matchConsts checks the value at i against a list of constants: it passes
// when it equals any of them.
func (s *state) matchConsts(cs []*constant, i int) result {
	res := rFail
	for _, c := range cs {
		switch r := s.equalConst(c, i); r {
		case rOK, rBad:
			return r
		case rUnk:
			res = rUnk
		}
	}
	return res
}

// equalConst reports whether the value at i equals c, as the oracle's
// equality does: numbers by value, strings decoded, arrays and objects
// member by member.
func (s *state) equalConst(c *constant, i int) result {
	d := s.data
	switch k := kindAt(d[i]); k {
	case kString:
		e, esc, ok := s.scanString(i)
		if !ok {
			return rBad
		}
		if c.kind != kString {
			return rFail
		}
		raw := d[i+1 : e-1]
		if !esc {
			return boolResult(string(raw) == c.s)
		}
		mark := len(s.buf)
		s.buf = jsonscan.AppendUnescaped(s.buf, raw)
		eq := string(s.buf[mark:]) == c.s
		s.buf = s.buf[:mark]
		return boolResult(eq)
	case kNumber:
		e, ok := s.scanNumber(i)
		if !ok {
			return rBad
		}
		if c.kind != kNumber {
			return rFail
		}
		mark := len(s.buf)
		defer func() { s.buf = s.buf[:mark] }()
		dec, ok := s.parseDecimal(d[i:e])
		if !ok {
			return rUnk
		}
		if c.decOK {
			return boolResult(cmpDecimal(dec, c.dec) == 0)
		}
		r, ok := new(big.Rat).SetString(string(d[i:e]))
		return boolResult(ok && r.Cmp(c.rat) == 0)
	case kBool:
		b := d[i] == 't'
		return boolResult(c.kind == kBool && c.b == b)
	case kNull:
		return boolResult(c.kind == kNull)
	case kArray, kObject:
		if c.kind != k {
			return rFail
		}
		v, r := s.tree(i)
		if r != rOK {
			return r
		}
		eq, ok := equalValues(v, c.tree)
		if !ok {
			return rUnk
		}
		return boolResult(eq)
	}
	return rBad
}

// boolResult maps true to rOK and false to rFail.
func boolResult(ok bool) result {
	if ok {
		return rOK
	}
	return rFail
}

// equalValues is the oracle's equality of two decoded values. The second
// result is false when a value is of a type the oracle cannot compare.
func equalValues(a, b any) (bool, bool) {
	switch a := a.(type) {
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) {
			return false, true
		}
		for k, av := range a {
			bv, ok := b[k]
			if !ok {
				return false, true
			}
			if eq, ok := equalValues(av, bv); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) {
			return false, true
		}
		for i := range a {
			if eq, ok := equalValues(a[i], b[i]); !eq || !ok {
				return eq, ok
			}
		}
		return true, true
	case nil:
		return b == nil, true
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb, true
	case string:
		bs, ok := b.(string)
		return ok && a == bs, true
	case json.Number:
		bc := newConstant(b)
		if bc.kind != kNumber {
			return false, true
		}
		d, _, ok := appendDecimal(nil, string(a))
		if !ok || !bc.decOK {
			return false, false
		}
		return cmpDecimal(d, bc.dec) == 0, true
	}
	return false, false
}

// canonical appends a form of v to dst such that two values are equal for
// the oracle exactly when their forms are the same. It reports false for
// values it cannot write.
func canonical(dst *bytes.Buffer, v any) bool {
	switch v := v.(type) {
	case map[string]any:
		dst.WriteByte('{')
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			fmt.Fprintf(dst, "%q:", k)
			if !canonical(dst, v[k]) {
				return false
			}
			dst.WriteByte(',')
		}
		dst.WriteByte('}')
	case []any:
		dst.WriteByte('[')
		for _, e := range v {
			if !canonical(dst, e) {
				return false
			}
			dst.WriteByte(',')
		}
		dst.WriteByte(']')
	case nil:
		dst.WriteString("null")
	case bool:
		fmt.Fprint(dst, v)
	case string:
		fmt.Fprintf(dst, "%q", v)
	case json.Number:
		d, _, ok := appendDecimal(nil, string(v))
		if !ok {
			return false
		}
		fmt.Fprintf(dst, "#%t.%s.%d", d.neg && !d.isZero(), d.digits, d.exp)
	default:
		return false
	}
	return true
}
