package rpc

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
)

// DecodeReason says why JSON could not be decoded into a Go value (by
// [DecodeJSON] or encoding/json), in JSON's terms: what was found, what was
// expected, and where, as a JSON Pointer. It never names the decoder or a Go
// type, which are the server's internals, so it is fit for an error sent to
// the peer ("invalid params: cannot decode: " + DecodeReason(err)). An error
// that is not the decoder's, such as one an UnmarshalJSON method returned, is
// told as it is. A nil err has no reason: "".
//
// The words are the ones DecodeJSON's errors were told in when its decoder
// was github.com/go-json-experiment/json: the peer sees the same text.
func DecodeReason(err error) string {
	if err == nil {
		return ""
	}
	var dec *DecodeError
	var typ *json.UnmarshalTypeError
	var bad *json.SyntaxError
	var b64 base64.CorruptInputError
	switch {
	case errors.As(err, &dec):
		return decodeErrorReason(dec)
	case errors.As(err, &typ):
		return kindFound(typ.Value) + " where " + kindExpected(typ.Type) + " is expected" + at(fieldPointer(typ.Field))
	case errors.As(err, &bad):
		return "not valid JSON at byte " + strconv.FormatInt(bad.Offset, 10)
	case errors.As(err, &b64):
		// encoding/json before Go 1.27 returns base64's own error, which
		// says neither what was expected nor where.
		return "a string where a base64 string is expected"
	}
	return err.Error()
}

// decodeErrorReason tells a DecodeError.
func decodeErrorReason(e *DecodeError) string {
	var inner *DecodeError
	switch {
	case e.Err == jsondecode.ErrDuplicateName:
		return "duplicate member name " + strconv.Quote(jsondecode.LastToken(e.Pointer)) + at(jsondecode.Parent(e.Pointer))
	case e.Syntactic():
		return e.Err.Error() + at(e.Pointer)
	case errors.As(e.Err, &inner):
		return decodeErrorReason(inner) // from an UnmarshalJSON method that decodes
	case errors.Is(e.Err, strconv.ErrRange):
		return "a number out of range" + at(e.Pointer)
	case e.Err != nil && !decoderDetail(e.Err):
		return e.Err.Error() + at(e.Pointer) // an UnmarshalJSON method's own words
	case e.GoType == nil || e.Kind == 0:
		return "cannot decode the value" + at(e.Pointer)
	}
	return kindFound(e.Kind.String()) + " where " + kindExpected(e.GoType) + " is expected" + at(e.Pointer)
}

// decoderDetail reports whether err is a detail the decoder adds to a
// value of the wrong form (a number's syntax, base64, its own words),
// which the kinds found and expected say better.
func decoderDetail(err error) bool {
	var b64 base64.CorruptInputError
	s := err.Error()
	return errors.Is(err, strconv.ErrSyntax) || errors.As(err, &b64) ||
		strings.HasPrefix(s, "json:") || strings.HasPrefix(s, "jsontext:") || strings.HasPrefix(s, "strconv.")
}

// kindFound names a JSON kind as found in the input: the decoder's
// (jsondecode.Kind.String: "boolean", "object", ...), or encoding/json's
// word ("bool", "object", "number 1.5", ...).
func kindFound(kind string) string {
	switch kind {
	case "null":
		return "null"
	case "bool", "boolean":
		return "a boolean"
	case "string":
		return "a string"
	case "object":
		return "an object"
	case "array":
		return "an array"
	}
	if strings.HasPrefix(kind, "number") {
		return "a number"
	}
	return "a value"
}

// kindExpected names the JSON a Go type takes.
func kindExpected(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "another value"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "an array"
	case reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "another value"
}

// fieldPointer turns encoding/json's dotted field path into a JSON Pointer.
func fieldPointer(field string) string {
	if field == "" {
		return ""
	}
	return "/" + strings.ReplaceAll(field, ".", "/")
}

// maxPointer bounds the location quoted back to the peer: member names come
// from the input.
const maxPointer = 100

// at is " at <pointer>", or "" for the whole value.
func at(p string) string {
	if p == "" {
		return ""
	}
	if len(p) > maxPointer {
		p = p[:maxPointer] + "…"
	}
	return " at " + strconv.Quote(p)
}
