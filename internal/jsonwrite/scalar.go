package jsonwrite

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hex = "0123456789abcdef"

// safe marks the ASCII bytes a JSON string holds as they are: printable
// characters other than the quote and the backslash. Without HTML escaping
// <, > and & are safe too.
var safe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// String appends s as a JSON string. Quote and backslash are escaped with a
// backslash; control characters as \b, \f, \n, \r, \t or \u00XX; U+2028
// and U+2029 as \u2028 and \u2029 (JavaScript reads them as line ends);
// each byte of invalid UTF-8 becomes \ufffd. <, > and & are written as they
// are.
func String(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if safe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// UnsupportedValueError is the error for a number JSON cannot write: NaN or
// an infinity.
type UnsupportedValueError struct {
	// Value is the number.
	Value float64
}

func (e *UnsupportedValueError) Error() string {
	return "json: unsupported value: " + strconv.FormatFloat(e.Value, 'g', -1, 64)
}

// Float64 appends f as encoding/json writes a float64: the shortest text
// that reads back as f, in plain notation for magnitudes from 1e-6 up to
// 1e21 and in exponent notation (with no leading zero in a negative
// exponent) outside it. NaN and the infinities are an
// *UnsupportedValueError.
func Float64(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, &UnsupportedValueError{Value: f}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// e-09 becomes e-9.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// Int64 appends i in decimal.
func Int64(b []byte, i int64) []byte { return strconv.AppendInt(b, i, 10) }

// Bool appends true or false.
func Bool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }
