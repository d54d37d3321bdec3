package rpc

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// DecodeReason says why JSON could not be decoded into a Go value (by
// [DecodeJSON] or encoding/json), in JSON's terms: what was found, what was
// expected, and where, as a JSON Pointer. It never names the decoder or a Go
// type, which are the server's internals, so it is fit for an error sent to
// the peer ("invalid params: cannot decode: " + DecodeReason(err)). An error
// that is not the decoder's, such as one an UnmarshalJSON method returned, is
// told as it is. A nil err has no reason: "".
func DecodeReason(err error) string {
	if err == nil {
		return ""
	}
	var sem *jsonv2.SemanticError
	var syn *jsontext.SyntacticError
	var typ *json.UnmarshalTypeError
	var bad *json.SyntaxError
	var b64 base64.CorruptInputError
	switch {
	case errors.As(err, &sem):
		return semanticReason(sem)
	case errors.As(err, &syn):
		return syntacticReason(syn)
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

// semanticReason tells a value the decoder could read but not store.
func semanticReason(e *jsonv2.SemanticError) string {
	var sem *jsonv2.SemanticError
	var syn *jsontext.SyntacticError
	switch {
	case errors.Is(e.Err, jsonv2.ErrUnknownName):
		return "unknown member " + strconv.Quote(e.JSONPointer.LastToken()) + at(e.JSONPointer.Parent())
	case errors.As(e.Err, &sem):
		return semanticReason(sem) // from an UnmarshalJSON method that decodes
	case errors.As(e.Err, &syn):
		return syntacticReason(syn)
	case errors.Is(e.Err, strconv.ErrRange):
		return "a number out of range" + at(e.JSONPointer)
	case e.Err != nil && !decoderDetail(e.Err):
		return e.Err.Error() + at(e.JSONPointer) // an UnmarshalJSON method's own words
	case e.GoType == nil || e.JSONKind == 0:
		return "cannot decode the value" + at(e.JSONPointer)
	}
	return kindFound(e.JSONKind.String()) + " where " + kindExpected(e.GoType) + " is expected" + at(e.JSONPointer)
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

// syntacticReason tells JSON text the decoder could not read.
func syntacticReason(e *jsontext.SyntacticError) string {
	what := "invalid JSON"
	if e.Err != nil {
		what = strings.TrimPrefix(e.Err.Error(), "jsontext: ")
	}
	if errors.Is(e.Err, jsontext.ErrDuplicateName) {
		return "duplicate member name " + strconv.Quote(e.JSONPointer.LastToken()) + at(e.JSONPointer.Parent())
	}
	return what + at(e.JSONPointer)
}

// kindFound names a JSON kind as found in the input: the decoder's
// (jsontext.Kind.String: "true", "{", ...), or encoding/json's word
// ("bool", "object", "number 1.5", ...).
func kindFound(kind string) string {
	switch kind {
	case "null":
		return "null"
	case "bool", "true", "false":
		return "a boolean"
	case "string":
		return "a string"
	case "object", "{":
		return "an object"
	case "array", "[":
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
func fieldPointer(field string) jsontext.Pointer {
	if field == "" {
		return ""
	}
	return jsontext.Pointer("/" + strings.ReplaceAll(field, ".", "/"))
}

// maxPointer bounds the location quoted back to the peer: member names come
// from the input.
const maxPointer = 100

// at is " at <pointer>", or "" for the whole value.
func at(p jsontext.Pointer) string {
	if p == "" {
		return ""
	}
	s := string(p)
	if len(s) > maxPointer {
		s = s[:maxPointer] + "…"
	}
	return " at " + strconv.Quote(s)
}
