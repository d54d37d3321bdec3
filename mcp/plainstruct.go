package mcp

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/schemarpc/schemarpc/internal/jsonwrite"
	"github.com/schemarpc/schemarpc/rpc"
)

// plainStruct reads and writes a struct of plain fields (strings,
// booleans, float64 and 64-bit integers, by their json names) without the
// reflective codecs: the arguments of a typed tool (AddTool) are decoded
// by one walk over their members with rpc.DecodeMembersChecked (the lax
// walk when the caller knows a strict reading has accepted the arguments
// already), each value read by the rpc.Decode* function of its kind, and its output is appended
// field by field. It is an optimisation only. Any input it does not decode
// whole that way (a name that is not a field's exactly, a value of another
// form, any error) is decoded again, from the zero value, by
// rpc.DecodeJSON; any output it does not write as encoding/json would (a
// string with characters json.Marshal escapes for HTML or with invalid
// UTF-8, a number JSON cannot hold) is written by json.Marshal. So the
// results and the errors are always theirs.
type plainStruct struct {
	typ    reflect.Type // the struct type planned, whose memory decode writes
	fields []plainField
}

// plainField is one field of a plainStruct: its json name, its offset in
// the struct, its kind, and when encoding/json leaves it out of its
// output (omitempty, omitzero).
type plainField struct {
	name      string
	offset    uintptr
	kind      reflect.Kind
	omitEmpty bool
	omitZero  bool
}

// errUnplanned stops the walk at a member the plan does not decode.
var errUnplanned = errors.New("mcp: member outside the arguments plan")

// planPlain returns the plan of t, or nil when t is not a struct both
// codecs handle as the plan does: every field exported, not embedded, of
// a plain kind, without a method of its own for JSON, text or IsZero, and
// tagged with at most a name of letters, digits, '_' and '-' (written as
// it is) and omitempty or omitzero.
func planPlain(t reflect.Type) *plainStruct {
	if t.Kind() != reflect.Struct || hasOwnCoding(t) {
		return nil
	}
	p := &plainStruct{typ: t}
	seen := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || !f.IsExported() || !plainKind(f.Type) || hasOwnCoding(f.Type) {
			return nil
		}
		name, options, ok := jsonField(f)
		if !ok || !plainName(name) || seen[name] {
			return nil
		}
		pf := plainField{name: name, offset: f.Offset, kind: f.Type.Kind()}
		for _, o := range options {
			switch o {
			case "omitempty":
				pf.omitEmpty = true
			case "omitzero":
				pf.omitZero = true
			default:
				return nil
			}
		}
		seen[name] = true
		p.fields = append(p.fields, pf)
	}
	return p
}

// plainName reports whether name is made of letters, digits, '_' and
// '-' only: both codecs take it as written, and it needs no escape.
func plainName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// plainKind reports whether values of t are read by a Decode* function
// of rpc and written by jsonwrite as both codecs do: a type of a plain
// kind that neither codec treats apart (json.Number, which json.Marshal
// writes as a number, and time.Duration, which rpc.DecodeJSON refuses
// since it has no default JSON form, are of plain kinds).
func plainKind(t reflect.Type) bool {
	if t == jsonNumberType || t == durationType {
		return false
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool, reflect.Float64, reflect.Int64:
		return true
	case reflect.Int:
		return strconv.IntSize == 64
	}
	return false
}

// The interfaces through which a type reads or writes itself, or says
// whether it is zero (omitzero).
var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	jsonMarshalerType   = reflect.TypeFor[json.Marshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	textAppenderType    = reflect.TypeFor[encoding.TextAppender]()
	isZeroerType        = reflect.TypeFor[interface{ IsZero() bool }]()
)

// The types of plain kinds that a codec treats apart.
var (
	jsonNumberType = reflect.TypeFor[json.Number]()
	durationType   = reflect.TypeFor[time.Duration]()
)

// hasOwnCoding reports whether t or *t reads or writes itself, or says
// whether it is zero. The methods of go-json-experiment's interfaces
// (UnmarshalJSONFrom, MarshalJSONTo) do not count: neither rpc.DecodeJSON
// nor json.Marshal calls them.
func hasOwnCoding(t reflect.Type) bool {
	for _, u := range []reflect.Type{t, reflect.PointerTo(t)} {
		for _, i := range []reflect.Type{jsonUnmarshalerType, textUnmarshalerType, jsonMarshalerType, textMarshalerType, textAppenderType, isZeroerType} {
			if u.Implements(i) {
				return true
			}
		}
	}
	return false
}

