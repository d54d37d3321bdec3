// Package jsonwrite appends JSON values to a byte slice with exactly the
// output of encoding/json's Encoder with SetEscapeHTML(false): the same
// string escapes, the same number formats and the same checks, so that code
// which writes JSON piece by piece produces the bytes encoding/json would.
// (Invalid UTF-8 becomes U+FFFD, written as the escape \ufffd as Go 1.26
// writes it; Go 1.27 writes the character itself. Both are the same JSON;
// see UnescapeReplacement.)
// Its functions never allocate beyond growing the slice they append to.
//
// The generated AppendJSON methods reach it through the rpc package, which
// generated code outside this module can import.
package jsonwrite
