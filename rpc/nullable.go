package rpc

import (
	"bytes"
	"encoding/json"
)

// Nullable is a value that may be absent, present as JSON null, or present
// with a value: the three states of an optional property whose schema also
// allows null. Generated code uses it for such properties, with the
// omitzero option, so that absent stays absent and null stays null when a
// value is decoded and encoded again.
//
// The zero Nullable is absent. [Null] and [Some] build the other two states.
type Nullable[T any] struct {
	// Value is the value when Valid is true, and T's zero value otherwise.
	Value T
	// Valid is true when the value is present and not null.
	Valid bool
	// Set is true when the value is present, null or not.
	Set bool
}

// Null returns a Nullable that is present and null.
func Null[T any]() Nullable[T] { return Nullable[T]{Set: true} }

// Some returns a Nullable that is present and holds v.
func Some[T any](v T) Nullable[T] { return Nullable[T]{Value: v, Valid: true, Set: true} }

// IsZero reports whether n is absent; with the omitzero option,
// encoding/json leaves an absent Nullable out of the enclosing object.
func (n Nullable[T]) IsZero() bool { return !n.Set }

// IsNull reports whether n is present and null.
func (n Nullable[T]) IsNull() bool { return n.Set && !n.Valid }

// Get returns the value and whether there is one (present and not null).
func (n Nullable[T]) Get() (T, bool) { return n.Value, n.Valid }

// MarshalJSON writes the value, or null when there is none. An absent
// Nullable is also written as null; the omitzero option keeps it out of an
// object altogether.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// UnmarshalJSON reads null or a value; either way n is then present.
// encoding/json does not call it for an absent object member, which leaves
// n absent.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = Some(v)
	return nil
}
