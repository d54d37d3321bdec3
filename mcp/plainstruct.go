package mcp

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/schemarpc/schemarpc/rpc"
)

// argsPlan decodes the arguments of a typed tool (AddTool) into a struct
// of plain fields (strings, booleans, float64 and 64-bit integers, by
// their json names) without the reflective decoder behind rpc.DecodeJSON:
// one walk over the members with rpc.DecodeMembers, each value read by
// the rpc.Decode* function of its kind. It is an optimisation only. Any
// input it does not decode whole that way (a name that is not a field's
// exactly, a value of another form, any error) is decoded again, from
// the zero value, by rpc.DecodeJSON, so the result and the error are
// always DecodeJSON's.
type argsPlan struct {
	fields []argField
}

// argField is one field the plan sets: its json name, its index in the
// struct and its kind.
type argField struct {
	name  string
	index int
	kind  reflect.Kind
}

// errUnplanned stops the walk at a member the plan does not decode.
var errUnplanned = errors.New("mcp: member outside the arguments plan")

// planArgs returns the plan for decoding into t, or nil when t is not a
// struct the plan decodes as DecodeJSON would: every field exported, not
// embedded, of a plain kind, without a method of its own for JSON or text,
// and tagged with at most a name and omitempty or omitzero.
func planArgs(t reflect.Type) *argsPlan {
	if t.Kind() != reflect.Struct || hasOwnDecoding(t) {
		return nil
	}
	p := &argsPlan{}
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || !f.IsExported() || !plainKind(f.Type) || hasOwnDecoding(f.Type) {
			return nil
		}
		name, options, ok := jsonField(f)
		if !ok || name == "" || strings.HasPrefix(name, "'") || seen[name] {
			return nil
		}
		for _, o := range options {
			if o != "omitempty" && o != "omitzero" {
				return nil
			}
		}
		seen[name] = true
		p.fields = append(p.fields, argField{name: name, index: i, kind: f.Type.Kind()})
	}
	return p
}

// plainKind reports whether values of t are read by a Decode* function
// of rpc.
func plainKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float64, reflect.Int64:
		return true
	case reflect.Int:
		return strconv.IntSize == 64
	}
	return false
}

// The interfaces through which a type decodes itself.
var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	jsonFromType        = reflect.TypeFor[jsonv2.UnmarshalerFrom]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// hasOwnDecoding reports whether t or *t decodes itself.
func hasOwnDecoding(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		if u.Implements(jsonUnmarshalerType) || u.Implements(jsonFromType) || u.Implements(textUnmarshalerType) {
			return true
		}
	}
	return false
}

// decodeArgs decodes the JSON arguments b into *in as rpc.DecodeJSON
// does, through p when it is not nil and decodes b whole.
func decodeArgs[In any](p *argsPlan, b []byte, in *In) error {
	if p != nil && p.decode(b, reflect.ValueOf(in).Elem()) {
		return nil
	}
	var zero In
	*in = zero
	return rpc.DecodeJSON(b, in)
}

// decode sets the fields of v from the members of b; false when it met
// anything it does not decode, leaving v partly set.
func (p *argsPlan) decode(b []byte, v reflect.Value) bool {
	_, err := rpc.DecodeMembers[struct{}](b, func(name, value []byte) (bool, error) {
		f := p.field(name)
		if f == nil {
			return false, errUnplanned
		}
		return true, f.set(v.Field(f.index), value)
	})
	return err == nil
}

// field returns the field named name exactly, or nil.
func (p *argsPlan) field(name []byte) *argField {
	for i := range p.fields {
		if p.fields[i].name == string(name) {
			return &p.fields[i]
		}
	}
	return nil
}

// set decodes value into the field v, in place: the field's kind is the
// one of the type it is read as, so the memory is that type's.
func (f *argField) set(v reflect.Value, value []byte) error {
	at := v.Addr().UnsafePointer()
	switch f.kind {
	case reflect.String:
		return rpc.DecodeString(value, (*string)(at))
	case reflect.Bool:
		return rpc.DecodeBool(value, (*bool)(at))
	case reflect.Float64:
		return rpc.DecodeFloat(value, (*float64)(at))
	case reflect.Int64, reflect.Int: // int is 64 bits wide (plainKind)
		return rpc.DecodeInt(value, (*int64)(at))
	}
	return errUnplanned
}
