package jsondecode

import (
	"errors"
	"reflect"
	"strconv"
	"sync"
)

// decodeFunc decodes the next JSON value from d into v, which is
// addressable; o carries the options of the struct field v is, if any.
type decodeFunc func(d *decoder, v reflect.Value, o fieldOpts) error

// fieldOpts are the options of a struct field's tag that apply to its
// value.
type fieldOpts struct {
	stringTag bool // `string`: numbers are read from JSON strings
}

// decoder is the state of one Unmarshal.
type decoder struct {
	reader
}

// errNonNilReference is the cause of the error for a target that is not a
// non-nil pointer.
var errNonNilReference = errors.New("value must be passed as a non-nil pointer reference")

// decoders caches the decodeFunc of each type.
var decoders sync.Map // reflect.Type → decodeFunc

var decoderPool = sync.Pool{New: func() any { return new(decoder) }}

// Unmarshal decodes the JSON text data into the value v points to. See the
// package documentation for the rules; every error is an *Error.
func Unmarshal(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{GoType: reflect.TypeOf(v), Err: errNonNilReference}
	}
	d := decoderPool.Get().(*decoder)
	d.init(data)
	err := decoderFor(rv.Type().Elem())(d, rv.Elem(), fieldOpts{})
	if err == nil {
		err = d.end()
	}
	d.release()
	if err != nil {
		return err
	}
	return nil
}

// release returns d to the pool without what it points into.
func (d *decoder) release() {
	levels := d.st[:cap(d.st)]
	for i := range levels {
		levels[i].name = nil
	}
	for i := range d.names {
		d.names[i].set = nil // the names of a large object are not kept
	}
	if cap(d.st) > maxKeptLevels {
		d.st, d.names = nil, nil // a deep input's stack is not kept for the next one
	}
	d.data, d.peekErr, d.peekPos, d.prev, d.prevStart = nil, nil, 0, 0, 0
	decoderPool.Put(d)
}

// decoderFor returns the decodeFunc of t, built once.
func decoderFor(t reflect.Type) decodeFunc {
	if f, ok := decoders.Load(t); ok {
		return f.(decodeFunc)
	}
	f, _ := decoders.LoadOrStore(t, makeDecoder(t))
	return f.(decodeFunc)
}

// lazyDecoder is the decodeFunc of a type looked up on first use, so that
// recursive types can be built.
type lazyDecoder struct {
	once sync.Once
	t    reflect.Type
	f    decodeFunc
}

func newLazy(t reflect.Type) *lazyDecoder { return &lazyDecoder{t: t} }

func (l *lazyDecoder) get() decodeFunc {
	l.once.Do(func() { l.f = decoderFor(l.t) })
	return l.f
}

// makeDecoder builds the decodeFunc of t: the type's own methods first,
// then the special types, then its kind's.
func makeDecoder(t reflect.Type) decodeFunc {
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		switch t {
		case timeType:
			return decodeTime
		case durationType:
			return decodeDuration
		case numberType:
			return decodeNumber
		}
		if implements(t, jsonUnmarshalerType) {
			return decodeWithUnmarshalJSON
		}
		if implements(t, textUnmarshalerType) {
			return decodeWithUnmarshalText
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return decodeBool
	case reflect.String:
		return decodeString
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return decodeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return decodeUint
	case reflect.Float32, reflect.Float64:
		return decodeFloat
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "" {
			return decodeBytes
		}
		return makeSliceDecoder(t)
	case reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "" {
			return decodeBytes
		}
		return makeArrayDecoder(t)
	case reflect.Map:
		return makeMapDecoder(t)
	case reflect.Struct:
		return makeStructDecoder(t)
	case reflect.Pointer:
		return makePointerDecoder(t)
	case reflect.Interface:
		return decodeInterface
	}
	return decodeUnsupported
}

// implements reports whether t or *t implements iface.
func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || reflect.PointerTo(t).Implements(iface)
}

// errorAfter is the error about the value just read, of type t, with
// cause err.
func (d *decoder) errorAfter(t reflect.Type, err error) *Error {
	k := Kind(0)
	if d.prevStart < len(d.data) {
		k = kindOf(d.data[d.prevStart])
	}
	e := &Error{Pointer: d.pointer(-1), Offset: int64(d.prevStart), Kind: k, GoType: t, Err: err}
	if (err == strconv.ErrSyntax || err == strconv.ErrRange) && d.prev-d.prevStart < maxQuoted {
		e.value = string(d.data[d.prevStart:d.prev])
	}
	return e
}

// maxKeptLevels bounds the nesting levels a pooled decoder keeps room for.
const maxKeptLevels = 64

// maxQuoted bounds the value an Error quotes.
const maxQuoted = 100

// errorBefore is the error about the next value, not read, which cannot
// go into a value of type t, with cause err.
func (d *decoder) errorBefore(t reflect.Type, err error) *Error {
	d.peek()
	pos := d.peekPos
	if pos == 0 {
		pos = d.prev
	}
	return &Error{Pointer: d.pointer(+1), Offset: int64(pos), GoType: t, Err: err}
}

// begin reads the start of the next value for v, of type t, which takes
// JSON of one kind, want: a string ('"', read whole, its text in val) or
// an object or array ('{' or '[', its opening token read). A `string` tag
// is refused, null stores the zero value, and any other kind is an error
// about the value read. more reports that a value of kind want was read
// and is to be decoded.
func (d *decoder) begin(v reflect.Value, t reflect.Type, o fieldOpts, want Kind) (val []byte, more bool, err error) {
	if o.stringTag {
		return nil, false, d.errorBefore(t, errInvalidStringTag)
	}
	var k Kind
	if want == '"' {
		k, val, err = d.readValue()
	} else {
		k, _, err = d.readToken()
	}
	switch {
	case err != nil:
		return nil, false, err
	case k == 'n':
		v.SetZero()
		return nil, false, nil
	case k != want:
		return nil, false, d.errorAfter(t, nil)
	}
	return val, true, nil
}

// decodeUnsupported refuses every value: the type (a channel, a function)
// has no JSON form.
func decodeUnsupported(d *decoder, v reflect.Value, _ fieldOpts) error {
	return d.errorBefore(v.Type(), nil)
}
