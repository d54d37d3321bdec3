// Package jsondecode decodes JSON into Go values by reflection, strictly:
// it is the decoder behind rpc.DecodeJSON.
//
// # The contract
//
// Unmarshal decodes exactly as github.com/go-json-experiment/json's
// Unmarshal does with its default options, which stays the oracle (the
// differential tests and the fuzz target of rpc hold the two together):
// for every input and every Go type the two either both succeed with
// equal values, or both fail with errors that rpc.DecodeReason tells in
// the same words. What a value holds after a failed decode may differ.
//
// The rules, in short: the input is one JSON value with only whitespace
// around it, in valid UTF-8, without lone surrogate escapes, repeated
// member names or nesting deeper than 10000; member names match field
// names exactly (case included) unless the field says `case:ignore`;
// unknown members are skipped, or kept in an embedded map of string keys
// (`json:",embed"`); null sets the zero value (a json.Unmarshaler is
// handed it); objects are merged into existing structs and maps (a
// member's value into the map's value of its key), while slices and
// arrays are replaced; numbers must fit their Go type, and integers must
// be written as integers (in a string for a `string` field or a map key);
// []byte and [N]byte take padded standard base64; time.Time takes RFC
// 3339; json.Number takes a number, or a string holding one, as Go 1.27's
// encoding/json has it decode itself; json.Unmarshaler and
// encoding.TextUnmarshaler are called with the value (a TextUnmarshaler
// only with strings); an `any` takes map[string]any, []any, float64,
// string, bool or nil.
//
// # What it refuses
//
//   - The `format:` tag option: a struct with such a field cannot be
//     decoded into, as the oracle refuses it with its default options.
//   - A field name in a tag written in single quotes or with a backslash
//     (the oracle's quoted names): the struct cannot be decoded into.
//   - time.Duration has no default form, as in the oracle: decoding into
//     one is always an error.
//   - The oracle's own interfaces (UnmarshalJSONFrom) are not called: a
//     type with only that method decodes by its kind.
//
// # Errors
//
// Every error is an *Error, with the JSON Pointer of the value, the byte
// offset, the JSON kind found and the Go type expected. Syntax errors are
// found in the order the oracle finds them: a value that cannot be stored
// stops the decode even when the text after it is not valid.
package jsondecode
