package jsondecode

import (
	"errors"
	"reflect"
	"strconv"
)

// The errors about arrays of the wrong length.
var (
	errArrayUnderflow = errors.New("too few array elements")
	errArrayOverflow  = errors.New("too many array elements")
)

func makeSliceDecoder(t reflect.Type) decodeFunc {
	elem := newLazy(t.Elem())
	empty := reflect.MakeSlice(t, 0, 0)
	return func(d *decoder, v reflect.Value, o fieldOpts) error {
		_, more, err := d.begin(v, t, o, '[')
		if !more {
			return err
		}
		decode := elem.get()
		n := v.Cap()
		if n > 0 {
			v.SetLen(n)
		}
		i := 0
		for {
			if k, _ := d.peek(); k == ']' {
				break // a fault in the text is met by the element's read
			}
			if i == n {
				v.Grow(1)
				n = v.Cap()
				v.SetLen(n)
			}
			e := v.Index(i)
			i++
			e.SetZero()
			if err := decode(d, e, fieldOpts{}); err != nil {
				v.SetLen(i)
				return err
			}
		}
		if i == 0 {
			v.Set(empty)
		} else {
			v.SetLen(i)
		}
		_, _, err = d.readToken()
		return err
	}
}

func makeArrayDecoder(t reflect.Type) decodeFunc {
	elem := newLazy(t.Elem())
	n := t.Len()
	return func(d *decoder, v reflect.Value, o fieldOpts) error {
		_, more, err := d.begin(v, t, o, '[')
		if !more {
			return err
		}
		decode := elem.get()
		var length error
		i := 0
		for {
			if k, _ := d.peek(); k == ']' {
				break
			}
			if i >= n {
				if err := d.skipValue(); err != nil {
					return err
				}
				length = errArrayOverflow
				continue
			}
			e := v.Index(i)
			e.SetZero()
			if err := decode(d, e, fieldOpts{}); err != nil {
				return err
			}
			i++
		}
		for ; i < n; i++ {
			v.Index(i).SetZero()
			length = errArrayUnderflow
		}
		if _, _, err := d.readToken(); err != nil {
			return err
		}
		if length != nil {
			return d.errorAfter(t, length)
		}
		return nil
	}
}

