package jsondecode

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// The token readers below find where a string, number or literal that
// starts at data[i] ends, with jsonscan's scanners on the common path.
// When the token is not valid they say why, in go-json-experiment's words
// (which rpc.DecodeReason has always quoted), and where the fault is;
// input that ends inside the token is errUnexpectedEOF.

// stringEnd returns the index past the string at data[i], or the index of
// its fault and the fault.
func stringEnd(data []byte, i int) (int, error) {
	if i >= len(data) || data[i] != '"' {
		return stringFault(data, i)
	}
	if end, _ := jsonscan.StringEnd(data, i); end > 0 {
		return end, nil
	}
	return stringFault(data, i)
}

// stringFault finds the first fault of the string at data[i], which
// jsonscan refused.
func stringFault(data []byte, i int) (int, error) {
	b := data[i:]
	if len(b) == 0 {
		return i, errUnexpectedEOF
	}
	if b[0] != '"' {
		return i, invalidChar(b, `at start of string (expecting '"')`)
	}
	n := 1
	for n < len(b) {
		c := b[n]
		switch {
		case c == '"':
			return i + n + 1, nil
		case c == '\\':
			if len(b) < n+2 {
				return i + n, errUnexpectedEOF
			}
			switch b[n+1] {
			case '/', '"', '\\', 'b', 'f', 'n', 'r', 't':
				n += 2
				continue
			case 'u':
			default:
				return i + n, invalidEscape(b[n : n+2])
			}
			if len(b) < n+6 {
				if escapedUTF16Prefix(b[n:], false) {
					return i + n, errUnexpectedEOF
				}
				return i + n, invalidEscape(b[n:])
			}
			v1, ok := hex16(b[n+2 : n+6])
			if !ok {
				return i + n, invalidEscape(b[n : n+6])
			}
			n += 6
			if !utf16.IsSurrogate(rune(v1)) {
				continue
			}
			if len(b) < n+6 {
				if escapedUTF16Prefix(b[n:], true) {
					return i + n - 6, errUnexpectedEOF
				}
				return i + n - 6, invalidEscape(b[n-6:])
			}
			v2, ok := hex16(b[n+2 : n+6])
			if b[n] != '\\' || b[n+1] != 'u' || !ok || utf16.DecodeRune(rune(v1), rune(v2)) == utf8.RuneError {
				return i + n - 6, invalidEscape(b[n-6 : n+6])
			}
			n += 6
		case c < ' ':
			return i + n, invalidChar(b[n:], "in string (expecting non-control character)")
		case c < utf8.RuneSelf:
			n++
		default:
			r, rn := utf8.DecodeRune(b[n:])
			if r == utf8.RuneError && rn == 1 {
				if !utf8.FullRune(b[n:]) {
					return i + n, errUnexpectedEOF
				}
				return i + n, errInvalidUTF8
			}
			n += rn
		}
	}
	return i + n, errUnexpectedEOF
}

// escapedUTF16Prefix reports whether b, shorter than a \u escape, could
// be the start of one (of a low surrogate, when low).
func escapedUTF16Prefix(b []byte, low bool) bool {
	for i, c := range b {
		switch {
		case i == 0 && c != '\\', i == 1 && c != 'u':
			return false
		case i == 2 && low && c != 'd' && c != 'D':
			return false
		case i == 3 && low && !('c' <= c && c <= 'f') && !('C' <= c && c <= 'F'):
			return false
		case i >= 2 && i < 6 && !isHex(c):
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hex16(b []byte) (uint16, bool) {
	v, err := strconv.ParseUint(string(b), 16, 16)
	return uint16(v), err == nil && len(b) == 4 && isHex(b[0])
}

// numberEnd returns the index past the number at data[i], or the index of
// its fault and the fault.
func numberEnd(data []byte, i int) (int, error) {
	if end := jsonscan.NumberEnd(data, i); end > 0 {
		return end, nil
	}
	n := i
	if data[n] == '-' {
		n++
	}
	switch {
	case n >= len(data):
		return i, errUnexpectedEOF
	case data[n] == '0':
		n++
	case '1' <= data[n] && data[n] <= '9':
		n = digitsEnd(data, n+1)
	default:
		return n, invalidChar(data[n:], "in number (expecting digit)")
	}
	var err error
	if n < len(data) && data[n] == '.' {
		if n, err = requiredDigits(data, i, n+1); err != nil {
			return n, err
		}
	}
	if n < len(data) && (data[n] == 'e' || data[n] == 'E') {
		n++
		if n < len(data) && (data[n] == '-' || data[n] == '+') {
			n++
		}
		return requiredDigits(data, i, n)
	}
	return n, nil
}

// requiredDigits reads the digits that must start at data[n], after the
// point or the exponent of the number that starts at data[start]: it
// returns their end, or the fault (a truncated number is placed at its
// start, as the oracle places it).
func requiredDigits(data []byte, start, n int) (int, error) {
	switch {
	case n >= len(data):
		return start, errUnexpectedEOF
	case !isDigit(data[n]):
		return n, invalidChar(data[n:], "in number (expecting digit)")
	}
	return digitsEnd(data, n), nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func digitsEnd(data []byte, i int) int {
	for i < len(data) && isDigit(data[i]) {
		i++
	}
	return i
}

// literalEnd returns the index past the literal lit at data[i], or the
// index of its fault and the fault.
func literalEnd(data []byte, i int, lit string) (int, error) {
	b := data[i:]
	for j := 0; j < len(b) && j < len(lit); j++ {
		if b[j] != lit[j] {
			return i + j, invalidChar(b[j:], "in literal "+lit+" (expecting "+strconv.QuoteRune(rune(lit[j]))+")")
		}
	}
	if len(b) < len(lit) {
		return len(data), errUnexpectedEOF
	}
	return i + len(lit), nil
}

// literalOf is the literal that starts with c.
func literalOf(c byte) string {
	switch c {
	case 'n':
		return "null"
	case 't':
		return "true"
	}
	return "false"
}

// scalarEnd returns the end of the string, number or literal of kind k at
// data[i], or the index of its fault and the fault.
func scalarEnd(data []byte, i int, k Kind) (int, error) {
	switch k {
	case '"':
		return stringEnd(data, i)
	case '0':
		return numberEnd(data, i)
	}
	return literalEnd(data, i, literalOf(byte(k)))
}
