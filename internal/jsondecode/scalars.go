package jsondecode

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unsafe"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// errInvalidStringTag is the cause of the error for a `string` tag on a
// field whose type does not take numbers.
var errInvalidStringTag = errors.New("invalid use of `string` tag option")

// unquote returns the content of the string value s (with its quotes),
// decoded; it aliases s when s has no escapes.
func unquote(s []byte) []byte {
	raw := s[1 : len(s)-1]
	if !hasEscape(raw) {
		return raw
	}
	return jsonscan.AppendUnescaped(make([]byte, 0, len(raw)), raw)
}

func decodeBool(d *decoder, v reflect.Value, o fieldOpts) error {
	if o.stringTag {
		return d.errorBefore(v.Type(), errInvalidStringTag)
	}
	k, _, err := d.readToken()
	if err != nil {
		return err
	}
	switch k {
	case 'n':
		v.SetBool(false)
		return nil
	case 't', 'f':
		v.SetBool(k == 't')
		return nil
	}
	return d.errorAfter(v.Type(), nil)
}

func decodeString(d *decoder, v reflect.Value, o fieldOpts) error {
	val, more, err := d.begin(v, v.Type(), o, '"')
	if more {
		v.SetString(Intern(unquote(val)))
	}
	return err
}

// number reads the next value for v, a number: a JSON number, or a string
// holding one when stringify (a member name, a `string` field). It returns
// the digits and the kind read; null stores zero in v and gives kind 'n'.
func (d *decoder) number(v reflect.Value, o fieldOpts) (digits []byte, k Kind, err error) {
	stringify := d.last().needName() || o.stringTag
	k, val, err := d.readValue()
	if err != nil {
		return nil, 0, err
	}
	switch {
	case k == 'n':
		v.SetZero()
		return nil, k, nil
	case k == '"' && stringify:
		return unquote(val), k, nil
	case k == '0' && !stringify:
		return val, k, nil
	}
	return nil, k, d.errorAfter(v.Type(), nil)
}

func decodeInt(d *decoder, v reflect.Value, o fieldOpts) error {
	val, k, err := d.number(v, o)
	if err != nil || k == 'n' {
		return err
	}
	neg := len(val) > 0 && val[0] == '-'
	if neg {
		val = val[1:]
	}
	limit := uint64(1) << (v.Type().Bits() - 1) // -limit is the least
	if !neg {
		limit--
	}
	n, err := d.magnitude(v, val, limit)
	if err != nil {
		return err
	}
	if neg {
		v.SetInt(int64(-n))
	} else {
		v.SetInt(int64(n))
	}
	return nil
}

func decodeUint(d *decoder, v reflect.Value, o fieldOpts) error {
	val, k, err := d.number(v, o)
	if err != nil || k == 'n' {
		return err
	}
	limit := uint64(math.MaxUint64)
	if bits := v.Type().Bits(); bits < 64 {
		limit = 1<<bits - 1
	}
	n, err := d.magnitude(v, val, limit)
	if err != nil {
		return err
	}
	v.SetUint(n)
	return nil
}

// magnitude reads val, the digits of an integer for v without its sign,
// as a number at most limit: digits that are not plain decimal are a
// syntax error, a larger number is out of range.
func (d *decoder) magnitude(v reflect.Value, val []byte, limit uint64) (uint64, error) {
	n, ok := parseUint(val)
	switch {
	case !ok && n != math.MaxUint64:
		return 0, d.errorAfter(v.Type(), strconv.ErrSyntax)
	case !ok || n > limit:
		return 0, d.errorAfter(v.Type(), strconv.ErrRange)
	}
	return n, nil
}

// parseUint reads decimal digits without a sign or leading zeros. A
// number too long for 64 bits gives math.MaxUint64 and false.
func parseUint(b []byte) (uint64, bool) {
	var v uint64
	n := 0
	for ; n < len(b) && isDigit(b[n]); n++ {
		v = 10*v + uint64(b[n]-'0')
	}
	switch {
	case n == 0 || n != len(b) || b[0] == '0' && len(b) != 1:
		return 0, false
	case n >= 20 && (b[0] != '1' || v < 1e19 || n > 20):
		return math.MaxUint64, false
	}
	return v, true
}

func decodeFloat(d *decoder, v reflect.Value, o fieldOpts) error {
	val, k, err := d.number(v, o)
	if err != nil || k == 'n' {
		return err
	}
	if k == '"' && !jsonscan.IsNumber(val) {
		return d.errorAfter(v.Type(), strconv.ErrSyntax)
	}
	f, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(val), len(val)), v.Type().Bits())
	v.SetFloat(f)
	if err != nil {
		return d.errorAfter(v.Type(), errors.Unwrap(err))
	}
	return nil
}

// decodeNumber decodes a JSON number into a json.Number, as it is
// written, or a JSON string that holds one (only a string for a member
// name or a `string` field); null sets "". These are the rules of Go
// 1.27's encoding/json, whose json.Number decodes itself so.
func decodeNumber(d *decoder, v reflect.Value, o fieldOpts) error {
	stringify := d.last().needName() || o.stringTag
	k, val, err := d.readValue()
	if err != nil {
		return err
	}
	switch k {
	case 'n':
		v.SetString("")
		return nil
	case '"':
		s := unquote(val)
		if !jsonscan.IsNumber(s) {
			return d.errorAfter(numberType, strconv.ErrSyntax)
		}
		v.SetString(string(s))
		return nil
	case '0':
		if !stringify {
			v.SetString(string(val))
			return nil
		}
	}
	return d.errorAfter(numberType, nil)
}

// decodeBytes decodes a base64 string (RFC 4648, padded) into a []byte or
// a [N]byte, whose length must match.
func decodeBytes(d *decoder, v reflect.Value, o fieldOpts) error {
	val, more, err := d.begin(v, v.Type(), o, '"')
	if !more {
		return err
	}
	s := unquote(val)
	var dst []byte
	if v.Kind() == reflect.Slice {
		dst = v.Bytes()[:0]
	}
	b, err := base64.StdEncoding.AppendDecode(dst, s)
	if err != nil {
		return d.errorAfter(v.Type(), err)
	}
	if len(s) != base64.StdEncoding.EncodedLen(len(b)) {
		i := indexNewline(s)
		return d.errorAfter(v.Type(), fmt.Errorf("illegal character %s at offset %d", quoteRune(string(s[i:])), i))
	}
	if v.Kind() == reflect.Array {
		arr := v.Bytes()
		clear(arr[copy(arr, b):])
		if len(b) != len(arr) {
			return d.errorAfter(v.Type(), fmt.Errorf("decoded length of %d mismatches array length of %d", len(b), len(arr)))
		}
		return nil
	}
	if b == nil {
		b = []byte{}
	}
	v.SetBytes(b)
	return nil
}

// indexNewline is where the first '\r' or '\n' of s is, which base64
// skips.
func indexNewline(s []byte) int {
	for i, c := range s {
		if c == '\r' || c == '\n' {
			return i
		}
	}
	return -1
}
