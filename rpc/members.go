package rpc

import (
	"bytes"
	"encoding/json"
	"errors"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// membersMaxDepth is the nesting DecodeMembers accepts: the limit the
// decoder behind DecodeJSON applies, so that both take the same inputs.
const membersMaxDepth = 10000

// errNotObject is the cause DecodeMembers reports for input that is not a
// single well-formed JSON object.
var errNotObject = errors.New("not a well-formed JSON object")

// DecodeMembers walks the members of the JSON object b once, in order,
// with DecodeJSON's rules: b must be exactly one object (or null, which
// has no members), in valid UTF-8,
// with no member name repeated (names written with escapes are compared
// decoded) and nesting within the decoder's limit; names match exactly,
// case included.
//
// For each member it calls member with the decoded name (valid only during
// the call; it aliases b unless the name was written with escapes) and the
// value's bytes. member reports whether the name is one it decoded itself;
// the members it does not know are decoded into V and returned as extra,
// which is nil when there are none (a json.RawMessage V receives a copy of
// the value's bytes). An error from member, or from decoding an extra
// member, is returned with the member's name and position added to it when
// it is a JSON error, so that it reads as if the whole object had been
// decoded at once.
//
// Generated UnmarshalJSON methods of types that keep the members their
// schema does not name call it; it allocates nothing for an object whose
// names have no escapes and are all known.
func DecodeMembers[V any](b []byte, member func(name, value []byte) (known bool, err error)) (extra map[string]V, err error) {
	o, ok := jsonscan.NewObject(b)
	if !ok || !jsonscan.Strict(b, membersMaxDepth) {
		return nil, notObjectError[V](b)
	}
	for {
		raw, value, ok := o.Next()
		if !ok {
			break
		}
		name := raw
		if bytes.IndexByte(raw, '\\') >= 0 {
			s, _ := jsonscan.Name(raw) // Strict has checked the escapes
			name = []byte(s)
		}
		known, err := member(name, value)
		if err != nil {
			return nil, memberError(err, name, offsetIn(b, value))
		}
		if known {
			continue
		}
		var x V
		if r, isRaw := any(&x).(*json.RawMessage); isRaw {
			*r = append(json.RawMessage(nil), value...)
		} else if err := DecodeJSON(value, &x); err != nil {
			return nil, memberError(err, name, offsetIn(b, value))
		}
		if extra == nil {
			extra = make(map[string]V)
		}
		extra[string(name)] = x
	}
	return extra, nil
}

// notObjectError is the error DecodeMembers returns for input that is not
// one well-formed object: the decoder's own error (for invalid JSON, or a
// value that is not an object, which names map[string]V as the Go type it
// could not fill), or nil for null, which decodes to the zero value and so
// to no members.
func notObjectError[V any](b []byte) error {
	var m map[string]V
	if err := DecodeJSON(b, &m); err != nil {
		return err
	}
	if m != nil { // cannot happen: Strict and the decoder agree on objects
		return errNotObject
	}
	return nil
}

// memberError places a JSON error from decoding a member's value at that
// member: its name is put in front of the error's JSON pointer and the
// value's offset in the object is added to the error's byte offset. Other
// errors are returned as they are.
func memberError(err error, name []byte, offset int) error {
	where := jsontext.Pointer("").AppendToken(string(name))
	switch e := err.(type) {
	case *jsonv2.SemanticError:
		e.JSONPointer = where + e.JSONPointer
		e.ByteOffset += int64(offset)
	case *jsontext.SyntacticError:
		e.JSONPointer = where + e.JSONPointer
		e.ByteOffset += int64(offset)
	}
	return err
}

// offsetIn is the index in b at which sub starts: sub is a slice of b
// that keeps b's capacity, as the values jsonscan.Object returns are.
func offsetIn(b, sub []byte) int { return cap(b) - cap(sub) }
