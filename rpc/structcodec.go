package rpc

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// The codecs of generated structs, as tables. A generated struct's
// AppendJSON, UnmarshalJSON and UnmarshalCheckedJSON are one call each
// into the walkers below, which read the struct's fields through the
// offsets its StructCodec lists. One walker for every struct, rather than
// a straight-line function per struct, is what keeps the generated
// packages small: nearly every page of a server's executable ends up
// resident, so their code is paid for in memory whether it runs or not.
//
// This is the one file of package rpc that uses unsafe. It reads and
// writes a field only at an offset the compiler computed for it
// (unsafe.Offsetof in the generated table) and only as the type the
// generator wrote beside it, or as that type's underlying one (a string
// for an enum); a pointer is stored through an unsafe.Pointer, so that the
// store has its write barrier. Where a Go type is needed (a method, an
// error that names the type, a decoder fallback) the field is handed out
// as an interface holding a pointer to it, built from the table's typed
// nil pointer (pointerAt), and a struct is zeroed through reflect, which
// clears it with its write barriers. The tests of the packages that use
// it run with -race, which turns on checkptr.

// StructCodec describes how a generated struct is written and read as a
// JSON object: its fields in order and, when it keeps the members its
// schema does not name, where its Extra map is. Generated code declares
// one per struct; it is not meant to be written by hand.
type StructCodec struct {
	// Type is a nil pointer to the struct, (*T)(nil).
	Type any
	// Fields are the struct's members, in the order they are written.
	Fields []FieldCodec
	// Extra is the offset of the struct's Extra field, a
	// map[string]json.RawMessage, when HasExtra is set.
	Extra uintptr
	// HasExtra is set when the struct has an Extra field.
	HasExtra bool
	// Recurring is set for a struct whose JSON recurs byte for byte from
	// message to message (the _meta of one MCP client's requests): a
	// checked decode (DecodeStruct) remembers the last such value it
	// decoded and copies it when the same bytes come again (recall).
	Recurring bool

	recalled atomic.Pointer[recalledStruct] // Recurring: the last value remembered
	misses   atomic.Int32                   // Recurring: decodes in a row that missed it
}

// lastRecalled is the value a Recurring struct's decode remembered last,
// whichever struct it is, when it is an object the strict scanner accepts:
// the parser's check of a message (scanEnvelope) steps over the same bytes
// as checked (jsonscan.Members.Knowing), and a checked walk of the members
// of the object holding it (decodeMembersChecked) without scanning them
// (jsonscan.Object.Knowing), before the struct's decode finds them in its
// own memory.
var lastRecalled atomic.Pointer[recalledStruct]

// recalledStruct is a value DecodeStruct remembers for a Recurring struct:
// the JSON it was decoded from and the value, a *T, which is never changed
// once stored.
type recalledStruct struct {
	raw   []byte
	value any
	depth int // the levels raw nests (jsonscan.Depth); set for lastRecalled
}

// The bounds of what a Recurring struct's decode remembers: a value of at
// most maxRecalledStruct bytes of JSON, replaced by another after
// maxRecalledMisses decodes in a row that missed it (so that a value that
// changes every time costs a copy once in that many decodes).
const (
	maxRecalledStruct = 1024
	maxRecalledMisses = 4
)

// FieldCodec describes one field of a generated struct and the member it
// is written as.
type FieldCodec struct {
	// Key is the member's name as written before its value, `,"name":`;
	// the name needs no escape, so it is Key without its first two and
	// last two bytes.
	Key string
	// Value says how the field's value is written and read; the fields
	// of one type (and Fill) share one.
	Value *ValueCodec
	// Append, when set, writes the whole member (its key included, and
	// nothing when it is to be left out) for a field Value cannot
	// write; it is given the struct.
	Append func(b []byte, p unsafe.Pointer) ([]byte, error)
	// Offset is the field's offset in the struct.
	Offset uint32
	// Omit says when the member is left out.
	Omit OmitRule
}

