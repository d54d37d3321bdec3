package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/schemarpc/schemarpc/internal/jsondecode"
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
// case included. It checks the object as it walks it, in the same pass:
// the members before a fault may have been handed to member by the time
// the fault is found, and the error is then the fault's, even when member
// failed first, as a decode of the whole object would report it.
//
// For each member it calls member with the decoded name (valid only during
// the call; it aliases b unless the name was written with escapes) and the
// value's bytes. member reports whether the name is one it decoded itself;
// the members it does not know are decoded into V and returned as extra,
// which is nil when there are none (a json.RawMessage V receives a copy of
// the value's bytes). An error from member, or from decoding an extra
// member, is returned with the member's name and position added to it when
// it is a *DecodeError, so that it reads as if the whole object had been
// decoded at once.
//
// Generated UnmarshalJSON methods of types that keep the members their
// schema does not name call it; it allocates nothing for an object whose
// names have no escapes and are all known.
func DecodeMembers[V any](b []byte, member func(name, value []byte) (known bool, err error)) (extra map[string]V, err error) {
	return decodeMembersStrict[V](b, member)
}

// DecodeMembersChecked is DecodeMembers, or, when checked is set, its walk
// of an object the strict scanner has already accepted whole, as
// DecodeMembers hands out a member's value and rpc reads a message's
// params: the members are stepped over without checking the text again,
// so that a value is checked once however deeply it is decoded. Given
// such input, both walks hand member the same members and return the same
// result and error. Generated UnmarshalJSON and UnmarshalCheckedJSON
// methods call it (see CheckedUnmarshaler).
func DecodeMembersChecked[V any](b []byte, checked bool, member func(name, value []byte) (known bool, err error)) (extra map[string]V, err error) {
	if checked {
		return decodeMembersChecked[V](b, member)
	}
	return decodeMembersStrict[V](b, member)
}

// decodeMembersChecked is DecodeMembersChecked for checked input: the
// lax walker steps through it, and a member's error needs no look at the
// members after it, which hold no fault.
func decodeMembersChecked[V any](b []byte, member func(name, value []byte) (known bool, err error)) (extra map[string]V, err error) {
	o, ok := jsonscan.NewObject(b)
	if !ok {
		return nil, notObjectError[V](b)
	}
	if m := lastRecalled.Load(); m != nil {
		o.Knowing(m.raw) // a whole object the strict scanner accepted, as b is
	}
	unknown := newUnknownMembers[V]()
	for {
		rawName, value, ok := o.Next()
		if !ok {
			break
		}
		name := rawName
		if bytes.IndexByte(rawName, '\\') >= 0 {
			s, _ := jsonscan.Name(rawName) // the scanner has checked the escapes
			name = []byte(s)
		}
		known, err := member(name, value)
		if err == nil && !known {
			err = unknown.add(b, rawName, name, value)
		}
		if err != nil {
			return nil, memberError(err, name, offsetIn(b, value))
		}
	}
	return unknown.result(b), nil
}

// unknownMembers gathers the members of an object that the walk's member
// function did not know: for a json.RawMessage V as positions in the
// object (rawMembers), otherwise each decoded into extra.
type unknownMembers[V any] struct {
	raw   bool
	kept  rawMembers
	extra map[string]V
}

func newUnknownMembers[V any]() unknownMembers[V] {
	_, raw := any((*V)(nil)).(*json.RawMessage)
	return unknownMembers[V]{raw: raw}
}

// add gathers the member written rawName (name once decoded) whose value
// is value, in the object b.
func (u *unknownMembers[V]) add(b, rawName, name, value []byte) error {
	if u.raw {
		u.kept.add(b, rawName, name, value)
		return nil
	}
	var err error
	u.extra, err = decodeExtra(u.extra, name, value)
	return err
}

// result is the map of the members gathered; nil when there are none.
func (u *unknownMembers[V]) result(b []byte) map[string]V {
	if u.raw && u.kept.n > 0 {
		return any(u.kept.toMap(b)).(map[string]V)
	}
	return u.extra
}

// decodeExtra decodes the unknown member name, whose value is value, into
// extra, made on the first one.
func decodeExtra[V any](extra map[string]V, name, value []byte) (map[string]V, error) {
	var x V
	if err := DecodeJSON(value, &x); err != nil {
		return extra, err
	}
	if extra == nil {
		extra = make(map[string]V)
	}
	extra[string(name)] = x
	return extra, nil
}

// decodeMembersStrict is DecodeMembers: it checks b as it walks it.
func decodeMembersStrict[V any](b []byte, member func(name, value []byte) (known bool, err error)) (extra map[string]V, err error) {
	o, ok := jsonscan.NewMembers(b, membersMaxDepth)
	if !ok {
		return nil, notObjectError[V](b)
	}
	unknown := newUnknownMembers[V]()
	for {
		rawName, escaped, value, ok := o.Next()
		if !ok {
			break
		}
		name := rawName
		if escaped {
			s, _ := jsonscan.Name(rawName) // Next has checked the escapes
			name = []byte(s)
		}
		known, err := member(name, value)
		if err == nil && !known {
			err = unknown.add(b, rawName, name, value)
		}
		if err != nil {
			return nil, firstError[V](&o, b, err, name, value)
		}
	}
	if o.Err() {
		return nil, notObjectError[V](b)
	}
	return unknown.result(b), nil
}

