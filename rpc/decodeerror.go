package rpc

import "github.com/schemarpc/schemarpc/internal/jsondecode"

// DecodeError is the error DecodeJSON (and DecodeMembers, the Decode*
// readers and generated UnmarshalJSON methods) return about input they
// cannot decode. Pointer is the JSON Pointer of the value ("" for the
// whole input; for a repeated member name, the member), Offset the byte
// offset of the fault, Kind the JSON kind found (0 for a syntax error),
// GoType the Go type that could not take the value, and Err the cause:
// for a syntax error a *DecodeSyntaxError or ErrDuplicateMemberName
// (Syntactic reports which kind of error it is), otherwise an error of
// the value's UnmarshalJSON or UnmarshalText, a detail such as
// strconv.ErrRange, or nil. DecodeReason tells it in JSON's words.
type DecodeError = jsondecode.Error

// DecodeSyntaxError is the Err of a DecodeError about text that is not
// valid JSON; What says what was found, in a few words.
type DecodeSyntaxError = jsondecode.SyntaxError

// ErrDuplicateMemberName is the Err of a DecodeError about an object that
// repeats a member name; the error's Pointer is that member's.
var ErrDuplicateMemberName = jsondecode.ErrDuplicateName
