package jsondecode

import (
	"encoding"
	"encoding/json"
	"errors"
	"reflect"
	"time"
)

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
	numberType          = reflect.TypeFor[json.Number]()
)

// methodTypes are the interfaces through which a type reads or writes
// itself.
var methodTypes = []reflect.Type{
	jsonUnmarshalerType, textUnmarshalerType,
	reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler](), reflect.TypeFor[encoding.TextAppender](),
}

// errNonStringValue is the cause of the error for a value other than a
// string or null given to a type with UnmarshalText.
var errNonStringValue = errors.New("JSON value must be string type")

// decodeWithUnmarshalJSON hands the next value, checked and without the
// whitespace around it, to the type's UnmarshalJSON. An *Error the method
// returns for a value it decodes itself is placed inside this one.
func decodeWithUnmarshalJSON(d *decoder, v reflect.Value, _ fieldOpts) error {
	_, val, err := d.readValue()
	if err != nil {
		return err
	}
	u := v.Addr().Interface().(json.Unmarshaler)
	if err := u.UnmarshalJSON(val); err != nil {
		return methodError(d, v.Type(), err)
	}
	return nil
}

// methodError is the error about the value just read, of type t, whose
// UnmarshalJSON failed with err.
func methodError(d *decoder, t reflect.Type, err error) error {
	if errors.Is(err, errors.ErrUnsupported) {
		err = errors.New("UnmarshalJSON method may not return errors.ErrUnsupported")
	}
	return collapse(d.errorAfter(t, err))
}

// collapse merges an error about a value inside the one e is about into
// e: its pointer and offset are relative to that value.
func collapse(e *Error) error {
	inner, ok := e.Err.(*Error)
	if !ok || inner.Syntactic() {
		return e
	}
	merged := *inner
	merged.Pointer = e.Pointer + inner.Pointer
	merged.Offset = e.Offset + inner.Offset
	return &merged
}

// decodeWithUnmarshalText hands the next value, a string, decoded, to the
// type's UnmarshalText; null sets the zero value.
func decodeWithUnmarshalText(d *decoder, v reflect.Value, _ fieldOpts) error {
	k, val, err := d.readValue()
	if err != nil {
		return err
	}
	switch k {
	case 'n':
		v.SetZero()
		return nil
	case '"':
	default:
		return d.errorAfter(v.Type(), errNonStringValue)
	}
	u := v.Addr().Interface().(encoding.TextUnmarshaler)
	if err := u.UnmarshalText(unquote(val)); err != nil {
		if errors.Is(err, errors.ErrUnsupported) {
			err = errors.New("UnmarshalText method may not return errors.ErrUnsupported")
		}
		if _, ok := err.(*Error); ok {
			return err
		}
		return d.errorAfter(v.Type(), err)
	}
	return nil
}

// errNoDurationFormat is the cause of the error for any value but null
// given to a time.Duration: it has no default JSON form.
var errNoDurationFormat = errors.New("no default representation")

func decodeDuration(d *decoder, v reflect.Value, o fieldOpts) error {
	return d.errorBefore(v.Type(), errNoDurationFormat)
}

// decodeTime decodes an RFC 3339 timestamp into a time.Time; null sets
// the zero time.
func decodeTime(d *decoder, v reflect.Value, o fieldOpts) error {
	val, more, err := d.begin(v, v.Type(), o, '"')
	if !more {
		return err
	}
	s := unquote(val)
	var t time.Time
	if err := t.UnmarshalText(s); err != nil {
		return d.errorAfter(v.Type(), err)
	}
	if err := strictRFC3339(s); err != nil {
		return d.errorAfter(v.Type(), err)
	}
	v.Set(reflect.ValueOf(t))
	return nil
}

// strictRFC3339 refuses what time.Time.UnmarshalText accepts but RFC 3339
// does not: a one-digit hour, a comma before the fraction, a time zone
// offset out of range. b has been parsed.
func strictRFC3339(b []byte) error {
	parseError := func(elem, value, message string) error {
		return &time.ParseError{Layout: time.RFC3339, Value: string(b), LayoutElem: elem, ValueElem: value, Message: message}
	}
	switch {
	case b[len("2006-01-02T")+1] == ':':
		return parseError("15", string(b[len("2006-01-02T"):][:1]), "")
	case b[len("2006-01-02T15:04:05")] == ',':
		return parseError(".", ",", "")
	case b[len(b)-1] != 'Z':
		switch {
		case dec2(b[len(b)-len("07:00"):]) >= 24:
			return parseError("Z07:00", string(b[len(b)-len("Z07:00"):]), ": timezone hour out of range")
		case dec2(b[len(b)-len("00"):]) >= 60:
			return parseError("Z07:00", string(b[len(b)-len("Z07:00"):]), ": timezone minute out of range")
		}
	}
	return nil
}

// dec2 is the two-digit number b starts with (b has been parsed).
func dec2(b []byte) byte {
	if len(b) < 2 {
		return 0
	}
	return 10*(b[0]-'0') + (b[1] - '0')
}