// name is the member's name.
func (f *FieldCodec) name() string { return f.Key[2 : len(f.Key)-2] }

// OmitRule is when a member is left out, from the field's omitempty or
// omitzero option as encoding/json reads it.
type OmitRule uint8

// The omit rules.
const (
	// OmitNever writes the member always.
	OmitNever OmitRule = iota
	// OmitNil leaves out a nil pointer, slice or map.
	OmitNil
	// OmitEmpty leaves out an empty string or slice.
	OmitEmpty
	// OmitFalse leaves out false.
	OmitFalse
	// OmitZeroInt leaves out an int64 of 0.
	OmitZeroInt
	// OmitZeroFloat leaves out a float64 of 0.
	OmitZeroFloat
)

// ValueCodec describes how a value of one type is written (Enc) and read
// (Dec).
type ValueCodec struct {
	// Enc is how the value is written.
	Enc EncodeKind
	// Dec is how the value is read.
	Dec DecodeKind
	// Size is the size of a slice's element.
	Size uintptr
	// Fill, when not empty, is the JSON written instead of an empty
	// value: a const string's value for an empty string, [] or {} for a
	// nil list or map.
	Fill string
	// Type is a nil pointer to the value's type, (*T)(nil): it gives
	// the walkers the value as a *T where they need its methods or its
	// name.
	Type any
	// Elem describes the element of a pointer or a slice.
	Elem *ValueCodec
	// Decode, when set, reads a value into the value at p (Dec is then
	// DecodeNone).
	Decode func(value []byte, p unsafe.Pointer) error
}

// EncodeKind is how a value is written.
type EncodeKind uint8

// The encode kinds.
const (
	// EncodeNone writes the value through AppendJSONValue (generated
	// tables give such a field an Append function instead).
	EncodeNone EncodeKind = iota
	// EncodeString writes a string, or a type defined on string.
	EncodeString
	// EncodeInt writes an int64.
	EncodeInt
	// EncodeFloat writes a float64; NaN and the infinities are an error.
	EncodeFloat
	// EncodeBool writes a bool.
	EncodeBool
	// EncodeRaw writes a json.RawMessage compacted, nil as null.
	EncodeRaw
	// EncodeAppender asks the value's own AppendJSON (through a *T).
	EncodeAppender
	// EncodePointer writes nil as null, else the element.
	EncodePointer
	// EncodeSlice writes nil as null, else the elements as an array.
	EncodeSlice
)

// DecodeKind is how a value is read, with the rules of the Decode*
// helpers of the same names.
type DecodeKind uint8

// The decode kinds.
const (
	// DecodeNone reads the value with the ValueCodec's Decode function,
	// or as DecodeJSON reads it when there is none.
	DecodeNone DecodeKind = iota
	// DecodeKindString reads as DecodeString.
	DecodeKindString
	// DecodeKindBool reads as DecodeBool.
	DecodeKindBool
	// DecodeKindInt reads as DecodeInt.
	DecodeKindInt
	// DecodeKindFloat reads as DecodeFloat.
	DecodeKindFloat
	// DecodeKindRaw reads as DecodeCheckedRaw.
	DecodeKindRaw
	// DecodeKindRawMap reads as DecodeRawMap.
	DecodeKindRawMap
	// DecodeKindUnmarshaler reads as DecodeUnmarshaler.
	DecodeKindUnmarshaler
	// DecodeKindJSON reads as DecodeJSON.
	DecodeKindJSON
	// DecodeKindPointer reads as DecodePointer, the element by Elem.
	DecodeKindPointer
)

// eface is the layout of an interface value of type any.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

// pointerAt is typ, a nil *T in an interface, made to point at p.
func pointerAt(typ any, p unsafe.Pointer) any {
	e := (*eface)(unsafe.Pointer(&typ))
	e.data = p
	return typ
}