// rawMembers gathers the unknown members of an object for a
// json.RawMessage map, as positions in the object, so that their names
// and their values are each copied into one allocation in toMap instead
// of one per member. It holds no pointer into itself and stays on the
// stack while there are at most eight.
type rawMembers struct {
	n     int
	first [8]rawMember
	more  []rawMember
}

// rawMember is an unknown member: its name and value as offsets in the
// object, or its decoded name when the name was written with escapes.
type rawMember struct {
	name, value [2]int // start and end in the object
	escaped     string
}

func (r *rawMembers) add(b, rawName, name, value []byte) {
	m := rawMember{name: spanIn(b, rawName), value: spanIn(b, value)}
	if len(name) > 0 && &name[0] != &rawName[0] {
		m.escaped = string(name)
	}
	if r.n < len(r.first) {
		r.first[r.n] = m
	} else {
		r.more = append(r.more, m)
	}
	r.n++
}

func (r *rawMembers) at(i int) *rawMember {
	if i < len(r.first) {
		return &r.first[i]
	}
	return &r.more[i-len(r.first)]
}

// spanIn is where part, a subslice of b, lies in b.
func spanIn(b, part []byte) [2]int {
	start := offsetIn(b, part)
	return [2]int{start, start + len(part)}
}

// toMap returns the members of b as a map whose keys share one string and
// whose values share one byte slice (each capped, so that appending to
// one never writes over the next).
func (r *rawMembers) toMap(b []byte) map[string]json.RawMessage {
	nameLen, valueLen := 0, 0
	for i := range r.n {
		m := r.at(i)
		nameLen += m.name[1] - m.name[0]
		valueLen += m.value[1] - m.value[0]
	}
	var names strings.Builder
	names.Grow(nameLen)
	values := make([]byte, 0, valueLen)
	for i := range r.n {
		m := r.at(i)
		names.Write(b[m.name[0]:m.name[1]])
		values = append(values, b[m.value[0]:m.value[1]]...)
	}
	all := names.String()
	out := make(map[string]json.RawMessage, r.n)
	at, vat := 0, 0
	for i := range r.n {
		m := r.at(i)
		name := all[at : at+m.name[1]-m.name[0]]
		at += m.name[1] - m.name[0]
		if m.escaped != "" {
			name = m.escaped
		}
		end := vat + m.value[1] - m.value[0]
		out[name] = values[vat:end:end]
		vat = end
	}
	return out
}

// notObjectError is the error DecodeMembers returns for input that is not
// one well-formed object. When the first value in b is not valid JSON, it
// is the decoder's error about that value's first fault: what DecodeJSON
// reports for a type with its own UnmarshalJSON, since the decoder reads
// the whole value before it calls the method. Otherwise it is the
// decoder's error for b as a map[string]V: naming the map as the Go type
// it could not fill when the value is not an object, about the data after
// it when there is any, and nil for null, which decodes to the zero value
// and so to no members.
func notObjectError[V any](b []byte) error {
	if !jsonscan.Strict(b, membersMaxDepth) {
		if err := jsondecode.CheckValue(b); err != nil {
			return err
		}
	}
	var m map[string]V
	if err := DecodeJSON(b, &m); err != nil {
		return err
	}
	if m != nil { // cannot happen: Strict and the decoder agree on objects
		return errNotObject
	}
	return nil
}

// firstError is the error DecodeMembers reports when decoding the member
// name, whose value is value, failed with err: the object's own fault when
// the members not yet read hold one (a whole-object decode would have met
// it first), else err placed at the member.
func firstError[V any](o *jsonscan.Members, b []byte, err error, name, value []byte) error {
	if !o.Rest() {
		return notObjectError[V](b)
	}
	return memberError(err, name, offsetIn(b, value))
}

// memberError places a *DecodeError from decoding a member's value at that
// member: its name is put in front of the error's JSON pointer and the
// value's offset in the object is added to the error's byte offset. Other
// errors are returned as they are.
func memberError(err error, name []byte, offset int) error {
	return placeError(err, string(name), offset)
}

// placeError places a *DecodeError from decoding a value inside a larger one
// at the value: token (a member name or an array index) is put in front of
// the error's JSON pointer and offset, where the value starts in the
// larger one, is added to its byte offset. Other errors are returned as
// they are.
func placeError(err error, token string, offset int) error {
	return jsondecode.Place(err, token, offset)
}

// offsetIn is the index in b at which sub starts: sub is a slice of b
// that keeps b's capacity, as the values jsonscan.Object returns are.
func offsetIn(b, sub []byte) int { return cap(b) - cap(sub) }
