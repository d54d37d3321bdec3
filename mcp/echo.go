package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/rpc"
)

// Error answers often quote what the client sent (an unknown resource URI,
// tool or prompt name, method, version): a client that sends megabytes
// would get them back, and, over Streamable HTTP, have them kept in the
// event store. Every error the server answers a client request with passes
// through boundError, the one place that keeps such echoes short.

// maxErrorEcho bounds the message of an error the server answers with, and
// each string in its data: longer text is cut at this many bytes and ends
// with a marker saying how much was cut ("…[123 bytes cut]").
const maxErrorEcho = 1024

// maxErrorData bounds the whole of an error's data once its strings are
// cut; data still longer (many short strings) is replaced by the marker.
const maxErrorData = 8 * maxErrorEcho

// boundError returns err with the message, and the strings in the data, of
// its *rpc.Error cut to maxErrorEcho bytes. An error within the bounds, or
// without an *rpc.Error, is returned as it is. It is applied once per
// answer: a cut text ends with its marker, past the bound, and a second cut
// would count the marker instead of the input.
func boundError(err error) error {
	var e *rpc.Error
	if err == nil || !errors.As(err, &e) || e == nil || (len(e.Message) <= maxErrorEcho && len(e.Data) <= maxErrorEcho) {
		return err
	}
	cut := *e
	cut.Message = clipText(e.Message, maxErrorEcho)
	if len(e.Data) > maxErrorEcho {
		cut.Data = clipData(e.Data)
	}
	return &cut
}

// clipText cuts s to at most n bytes, at a character boundary, and marks
// the cut.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	end := n
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…[" + strconv.Itoa(len(s)-end) + " bytes cut]"
}

// clipData cuts the long strings of an error's data; data that stays over
// maxErrorData, or is not JSON, becomes one marker string.
func clipData(data json.RawMessage) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) == nil {
		if b, err := json.Marshal(clipStrings(v)); err == nil && len(b) <= maxErrorData {
			return b
		}
	}
	b, _ := json.Marshal("…[" + strconv.Itoa(len(data)) + " bytes cut]")
	return b
}

// clipStrings cuts every string in a decoded JSON value, member names
// included.
func clipStrings(v any) any {
	switch x := v.(type) {
	case string:
		return clipText(x, maxErrorEcho)
	case []any:
		for i := range x {
			x[i] = clipStrings(x[i])
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, el := range x {
			out[clipText(k, maxErrorEcho)] = clipStrings(el)
		}
		return out
	}
	return v
}
