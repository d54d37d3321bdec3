package rpc

import (
	"encoding/json"
	"strconv"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// The Decode* functions below decode one JSON value into one Go value as
// DecodeJSON does, without its decoder: generated UnmarshalJSON methods
// call them for the members of simple types, which are most of the
// members of a message. The ones for strings, booleans, numbers and raw
// JSON read the common forms of their kind themselves and hand anything
// else (escapes, whitespace around the value, values of the wrong kind)
// to DecodeJSON, so that the result and the error are DecodeJSON's for any
// input. The others (pointers, slices, maps of raw JSON, types with their
// own UnmarshalJSON) give DecodeJSON's result and error for a member value
// as DecodeMembers hands it out, which it has checked as part of the whole
// object; in particular the nesting limit is the object's.

// DecodeString decodes a JSON string into a string or a type defined on
// string (an enum of the schema: the value is not checked against the
// enum, which is the validator's task). null sets the zero value.
func DecodeString[S ~string](value []byte, p *S) error {
	if s, ok := stringValue(value); ok {
		*p = S(s)
		return nil
	}
	return DecodeJSON(value, p)
}

// stringValue is the string DecodeString stores for value, when it reads
// value itself.
func stringValue(value []byte) (string, bool) {
	if s, ok := jsonscan.PlainString(value); ok {
		return jsondecode.Intern(s), true
	}
	return "", string(value) == "null"
}

// DecodeBool decodes true or false into a bool or a type defined on bool.
// null sets false.
func DecodeBool[B ~bool](value []byte, p *B) error {
	if x, ok := boolValue(value); ok {
		*p = B(x)
		return nil
	}
	return DecodeJSON(value, p)
}

// boolValue is the bool DecodeBool stores for value, when it reads value
// itself.
func boolValue(value []byte) (x, ok bool) {
	switch string(value) {
	case "true":
		return true, true
	case "false", "null":
		return false, true
	}
	return false, false
}

// DecodeInt decodes a JSON number into an int64 or a type defined on it.
// Only a number written as an integer fits: 1.0, 1e2 and numbers out of
// range are errors. null sets zero.
func DecodeInt[I ~int64](value []byte, p *I) error {
	if n, ok := intValue(value); ok {
		*p = I(n)
		return nil
	}
	return DecodeJSON(value, p)
}

// intValue is the int64 DecodeInt stores for value, when it reads value
// itself.
func intValue(value []byte) (int64, bool) {
	if n, ok := jsonscan.SmallInt(value); ok {
		return n, true
	}
	return 0, string(value) == "null"
}

// DecodeFloat decodes a JSON number into a float64 or a type defined on it.
// A number beyond the float64 range is an error. null sets zero.
func DecodeFloat[F ~float64](value []byte, p *F) error {
	if f, ok := floatValue(value); ok {
		*p = F(f)
		return nil
	}
	return DecodeJSON(value, p)
}

// floatValue is the float64 DecodeFloat stores for value, when it reads
// value itself.
func floatValue(value []byte) (float64, bool) {
	if jsonscan.IsNumber(value) {
		if f, err := strconv.ParseFloat(string(value), 64); err == nil {
			return f, true
		}
	}
	return 0, string(value) == "null"
}

// DecodeRaw stores a copy of the JSON value as it is written, once it has
// checked it with DecodeJSON's rules (null is kept as null). The copy
// never aliases value.
func DecodeRaw(value []byte, p *json.RawMessage) error {
	if jsonscan.Bare(value) && jsonscan.Strict(value, membersMaxDepth) {
		*p = append(json.RawMessage(nil), value...)
		return nil
	}
	return DecodeJSON(value, p)
}

// DecodeCheckedRaw is DecodeRaw for a value the strict scanner has
// already accepted, as DecodeMembers hands out a member's value: the copy
// is made without checking the value again. Generated UnmarshalJSON
// methods decode the members of raw JSON with it.
func DecodeCheckedRaw(value []byte, p *json.RawMessage) error {
	if !jsonscan.Bare(value) {
		return DecodeRaw(value, p)
	}
	*p = append(json.RawMessage(nil), value...)
	return nil
}

// DecodeRawMap decodes a JSON object into a map of its members' values as
// they are written (copies, as DecodeRaw makes them), in one pass over
// the object and a few allocations whatever the number of members. An
// empty object gives an empty map, null a nil one; a map that already has
// members is merged into by DecodeJSON.
func DecodeRawMap[M ~map[string]json.RawMessage](value []byte, p *M) error {
	if m, ok := rawMapValue(value, *p); ok {
		*p = M(m)
		return nil
	}
	return DecodeJSON(value, p) // its error names M, as DecodeJSON's does
}

// rawMapValue is the map DecodeRawMap stores for value into a map that
// holds old, when it reads value itself.
func rawMapValue(value []byte, old map[string]json.RawMessage) (map[string]json.RawMessage, bool) {
	if old != nil || !jsonscan.Bare(value) || string(value) == "null" {
		return nil, false
	}
	m, err := DecodeMembers[json.RawMessage](value, func(_, _ []byte) (bool, error) { return false, nil })
	if err != nil {
		return nil, false
	}
	if m == nil {
		m = map[string]json.RawMessage{}
	}
	return m, true
}

// DecodeUnmarshaler decodes value with T's own UnmarshalJSON method, called
// directly. It is for the generated types that check their whole input
// themselves (the structs that keep unknown members, and tuples): for
// them the result is DecodeJSON's, without the decoder DecodeJSON sets up.
// A T that is a CheckedUnmarshaler is given the value with
// UnmarshalCheckedJSON instead, since a member value DecodeMembers hands
// out has been checked with the whole object. An error that is not a
// *DecodeError is wrapped as DecodeJSON wraps it, in a *DecodeError that
// names T.
func DecodeUnmarshaler[T any, PT interface {
	*T
	json.Unmarshaler
}](value []byte, p *T) error {
	return decodeUnmarshaler(value, PT(p))
}

// decodeUnmarshaler is DecodeUnmarshaler for p, a non-nil pointer with
// the method. It is not generic, so that a program holds its code once
// rather than once for every generated struct it decodes.
func decodeUnmarshaler(value []byte, p json.Unmarshaler) error {
	if !jsonscan.Bare(value) {
		return DecodeJSON(value, p)
	}
	var err error
	if c, checked := p.(CheckedUnmarshaler); checked {
		err = c.UnmarshalCheckedJSON(value)
	} else {
		err = p.UnmarshalJSON(value)
	}
	if err != nil {
		return asJSONError(err, value, p)
	}
	return nil
}

// CheckedUnmarshaler is implemented by the generated structs that keep
// the members their schema does not name: besides UnmarshalJSON, which
// checks its input as it decodes it (CheckingUnmarshaler), they have
// UnmarshalCheckedJSON for input the strict scanner has already accepted
// whole (valid UTF-8, no member name repeated, nesting within
// DecodeJSON's limit), which it decodes without checking it again, to the
// same value and error. DecodeUnmarshaler calls it for member values,
// Request.DecodeParams for the params read with their message.
type CheckedUnmarshaler interface {
	CheckingUnmarshaler
	UnmarshalCheckedJSON(b []byte) error
}

// DecodeValue is DecodeJSON for a value of type T: the decode function to
// give DecodePointer and DecodeSlice for a type without a helper of its
// own, such as a union, whose UnmarshalJSON DecodeJSON calls once it has
// checked the value.
func DecodeValue[T any](value []byte, p *T) error {
	return DecodeJSON(value, p)
}

// DecodePointer decodes value into a new T with decode and stores it in
// *p; null stores nil.
func DecodePointer[T any](value []byte, p **T, decode func(value []byte, p *T) error) error {
	if string(value) == "null" {
		*p = nil
		return nil
	}
	if !jsonscan.Bare(value) {
		return DecodeJSON(value, p)
	}
	x := new(T)
	if err := decode(value, x); err != nil {
		return err
	}
	*p = x
	return nil
}

// DecodeSlice decodes a JSON array into *p, each element with decode; an
// empty array gives an empty slice and null a nil one. An element's error
// is placed at the element, as DecodeJSON places it.
func DecodeSlice[T any](value []byte, p *[]T, decode func(value []byte, p *T) error) error {
	if string(value) == "null" {
		*p = nil
		return nil
	}
	out := []T{}
	var zero T
	done, err := decodeElements(value, p, func(elem []byte) error {
		out = append(out, zero) // decoded in place: a local would escape through decode
		return decode(elem, &out[len(out)-1])
	})
	if done {
		*p = out
	}
	return err
}

// decodeElements is DecodeSlice for an array that is not null: it hands
// each element of value to elem in order and reports done when they were
// all decoded, to be stored. Otherwise err is the error: an element's,
// placed at the element, or DecodeJSON's for p when value is not one
// array DecodeJSON would read (DecodeJSON has then stored whatever it
// stores). It is not generic, so that a program holds the walk once
// rather than once for every element type it decodes.
func decodeElements(value []byte, p any, elem func(elem []byte) error) (done bool, err error) {
	a, ok := jsonscan.NewArray(value)
	if !ok || !jsonscan.Bare(value) {
		return false, DecodeJSON(value, p)
	}
	for i := 0; ; i++ {
		e, ok := a.Next()
		if !ok {
			break
		}
		if err := elem(e); err != nil {
			if !validArray(value) {
				return false, DecodeJSON(value, p)
			}
			return false, placeError(err, strconv.Itoa(i), offsetIn(value, e))
		}
	}
	if a.Err() {
		return false, DecodeJSON(value, p)
	}
	return true, nil
}

// validArray reports whether value is one array DecodeJSON would read:
// when it is not, DecodeJSON's own error (about the first fault in the
// text) is the one to report rather than an element's.
func validArray(value []byte) bool {
	return jsonscan.Strict(value, membersMaxDepth)
}

// asJSONError returns err as DecodeJSON returns an error from the
// UnmarshalJSON of p's type: a *DecodeError unchanged (its place is the
// value's own), others wrapped by the decoder as it wraps them.
func asJSONError(err error, value []byte, p any) error {
	if _, ok := err.(*DecodeError); ok {
		return err
	}
	return methodError(value, p, err)
}