// decodePlain decodes the JSON arguments b into *in as rpc.DecodeJSON
// does, through p when it is not nil and decodes b whole. checked says
// that the strict scanner has accepted b already (see argsChecked): the
// plan's walk then steps over it without checking the text again.
func decodePlain[In any](p *plainStruct, b []byte, checked bool, in *In) error {
	if p != nil && p.typ == reflect.TypeFor[In]() && p.decode(b, checked, unsafe.Pointer(in)) {
		return nil
	}
	var zero In
	*in = zero
	return rpc.DecodeJSON(b, in)
}

// decode sets the fields of the struct at v, of the type p was planned
// for, from the members of b, checked as for decodePlain; false when it
// met anything it does not decode, leaving the struct partly set. A field
// is found at its offset rather than through reflect.Value, whose Addr
// looks its pointer type up on every call.
func (p *plainStruct) decode(b []byte, checked bool, v unsafe.Pointer) bool {
	_, err := rpc.DecodeMembersChecked[struct{}](b, checked, func(name, value []byte) (bool, error) {
		f := p.field(name)
		if f == nil {
			return false, errUnplanned
		}
		return true, f.set(unsafe.Add(v, f.offset), value)
	})
	return err == nil
}

// field returns the field named name exactly, or nil.
func (p *plainStruct) field(name []byte) *plainField {
	for i := range p.fields {
		if p.fields[i].name == string(name) {
			return &p.fields[i]
		}
	}
	return nil
}

// set decodes value into the field at at, in place: the field's kind is
// the one of the type it is read as, so the memory is that type's.
func (f *plainField) set(at unsafe.Pointer, value []byte) error {
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

// encodePlain returns the JSON encoding of out as json.Marshal writes it,
// appended field by field through p when it is not nil and out needs
// nothing it does not write.
func encodePlain[Out any](p *plainStruct, out Out) ([]byte, error) {
	if p != nil && p.typ == reflect.TypeFor[Out]() {
		if b, ok := p.appendJSON(unsafe.Pointer(&out)); ok {
			return b, nil
		}
	}
	return json.Marshal(out)
}

// appendJSON returns the JSON object of the fields of the struct at v, of
// the type p was planned for; false when a value is one it does not write
// as json.Marshal would. Fields are read at their offsets, as decode
// writes them.
func (p *plainStruct) appendJSON(v unsafe.Pointer) ([]byte, bool) {
	b := make([]byte, 0, p.sizeHint(v))
	b = append(b, '{')
	first := true
	for i := range p.fields {
		f := &p.fields[i]
		at := unsafe.Add(v, f.offset)
		if f.omitted(at) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '"')
		b = append(b, f.name...)
		b = append(b, '"', ':')
		switch f.kind {
		case reflect.String:
			s := *(*string)(at)
			if strings.ContainsAny(s, "<>&") || !utf8.ValidString(s) {
				// json.Marshal escapes these for HTML, and writes invalid
				// UTF-8 one way or another depending on the Go release
				// (\ufffd before Go 1.27, the replacement character itself
				// since).
				return nil, false
			}
			b = jsonwrite.String(b, s)
		case reflect.Bool:
			b = jsonwrite.Bool(b, *(*bool)(at))
		case reflect.Float64:
			var err error
			if b, err = jsonwrite.Float64(b, *(*float64)(at)); err != nil {
				return nil, false
			}
		default: // reflect.Int, reflect.Int64: 64 bits wide (plainKind)
			b = jsonwrite.Int64(b, *(*int64)(at))
		}
	}
	return append(b, '}'), true
}

// omitted reports whether encoding/json leaves the field, whose value is
// at at, out.
func (f *plainField) omitted(at unsafe.Pointer) bool {
	if !f.omitEmpty && !f.omitZero {
		return false
	}
	switch f.kind {
	case reflect.String:
		return len(*(*string)(at)) == 0
	case reflect.Bool:
		return !*(*bool)(at)
	case reflect.Float64:
		return *(*float64)(at) == 0 // -0 included, by both options
	default:
		return *(*int64)(at) == 0
	}
}

// sizeHint is about the length of the JSON object of the struct at v, so
// that it is written into one allocation.
func (p *plainStruct) sizeHint(v unsafe.Pointer) int {
	n := 2
	for i := range p.fields {
		f := &p.fields[i]
		n += len(f.name) + 4
		if f.kind == reflect.String {
			n += len(*(*string)(unsafe.Add(v, f.offset))) + 2
		} else {
			n += 24
		}
	}
	return n
}