// AppendStruct appends the JSON object of the generated struct at p,
// described by c: its members in order, each left out as its rule says,
// then the Extra members sorted by name (those no field names).
// Generated AppendJSON methods call it.
//
// p does not escape: a generated MarshalJSON, whose receiver is a copy,
// keeps it on its stack. The walk reads through p, and hands out the
// fields' addresses only to the generated AppendJSON methods of their
// types, which read through them too; escape analysis cannot see that
// through the table's method and function calls, so the walk is given p
// as a pointer it does not follow (hidden).
func AppendStruct(b []byte, p unsafe.Pointer, c *StructCodec) ([]byte, error) {
	return appendStruct(b, hidden(p), c)
}

// hidden is p, copied as a number so that escape analysis does not
// follow it from p to the result. It is not inlined, so that the copy
// stays out of sight.
//
//go:noinline
func hidden(p unsafe.Pointer) (q unsafe.Pointer) {
	*(*uintptr)(unsafe.Pointer(&q)) = uintptr(p)
	return q
}

// appendStruct is AppendStruct.
func appendStruct(b []byte, p unsafe.Pointer, c *StructCodec) ([]byte, error) {
	start := len(b)
	var err error
	for i := range c.Fields {
		f := &c.Fields[i]
		if f.Append != nil {
			if b, err = f.Append(b, p); err != nil {
				return nil, err
			}
			continue
		}
		q := unsafe.Add(p, f.Offset)
		if omitted(f.Omit, q) {
			continue
		}
		b = append(b, f.Key...) // one copy of the growth code here, where the generated code had one per member
		if f.Value.Fill != "" && fillable(f.Value.Enc, q) {
			b = append(b, f.Value.Fill...)
			continue
		}
		if b, err = appendFieldValue(b, q, f.Value); err != nil {
			return nil, err
		}
	}
	if c.HasExtra {
		if extra := *(*map[string]json.RawMessage)(unsafe.Add(p, c.Extra)); len(extra) > 0 {
			known := func(name string) bool { return c.field(name) != nil }
			if b, err = appendMembers(b, extra, AppendRawJSON, known); err != nil {
				return nil, err
			}
		}
	}
	return EndJSONObject(b, start), nil
}

// omitted reports whether the value at q is left out by rule.
func omitted(rule OmitRule, q unsafe.Pointer) bool {
	switch rule {
	case OmitNil:
		return *(*unsafe.Pointer)(q) == nil
	case OmitEmpty:
		return (*struct {
			_   unsafe.Pointer
			len int
		})(q).len == 0
	case OmitFalse:
		return !*(*bool)(q)
	case OmitZeroInt:
		return *(*int64)(q) == 0
	case OmitZeroFloat:
		return *(*float64)(q) == 0
	}
	return false
}

// fillable reports whether the value at q, written as enc, is the empty
// value a Fill replaces: an empty string, or a nil list or map.
func fillable(enc EncodeKind, q unsafe.Pointer) bool {
	if enc == EncodeString {
		return *(*string)(q) == ""
	}
	return *(*unsafe.Pointer)(q) == nil
}

