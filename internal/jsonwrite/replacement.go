package jsonwrite

import "bytes"

// replacementEscape is how this package and encoding/json up to Go 1.26
// write the U+FFFD that stands for invalid UTF-8 in a string.
const replacementEscape = `\ufffd`

// UnescapeReplacement returns the JSON text b with every \ufffd escape
// written as the character U+FFFD itself, other escapes left as they are.
// encoding/json writes invalid UTF-8 in a string as U+FFFD: up to Go 1.26 as
// the escape, as this package does, from Go 1.27 as the character. The
// tests that hold this package and the generated AppendJSON methods to
// encoding/json compare both sides through it, so that they hold on both
// releases.
func UnescapeReplacement(b []byte) []byte {
	if !bytes.Contains(b, []byte(replacementEscape)) {
		return b
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] != '\\' || i+1 == len(b):
			out = append(out, b[i])
		case bytes.HasPrefix(b[i:], []byte(replacementEscape)):
			out = append(out, "\ufffd"...)
			i += len(replacementEscape) - 1
		default: // another escape: both of its first bytes, so \\ stays whole
			out = append(out, b[i], b[i+1])
			i++
		}
	}
	return out
}
