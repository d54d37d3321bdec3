package jsondecode

import (
	"reflect"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// Place places an *Error from decoding a value inside a larger one at
// that value: token (a member name or an array index) is put in front of
// its pointer and offset, where the value starts in the larger one, is
// added to its byte offset. Other errors are returned as they are.
func Place(err error, token string, offset int) error {
	if e, ok := err.(*Error); ok {
		e.Pointer = string(appendToken(nil, token)) + e.Pointer
		e.Offset += int64(offset)
	}
	return err
}

// MethodError is the error Unmarshal returns when the UnmarshalJSON method
// of a value of type t fails with err on the whole input data (valid,
// maybe with whitespace around it): err placed at the value, or merged
// into it when err is itself an *Error about a value inside.
func MethodError(data []byte, t reflect.Type, err error) error {
	var d decoder
	d.init(data)
	if _, _, rerr := d.readValue(); rerr != nil {
		return rerr // cannot happen: data is valid
	}
	return methodError(&d, t, err)
}

// CheckValue checks the first JSON value of data, with whitespace before
// it, as Unmarshal reads a value whole, and returns the error about its
// first fault; nil when it is valid, whatever follows it.
func CheckValue(data []byte) error {
	if jsonscan.StrictEnd(data, jsonscan.SkipSpace(data, 0), 1, maxDepth) > 0 {
		return nil
	}
	var d decoder
	d.init(data)
	_, _, err := d.readValue()
	return err
}