// appendFieldValue appends the value at q as c describes it.
func appendFieldValue(b []byte, q unsafe.Pointer, c *ValueCodec) ([]byte, error) {
	switch c.Enc {
	case EncodeString:
		return AppendJSONString(b, *(*string)(q)), nil
	case EncodeInt:
		return strconv.AppendInt(b, *(*int64)(q), 10), nil
	case EncodeFloat:
		return AppendJSONFloat(b, *(*float64)(q))
	case EncodeBool:
		return strconv.AppendBool(b, *(*bool)(q)), nil
	case EncodeRaw:
		return AppendRawJSON(b, *(*json.RawMessage)(q))
	case EncodeAppender:
		return pointerAt(c.Type, q).(JSONAppender).AppendJSON(b)
	case EncodePointer:
		e := *(*unsafe.Pointer)(q)
		if e == nil {
			return append(b, "null"...), nil
		}
		return appendFieldValue(b, e, c.Elem)
	case EncodeSlice:
		s := (*struct {
			data unsafe.Pointer
			len  int
		})(q)
		if s.data == nil {
			return append(b, "null"...), nil
		}
		b = append(b, '[')
		var err error
		for i := range s.len {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = appendFieldValue(b, unsafe.Add(s.data, uintptr(i)*c.Size), c.Elem); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	}
	return AppendJSONValue(b, heapCopy(c.Type, q))
}

// heapCopy is a pointer to a copy, on the heap, of the value at q, whose
// type typ (a nil *T) names. The walk may be reading a caller's stack
// (AppendStruct hides p), and a value handed to encoding/json can be kept
// by the error it returns (an UnsupportedValueError holds a reflect.Value
// of what it met), so the fallback encodes a copy that can outlive the
// walk. Generated tables never reach it: they give such a field an Append
// function, which passes the field's value.
func heapCopy(typ any, q unsafe.Pointer) any {
	v := reflect.New(reflect.TypeOf(typ).Elem())
	v.Elem().Set(reflect.ValueOf(pointerAt(typ, q)).Elem())
	return v.Interface()
}

// field is the field whose member is named name, or nil.
func (c *StructCodec) field(name string) *FieldCodec {
	for i := range c.Fields {
		if c.Fields[i].name() == name {
			return &c.Fields[i]
		}
	}
	return nil
}

// DecodeStruct decodes the JSON object b into the generated struct at p,
// described by c: the struct is set to its zero value, then each member
// a field names is read into it, every other one kept in Extra (or, for a
// struct without one, left out). b is checked as DecodeMembersChecked checks it (not
// again when checked is set). Generated UnmarshalJSON and
// UnmarshalCheckedJSON methods call it.
func DecodeStruct(b []byte, checked bool, p unsafe.Pointer, c *StructCodec) error {
	if c.Recurring && checked {
		return decodeRecurring(b, p, c)
	}
	return decodeStruct(b, checked, p, c)
}

// decodeStruct is DecodeStruct, without what a Recurring struct remembers.
func decodeStruct(b []byte, checked bool, p unsafe.Pointer, c *StructCodec) error {
	reflect.ValueOf(pointerAt(c.Type, p)).Elem().SetZero()
	extra, err := DecodeMembersChecked[json.RawMessage](b, checked, func(name, value []byte) (bool, error) {
		f := c.field(unsafe.String(unsafe.SliceData(name), len(name))) // a copy would be made for a long name
		if f == nil {
			return false, nil
		}
		return true, decodeFieldValue(value, unsafe.Add(p, f.Offset), f.Value)
	})
	if c.HasExtra {
		*(*map[string]json.RawMessage)(unsafe.Add(p, c.Extra)) = extra
	}
	return err
}

// decodeFieldValue reads value into the value at q as c describes it.
func decodeFieldValue(value []byte, q unsafe.Pointer, c *ValueCodec) error {
	if c.Decode != nil {
		return c.Decode(value, q)
	}
	switch c.Dec {
	case DecodeKindString:
		if s, ok := stringValue(value); ok {
			*(*string)(q) = s
			return nil
		}
	case DecodeKindBool:
		if x, ok := boolValue(value); ok {
			*(*bool)(q) = x
			return nil
		}
	case DecodeKindInt:
		if n, ok := intValue(value); ok {
			*(*int64)(q) = n
			return nil
		}
	case DecodeKindFloat:
		if f, ok := floatValue(value); ok {
			*(*float64)(q) = f
			return nil
		}
	case DecodeKindRaw:
		return DecodeCheckedRaw(value, (*json.RawMessage)(q))
	case DecodeKindRawMap:
		if m, ok := rawMapValue(value, *(*map[string]json.RawMessage)(q)); ok {
			*(*map[string]json.RawMessage)(q) = m
			return nil
		}
	case DecodeKindUnmarshaler:
		return decodeUnmarshaler(value, pointerAt(c.Type, q).(json.Unmarshaler))
	case DecodeKindPointer:
		return decodePointerAt(value, q, c)
	}
	return DecodeJSON(value, pointerAt(c.Type, q))
}

// decodePointerAt is DecodePointer for the pointer at q.
func decodePointerAt(value []byte, q unsafe.Pointer, c *ValueCodec) error {
	if string(value) == "null" {
		*(*unsafe.Pointer)(q) = nil
		return nil
	}
	if !jsonscan.Bare(value) {
		return DecodeJSON(value, pointerAt(c.Type, q))
	}
	x := reflect.New(reflect.TypeOf(c.Elem.Type).Elem()).UnsafePointer()
	if err := decodeFieldValue(value, x, c.Elem); err != nil {
		return err
	}
	*(*unsafe.Pointer)(q) = x
	return nil
}

// decodeRecurring is DecodeStruct for checked input of a Recurring struct:
// the same bytes as the value remembered give a copy of it, any other
// bytes are decoded, and remembered when the value can be copied
// (recallable). A copy is the value decoding the bytes gives, its raw
// members in a new allocation of their own, so that no two decodes share
// memory a caller may write to.
func decodeRecurring(b []byte, p unsafe.Pointer, c *StructCodec) error {
	if m := c.recalled.Load(); m != nil && bytes.Equal(m.raw, b) {
		c.recall(p, m.value)
		if c.misses.Load() != 0 {
			c.misses.Store(0)
		}
		return nil
	}
	if err := decodeStruct(b, true, p, c); err != nil {
		return err
	}
	if len(b) <= maxRecalledStruct && c.recallable(p) && (c.recalled.Load() == nil || c.misses.Add(1) > maxRecalledMisses) {
		v := reflect.New(reflect.TypeOf(c.Type).Elem())
		q := v.UnsafePointer()
		c.recall(q, pointerAt(c.Type, p))
		m := &recalledStruct{raw: bytes.Clone(b), value: v.Interface()}
		object := b[0] == '{' && jsonscan.Strict(b, membersMaxDepth) // null is remembered too
		if object {
			m.depth = jsonscan.Depth(b)
		}
		c.recalled.Store(m)
		if object {
			lastRecalled.Store(m)
		}
		c.misses.Store(0)
	}
	return nil
}

// recallable reports whether the struct at p, just decoded, can be
// remembered and copied: it holds nothing but strings, numbers, booleans
// and raw JSON (which recall copies), no Extra members and no pointer
// that is not nil.
func (c *StructCodec) recallable(p unsafe.Pointer) bool {
	if c.HasExtra && *(*map[string]json.RawMessage)(unsafe.Add(p, c.Extra)) != nil {
		return false
	}
	for i := range c.Fields {
		f := &c.Fields[i]
		if f.Value == nil || f.Value.Decode != nil {
			return false
		}
		switch f.Value.Dec {
		case DecodeKindString, DecodeKindBool, DecodeKindInt, DecodeKindFloat, DecodeKindRaw:
		case DecodeKindPointer:
			if *(*unsafe.Pointer)(unsafe.Add(p, f.Offset)) != nil {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// recall sets the struct at p to a copy of the recallable value from, a
// *T: its fields as they are, and its raw members copied into one new
// allocation.
func (c *StructCodec) recall(p unsafe.Pointer, from any) {
	reflect.ValueOf(pointerAt(c.Type, p)).Elem().Set(reflect.ValueOf(from).Elem())
	n := 0
	for i := range c.Fields {
		if f := &c.Fields[i]; f.Value.Dec == DecodeKindRaw {
			n += len(*(*json.RawMessage)(unsafe.Add(p, f.Offset)))
		}
	}
	if n == 0 {
		return
	}
	buf := make([]byte, 0, n)
	for i := range c.Fields {
		if f := &c.Fields[i]; f.Value.Dec == DecodeKindRaw {
			r := (*json.RawMessage)(unsafe.Add(p, f.Offset))
			if *r != nil {
				start := len(buf)
				buf = append(buf, *r...)
				*r = buf[start:len(buf):len(buf)]
			}
		}
	}
}
