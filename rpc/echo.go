package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"
)

// Error answers often quote what the peer sent: an unknown method or
// member name, a resource URI, a tool name, a version. A peer that sends
// megabytes would get them back, and a server that stores its answers
// (an MCP event store) would keep them. Every error response this package
// encodes therefore passes through BoundError, the one place that keeps
// such echoes short; code that encodes error responses of its own calls it
// too.

// maxErrorEcho bounds the message of an error answer, and each string in
// its data: a longer text is cut at this many bytes and ends with a marker
// saying how much was cut ("…[123 bytes cut]").
const maxErrorEcho = 1024

// markerRoom is the most a cut marker adds: "…[", up to 20 digits and
// " bytes cut]". A text at most maxErrorEcho+markerRoom long is never cut,
// so that cutting twice changes nothing (a cut text ends with its marker,
// past maxErrorEcho, and a second cut would count the marker instead of the
// input).
const markerRoom = len("…[") + 20 + len(" bytes cut]")

// maxErrorData bounds the whole of an error's data once its strings are
// cut; data still longer (many short strings) is replaced by the marker.
const maxErrorData = 8 * maxErrorEcho

// BoundError returns err with the message, and the strings in the data, of
// its *Error cut to about a kilobyte each, the whole data to 8 KiB, each
// cut marked with how many bytes it removed. An error within the bounds,
// or one that holds no *Error, is returned as it is, and a bounded error is
// within the bounds: applying BoundError twice is applying it once.
func BoundError(err error) error {
	if err == nil {
		// Apart, so that a call without an error (nearly every call) does
		// not pay for e, which escapes through errors.As.
		return nil
	}
	return boundError(err)
}

// boundError is BoundError of an error that is not nil.
func boundError(err error) error {
	var e *Error
	if !errors.As(err, &e) || e == nil {
		return err
	}
	if b := e.bounded(); b != e {
		return b
	}
	return err
}

// bounded is e, or a copy of e with its echoes cut (see BoundError).
func (e *Error) bounded() *Error {
	longMessage := len(e.Message) > maxErrorEcho+markerRoom
	if !longMessage && len(e.Data) <= maxErrorEcho {
		return e
	}
	data, dataCut := clipData(e.Data)
	if !longMessage && !dataCut {
		return e
	}
	cut := *e
	cut.Message = clipText(e.Message)
	cut.Data = data
	return &cut
}

// clipText cuts s to maxErrorEcho bytes, at a character boundary, and marks
// the cut; a text within maxErrorEcho+markerRoom is left whole.
func clipText(s string) string {
	if len(s) <= maxErrorEcho+markerRoom {
		return s
	}
	end := maxErrorEcho
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + cutMarker(len(s)-end)
}

// cutMarker is the marker that ends a text n bytes were cut from.
func cutMarker(n int) string {
	return "…[" + strconv.Itoa(n) + " bytes cut]"
}

// clipData cuts the long strings of an error's data, and reports whether it
// changed anything. Data that stays over maxErrorData, or is not JSON,
// becomes one marker string; data with nothing to cut is returned as it
// is, its member order and spacing kept.
func clipData(data json.RawMessage) (json.RawMessage, bool) {
	if len(data) <= maxErrorEcho {
		return data, false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		out, cut := clipStrings(v)
		if !cut && len(data) <= maxErrorData {
			return data, false
		}
		if b, err := json.Marshal(out); err == nil && len(b) <= maxErrorData {
			return b, true
		}
	}
	b, _ := json.Marshal(cutMarker(len(data)))
	return b, true
}

// clipStrings cuts every string in a decoded JSON value, member names
// included, and reports whether any was cut.
func clipStrings(v any) (any, bool) {
	switch x := v.(type) {
	case string:
		c := clipText(x)
		return c, len(c) != len(x)
	case []any:
		cutAny := false
		for i := range x {
			var cut bool
			x[i], cut = clipStrings(x[i])
			cutAny = cutAny || cut
		}
		return x, cutAny
	case map[string]any:
		out := make(map[string]any, len(x))
		changed := false
		for k, el := range x {
			ck := clipText(k)
			cv, cut := clipStrings(el)
			out[ck] = cv
			changed = changed || cut || len(ck) != len(k)
		}
		return out, changed
	}
	return v, false
}
