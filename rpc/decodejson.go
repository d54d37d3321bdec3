package rpc

import (
	"encoding/json"
	"reflect"
	"time"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// decodeJSON is DecodeJSON. A value with its own UnmarshalJSON (every
// generated struct that keeps unknown members, every union and tuple) is
// handed its input directly once jsonscan has checked it by the decoder's
// rules (or at once, for a CheckingUnmarshaler, which checks it itself),
// rather than through the decoder: the decoder would only check the input
// and call the method. Everything else, and every input the check
// refuses, goes to the decoder, so that the result and the error are the
// decoder's.
func decodeJSON(b []byte, v any) error {
	u, ok := v.(json.Unmarshaler)
	if !ok || !directTarget(v) {
		return jsondecode.Unmarshal(b, v)
	}
	if _, checks := v.(CheckingUnmarshaler); checks {
		return decodeChecking(b, v, u)
	}
	if !jsonscan.Strict(b, membersMaxDepth) {
		return jsondecode.Unmarshal(b, v)
	}
	if err := u.UnmarshalJSON(trimSpace(b)); err != nil {
		return methodError(b, v, err)
	}
	return nil
}

// CheckingUnmarshaler is implemented by the types whose UnmarshalJSON
// checks its whole input by DecodeJSON's rules (one value in valid UTF-8,
// no member name repeated, nesting within the limit, nothing after it but
// whitespace) and refuses it otherwise: DecodeJSON then hands the input to
// the method without checking it first. The generated structs that keep
// the members their schema does not name implement it, since their
// UnmarshalJSON checks the object as DecodeMembers walks it.
type CheckingUnmarshaler interface {
	json.Unmarshaler
	// UnmarshalJSONChecksInput does nothing: it marks the type.
	UnmarshalJSONChecksInput()
}

// decodeChecking is decodeJSON for a CheckingUnmarshaler: one pass over
// the input when it is valid. When the method fails on input that is not
// valid, the decoder gives the error (about the fault it meets first, the
// method's own error when the fault is data after the value); otherwise
// the method's error is wrapped as the decoder wraps it.
func decodeChecking(b []byte, v any, u json.Unmarshaler) error {
	err := u.UnmarshalJSON(trimSpace(b))
	switch {
	case err == nil:
		return nil
	case !jsonscan.Strict(b, membersMaxDepth):
		return jsondecode.Unmarshal(b, v)
	}
	return methodError(b, v, err)
}

// directTarget reports whether the decoder would call v's UnmarshalJSON
// method with the input: v is a non-nil pointer, and not to a time.Time,
// which the decoder reads by its own rules.
func directTarget(v any) bool {
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && !rv.IsNil() && rv.Type().Elem() != timeType
}

var timeType = reflect.TypeFor[time.Time]()

// methodError is the error the decoder returns when the UnmarshalJSON of
// v, a pointer, fails with err on b, valid input.
func methodError(b []byte, v any, err error) error {
	return jsondecode.MethodError(b, reflect.TypeOf(v).Elem(), err)
}

// trimSpace returns b without the JSON whitespace around it.
func trimSpace(b []byte) []byte {
	i, j := jsonscan.SkipSpace(b, 0), len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}
