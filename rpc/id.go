package rpc

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
)

// ID identifies a request. It keeps the exact bytes the peer sent, so ids such
// as 9007199254740993, 1e3, -0 or "\u00e9" are answered byte for byte, never
// rounded or re-escaped. The zero ID is "no id" (a notification); an id of
// JSON null is a distinct, valid id.
//
// IDs are comparable and can be used as map keys.
type ID struct {
	raw string
}

// Int64ID returns the numeric id n.
func Int64ID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// StringID returns the string id s.
func StringID(s string) ID {
	b, _ := json.Marshal(s) // marshalling a string cannot fail
	return ID{raw: string(b)}
}

// NullID returns the id null, used in error responses to requests whose id
// could not be read.
func NullID() ID { return ID{raw: "null"} }

// IsZero reports whether the id is absent (the message is a notification).
func (id ID) IsZero() bool { return id.raw == "" }

// IsNull reports whether the id is JSON null.
func (id ID) IsNull() bool { return id.raw == "null" }

// Raw returns the id's JSON bytes as received; nil for the zero ID.
func (id ID) Raw() json.RawMessage {
	if id.raw == "" {
		return nil
	}
	return json.RawMessage(id.raw)
}

// String returns the id's JSON text, or "" for the zero ID.
func (id ID) String() string { return id.raw }

// MarshalJSON writes the id's bytes unchanged; the zero ID is written as null.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON accepts a JSON string, number or null and keeps its bytes.
func (id *ID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if !validIDBytes(b) {
		return errors.New("rpc: an id must be a JSON string, number or null")
	}
	id.raw = string(b)
	return nil
}

// validIDBytes reports whether b is one JSON string, number or null.
func validIDBytes(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	switch c := b[0]; {
	case c == '"', c == '-', c >= '0' && c <= '9':
	case c == 'n':
		return string(b) == "null"
	default:
		return false
	}
	v, err := parse(b, DefaultMaxDepth)
	if err != nil {
		return false
	}
	switch v.(type) {
	case string, json.Number:
		return true
	}
	return false
}