func makePointerDecoder(t reflect.Type) decodeFunc {
	elem := newLazy(t.Elem())
	return func(d *decoder, v reflect.Value, o fieldOpts) error {
		if k, _ := d.peek(); k == 'n' {
			if _, _, err := d.readToken(); err != nil {
				return err
			}
			v.SetZero()
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		return elem.get()(d, v.Elem(), o)
	}
}

// mapKeyUnique reports whether different member names always give
// different keys of kind k, read by the kind's rules, so that the map's
// own keys find repeated names.
func mapKeyUnique(k reflect.Kind) bool {
	switch k {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

func makeMapDecoder(t reflect.Type) decodeFunc {
	key, elem := newLazy(t.Key()), newLazy(t.Elem())
	uniqueKeys := mapKeyUnique(t.Key().Kind()) && !hasMethods(t.Key()) && t.Key() != durationType
	return func(d *decoder, v reflect.Value, o fieldOpts) error {
		_, more, err := d.begin(v, t, o, '{')
		if !more {
			return err
		}
		if v.IsNil() {
			v.Set(reflect.MakeMap(t))
		}
		if uniqueKeys {
			d.ownNames() // equal keys are equal names
		}
		decodeKey, decodeElem := key.get(), elem.get()
		kv, ev := reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()
		var seen reflect.Value
		if v.Len() > 0 {
			seen = reflect.MakeMap(reflect.MapOf(t.Key(), reflect.TypeFor[struct{}]()))
		}
		for {
			if k, _ := d.peek(); k == '}' {
				break
			}
			kv.SetZero()
			if err := decodeKey(d, kv, fieldOpts{}); err != nil {
				return err
			}
			if old := v.MapIndex(kv); old.IsValid() {
				if !seen.IsValid() || seen.MapIndex(kv).IsValid() {
					return &Error{Pointer: d.pointer(-1), Offset: int64(d.prevStart), Err: ErrDuplicateName}
				}
				ev.Set(old)
			} else {
				ev.SetZero()
			}
			err = decodeElem(d, ev, fieldOpts{})
			v.SetMapIndex(kv, ev)
			if seen.IsValid() {
				seen.SetMapIndex(kv, reflect.ValueOf(struct{}{}))
			}
			if err != nil {
				return err
			}
		}
		_, _, err = d.readToken()
		return err
	}
}

// errNilInterface is the cause of the error for a nil interface with
// methods, whose concrete type cannot be known.
var errNilInterface = errors.New("cannot derive concrete type for nil interface with finite type set")

var anyType = reflect.TypeFor[any]()

func decodeInterface(d *decoder, v reflect.Value, o fieldOpts) error {
	t := v.Type()
	if o.stringTag {
		return d.errorBefore(t, errInvalidStringTag)
	}
	k, _ := d.peek() // a fault in the text is met by the value's read
	if k == 'n' {
		if _, _, err := d.readToken(); err != nil {
			return err
		}
		v.SetZero()
		return nil
	}
	if v.IsNil() {
		if t == anyType {
			x, err := d.anyValue()
			if x != nil {
				v.Set(reflect.ValueOf(x))
			}
			return err
		}
		if t.NumMethod() > 0 {
			return d.errorBefore(t, errNilInterface)
		}
		return d.decodeNewAny(v, k)
	}
	x := reflect.New(v.Elem().Type()).Elem()
	x.Set(v.Elem())
	err := decoderFor(x.Type())(d, x, fieldOpts{})
	v.Set(x)
	return err
}

// decodeNewAny decodes into v, a nil interface that any value satisfies
// without being any itself, a value of the type the JSON kind k gives.
func (d *decoder) decodeNewAny(v reflect.Value, k Kind) error {
	var t reflect.Type
	switch k {
	case 't', 'f':
		t = reflect.TypeFor[bool]()
	case '"':
		t = reflect.TypeFor[string]()
	case '0':
		t = reflect.TypeFor[float64]()
	case '{':
		t = reflect.TypeFor[map[string]any]()
	case '[':
		t = reflect.TypeFor[[]any]()
	default:
		_, _, err := d.readValue()
		return err
	}
	x := reflect.New(t).Elem()
	err := decoderFor(t)(d, x, fieldOpts{})
	v.Set(x)
	return err
}

// anyValue decodes the next value as an any: map[string]any, []any,
// float64, string, bool or nil.
func (d *decoder) anyValue() (any, error) {
	k, err := d.peek()
	if err != nil {
		return nil, err
	}
	switch k {
	case '{':
		return d.anyObject()
	case '[':
		return d.anyArray()
	}
	k, val, err := d.readValue()
	if err != nil {
		return nil, err
	}
	switch k {
	case 'n':
		return nil, nil
	case 'f':
		return false, nil
	case 't':
		return true, nil
	case '"':
		return Intern(unquote(val)), nil
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil {
		return f, d.errorAfter(float64Type, errors.Unwrap(err))
	}
	return f, nil
}

var float64Type = reflect.TypeFor[float64]()

func (d *decoder) anyObject() (map[string]any, error) {
	if _, _, err := d.readToken(); err != nil {
		return nil, err
	}
	obj := make(map[string]any)
	for {
		if k, _ := d.peek(); k == '}' {
			break
		}
		_, name, err := d.readToken()
		if err != nil {
			return obj, err
		}
		key := Intern(unquote(name))
		x, err := d.anyValue()
		obj[key] = x
		if err != nil {
			return obj, err
		}
	}
	_, _, err := d.readToken()
	return obj, err
}

func (d *decoder) anyArray() ([]any, error) {
	if _, _, err := d.readToken(); err != nil {
		return nil, err
	}
	arr := []any{}
	for {
		if k, _ := d.peek(); k == ']' {
			break
		}
		x, err := d.anyValue()
		arr = append(arr, x)
		if err != nil {
			return arr, err
		}
	}
	_, _, err := d.readToken()
	return arr, err
}
