package jsondecode

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Error is why Unmarshal could not decode its input: the text is not JSON
// it reads (a syntax error: Err is a *SyntaxError or ErrDuplicateName), or
// a value could not be stored in the Go value at Pointer.
type Error struct {
	// Pointer is the JSON Pointer (RFC 6901) of the value, or of the
	// member for a repeated name; "" for the whole input.
	Pointer string
	// Offset is the byte offset in the input at which the fault was found.
	Offset int64
	// Kind is the kind of JSON value found, or 0 when none was read.
	Kind Kind
	// GoType is the Go type that could not take the value; nil for a
	// syntax error.
	GoType reflect.Type
	// Err is the cause: a *SyntaxError, ErrDuplicateName, an error of a
	// method of the Go value, a detail such as strconv.ErrRange, or nil.
	Err error

	value string // the number or string that does not fit, for Error
}

// ErrDuplicateName is the cause of an Error about an object whose member
// name repeats an earlier one.
var ErrDuplicateName = errors.New("duplicate object member name")

// SyntaxError is the cause of an Error about text that is not valid JSON:
// What says what was found, in a few words.
type SyntaxError struct {
	What string
}

func (e *SyntaxError) Error() string { return e.What }

// Syntactic reports whether e is about the text rather than the value.
func (e *Error) Syntactic() bool {
	_, ok := e.Err.(*SyntaxError)
	return ok || e.Err == ErrDuplicateName
}

// Error says what went wrong and where.
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Err == ErrDuplicateName:
		b.WriteString("duplicate member name ")
		b.WriteString(strconv.Quote(LastToken(e.Pointer)))
		if p := Parent(e.Pointer); p != "" {
			b.WriteString(" in ")
			b.WriteString(strconv.Quote(p))
		}
		return b.String()
	case e.Syntactic():
		b.WriteString("invalid JSON: ")
		b.WriteString(e.Err.Error())
	default:
		b.WriteString("cannot decode")
		if e.Kind != 0 {
			b.WriteString(" JSON ")
			b.WriteString(e.Kind.String())
		}
		if e.value != "" {
			b.WriteString(" ")
			b.WriteString(e.value)
		}
		if e.GoType != nil {
			b.WriteString(" into Go ")
			b.WriteString(e.GoType.String())
		}
		if e.Err != nil {
			b.WriteString(": ")
			b.WriteString(e.Err.Error())
		}
	}
	if e.Pointer != "" {
		b.WriteString(" at ")
		b.WriteString(strconv.Quote(e.Pointer))
	}
	b.WriteString(" (byte ")
	b.WriteString(strconv.FormatInt(e.Offset, 10))
	b.WriteString(")")
	return b.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Kind is the kind of a JSON value, named by its first byte: 'n' (null),
// 'f' and 't' (booleans), '"' (string), '0' (number), '{' (object), '['
// (array); ']' and '}' name the end of an array or object.
type Kind byte

// String names the kind in JSON's words: "null", "boolean", "string",
// "number", "object", "array".
func (k Kind) String() string {
	switch k {
	case 'n':
		return "null"
	case 'f', 't':
		return "boolean"
	case '"':
		return "string"
	case '0':
		return "number"
	case '{', '}':
		return "object"
	case '[', ']':
		return "array"
	}
	return "invalid"
}

// kindOf is the kind of the value or token that starts with c; 0 when none
// does.
func kindOf(c byte) Kind {
	switch c {
	case 'n', 'f', 't', '"', '{', '}', '[', ']':
		return Kind(c)
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return '0'
	}
	return 0
}

// LastToken is the last reference token of a JSON Pointer, unescaped.
func LastToken(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return unescapeToken(p[i+1:])
}

// Parent is a JSON Pointer without its last reference token.
func Parent(p string) string {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

func unescapeToken(s string) string {
	if !strings.Contains(s, "~") {
		return s
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(s)
}

// appendToken appends "/" and name escaped as a JSON Pointer token; invalid
// UTF-8 becomes U+FFFD, as the pointer is a string of characters.
func appendToken(b []byte, name string) []byte {
	b = append(b, '/')
	for _, r := range name {
		switch r {
		case '~':
			b = append(b, "~0"...)
		case '/':
			b = append(b, "~1"...)
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return b
}

// invalidText is the syntax error about the text what found where, told
// as label ("character", "escape sequence", "surrogate pair") and where
// ("at start of value", "in string", ...).
func invalidText(label, what, where string) error {
	var quoted string
	switch {
	case utf8.RuneCountInString(what) == 1:
		quoted = quoteRune(what)
	case strings.ContainsFunc(what, func(r rune) bool {
		return r == '`' || r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r)
	}):
		quoted = strconv.Quote(what)
	default:
		quoted = "`" + what + "`"
	}
	return &SyntaxError{What: strings.TrimSuffix("invalid "+label+" "+quoted+" "+where, " ")}
}

// invalidChar is the syntax error about the character that starts rest.
func invalidChar(rest []byte, where string) error {
	_, n := utf8.DecodeRune(rest)
	return invalidText("character", string(rest[:n]), where)
}

// invalidEscape is the syntax error about an escape sequence; one longer
// than six bytes is told as a surrogate pair.
func invalidEscape(what []byte) error {
	if len(what) > 6 {
		return invalidText("surrogate pair", string(what), "in string")
	}
	return invalidText("escape sequence", string(what), "in string")
}

// quoteRune quotes the first character of s; a byte that is not UTF-8 is
// written as '\xNN'.
func quoteRune(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n == 1 {
		return `'\x` + strconv.FormatUint(uint64(s[0]), 16) + `'`
	}
	return strconv.QuoteRune(r)
}

// The syntax errors that are not about one piece of text.
var (
	errUnexpectedEOF = &SyntaxError{What: "unexpected EOF"}
	errInvalidUTF8   = &SyntaxError{What: "invalid UTF-8"}
	errNonStringName = &SyntaxError{What: "object member name must be a string"}
	errMissingValue  = &SyntaxError{What: "missing value after object name"}
	errMaxDepth      = &SyntaxError{What: "exceeded max depth"}
	errMismatchDelim = &SyntaxError{What: "mismatching structural token for object or array"}
)
