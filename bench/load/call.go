package load

import (
	"strconv"
	"unicode/utf8"
)

// The tools every benchmark server offers.
const (
	ToolEcho = "echo"
	ToolAdd  = "add"
)

// Call is one tools/call of the benchmark: its tool, its arguments, and so
// the reply the driver expects.
type Call struct {
	// Tool is ToolEcho or ToolAdd.
	Tool string
	// Text is echo's argument.
	Text string
	// A and B are add's arguments.
	A, B float64
}

// echoTexts vary the echo argument in length and content, including
// characters JSON must escape and non-ASCII text, so that no server gets
// away with copying bytes it never decoded.
var echoTexts = [...]string{
	"hello ",
	"the quick brown fox jumps over the lazy dog, call ",
	"a \"quoted\" word, a back\\slash and a tab\there: ",
	"unicode: żółw, 日本語, emoji ✓ ",
}

// CallAt returns the n-th call of a run: calls alternate echo and add, and
// the arguments change with n.
func CallAt(n int64) Call {
	if n%2 == 0 {
		return Call{Tool: ToolEcho, Text: echoTexts[(n/2)%int64(len(echoTexts))] + strconv.FormatInt(n, 10)}
	}
	return Call{Tool: ToolAdd, A: float64(n), B: float64(n%7) + 0.25}
}

// Sum is add's expected result.
func (c Call) Sum() float64 { return c.A + c.B }

// ExpectedText is the text content the server must return.
func (c Call) ExpectedText() string {
	if c.Tool == ToolEcho {
		return c.Text
	}
	return strconv.FormatFloat(c.Sum(), 'g', -1, 64)
}

// appendArguments appends the JSON arguments object of c to buf.
func (c Call) appendArguments(buf []byte) []byte {
	if c.Tool == ToolEcho {
		buf = append(buf, `{"text":`...)
		buf = appendJSONString(buf, c.Text)
		return append(buf, '}')
	}
	buf = append(buf, `{"a":`...)
	buf = strconv.AppendFloat(buf, c.A, 'g', -1, 64)
	buf = append(buf, `,"b":`...)
	buf = strconv.AppendFloat(buf, c.B, 'g', -1, 64)
	return append(buf, '}')
}

func appendInt(buf []byte, n int64) []byte { return strconv.AppendInt(buf, n, 10) }

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, valid UTF-8 passed through unchanged.
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		b := s[i]
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, `\ufffd`...)
			} else {
				buf = append(buf, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case b == '"' || b == '\\':
			buf = append(buf, '\\', b)
		case b == '\n':
			buf = append(buf, '\\', 'n')
		case b == '\t':
			buf = append(buf, '\\', 't')
		case b == '\r':
			buf = append(buf, '\\', 'r')
		case b < 0x20:
			buf = append(buf, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
		default:
			buf = append(buf, b)
		}
		i++
	}
	return append(buf, '"')
}
