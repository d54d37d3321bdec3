package rpc

import (
	"bytes"
	"errors"
)

// BatchCall is one element of a batch sent with Batch.
type BatchCall struct {
	// Method is the method to call.
	Method string
	// Params are the params; nil leaves them out.
	Params any
	// Notify sends the element as a notification: no response, no Err.
	Notify bool
	// Result, when non-nil, receives the decoded result.
	Result any
	// Err is set by Batch: nil on success, an *Error from the peer, or a
	// local error (decoding, closed connection).
	Err error
}

// encodeBatch renders calls as one array, giving each request an id from
// next. ids[i] is the zero ID for notifications.
func encodeBatch(calls []*BatchCall, next func() ID) ([]byte, []ID, error) {
	var buf bytes.Buffer
	ids := make([]ID, len(calls))
	buf.WriteByte('[')
	for i, call := range calls {
		if call == nil {
			return nil, nil, errors.New("rpc: nil batch element")
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		if !call.Notify {
			ids[i] = next()
		}
		b, err := encodeRequest(ids[i], call.Method, call.Params)
		if err != nil {
			return nil, nil, err
		}
		buf.Write(b)
	}
	buf.WriteByte(']')
	return buf.Bytes(), ids, nil
}

// DecodeJSON decodes b into v the way the runtime decodes params and
// results: a member name matches a field only when it is written exactly
// as in the field's tag (encoding/json would also take "Name" or "NAME" for
// "name"), and duplicate member names and invalid UTF-8 are errors. So the
// value a handler receives is the value the schema validated. Generated
// UnmarshalJSON methods (unions, tuples, types that keep unknown members)
// decode with it. A value whose type has its own UnmarshalJSON gets the
// method called directly once the input is checked.
//
// The decoder is the project's own (internal/jsondecode), held by tests to
// decode as github.com/go-json-experiment/json does with its default
// options: the same values, and errors that DecodeReason tells in the same
// words. It does not read the `format:` tag option (a struct with such a
// field cannot be decoded into) and never calls that library's
// UnmarshalJSONFrom method: a type with only that method decodes by its
// kind. json.Number takes a number, or a string holding one, on every Go
// release, as Go 1.27's encoding/json has it decode itself (the library
// took only strings before Go 1.27). Every error about the input is a
// *DecodeError.
func DecodeJSON(b []byte, v any) error {
	return decodeJSON(b, v)
}
