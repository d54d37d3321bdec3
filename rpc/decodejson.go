package rpc

import (
	"encoding/json"
	"reflect"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// decodeJSON is DecodeJSON. A value with its own UnmarshalJSON (every
// generated struct that keeps unknown members, every union and tuple) is
// handed its input directly once jsonscan has checked it by the decoder's
// rules (or at once, for a CheckingUnmarshaler, which checks it itself),
// rather than through a decoder set up for the one call: the decoder would
// only check the input and call the method. Everything else, and every
// input the check refuses, goes to the decoder, so that the result and the
// error are the decoder's.
func decodeJSON(b []byte, v any) error {
	u, ok := v.(json.Unmarshaler)
	if !ok || !directTarget(v) {
		return jsonv2.Unmarshal(b, v)
	}
	if _, checks := v.(CheckingUnmarshaler); checks {
		return decodeChecking(b, v, u)
	}
	if !jsonscan.Strict(b, membersMaxDepth) {
		return jsonv2.Unmarshal(b, v)
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
		return jsonv2.Unmarshal(b, v)
	}
	return methodError(b, v, err)
}

// directTarget reports whether the decoder would call v's UnmarshalJSON
// method with the input: v is a non-nil pointer whose type does not also
// have the decoder's own UnmarshalJSONFrom method, which it would prefer.
func directTarget(v any) bool {
	if _, from := v.(jsonv2.UnmarshalerFrom); from {
		return false
	}
	rv := reflect.ValueOf(v)
	return rv.Kind() == reflect.Pointer && !rv.IsNil()
}

// methodError is the error the decoder returns when v's UnmarshalJSON
// fails on b with err: the decoder itself wraps err and places it, with a
// stand-in for the method that reports err again instead of calling the
// method a second time. The stand-in is declared for every type with the
// method, so the error it wraps names that interface: it is given v's type
// back.
func methodError(b []byte, v any, err error) error {
	again := jsonv2.UnmarshalFunc(func([]byte, json.Unmarshaler) error { return err })
	derr := jsonv2.Unmarshal(b, v, jsonv2.WithUnmarshalers(again))
	if serr, ok := derr.(*jsonv2.SemanticError); ok && serr.GoType == unmarshalerType {
		serr.GoType = reflect.TypeOf(v).Elem()
	}
	if derr == nil {
		return err // cannot happen: the stand-in always fails
	}
	return derr
}

// unmarshalerType is the type the stand-in of methodError is declared for.
var unmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// trimSpace returns b without the JSON whitespace around it.
func trimSpace(b []byte) []byte {
	i, j := jsonscan.SkipSpace(b, 0), len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}
