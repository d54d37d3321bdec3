package jsonscan

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"unicode/utf8"
)

// The token scanners below are the project's only strict reading of JSON
// strings and numbers: Strict, Members and the rpc parser check text with
// them, and internal/fastschema scans with them as it validates.

// StringEnd checks the JSON string whose opening quote is data[i] and
// returns the index just past its closing quote, and whether it holds
// escape sequences. end is -1 when the string is not strict: a control
// character, invalid UTF-8, a bad escape, a lone or reversed surrogate
// escape, or no closing quote. Plain ASCII is skipped eight bytes at a
// time.
func StringEnd(data []byte, i int) (end int, escaped bool) {
	return strictString(data, i, nil)
}

// strictString is StringEnd, which also says in f (when not nil) why it
// refuses a string.
func strictString(data []byte, i int, f *Fault) (end int, escaped bool) {
	j := i + 1
	for j < len(data) {
		if j = PlainEnd(data, j); j >= len(data) {
			break
		}
		c := data[j]
		switch {
		case c == '"':
			return j + 1, escaped
		case c == '\\':
			escaped = true
			if j = escapeEnd(data, j, f); j < 0 {
				return -1, false
			}
		case c < 0x20:
			return f.set(j, "control character in a string"), false
		case c < utf8.RuneSelf:
			j++
		default:
			r, size := utf8.DecodeRune(data[j:])
			if r == utf8.RuneError && size <= 1 {
				return f.set(j, "invalid UTF-8 in a string"), false
			}
			j += size
		}
	}
	return f.set(len(data), "unexpected end of input in a string"), false
}

// PlainEnd skips plain ASCII inside a JSON string from data[i], eight
// bytes at a time, which is what makes the string scanners fast. It
// returns the index of the first byte that ends the run (a quote, a
// backslash, a control character or a non-ASCII byte) or, when fewer than
// eight bytes are left before it, the index where they start: the caller
// reads those one by one. It is small enough to be inlined.
func PlainEnd(data []byte, i int) int {
	for ; i >= 0 && i+8 <= len(data); i += 8 {
		if m := special(binary.LittleEndian.Uint64(data[i : i+8])); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	return i
}

// Masks for testing eight bytes at once.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special flags the bytes of x (eight string bytes, little-endian) that end
// a run of plain ASCII: a quote, a backslash, a control character or a
// non-ASCII byte. The lowest flagged byte is always a genuine one.
func special(x uint64) uint64 {
	q := x ^ (lsb * '"')
	b := x ^ (lsb * '\\')
	return (((x - lsb*0x20) &^ x) | ((q - lsb) &^ q) | ((b - lsb) &^ b) | x) & msb
}

// escapeEnd checks the escape sequence at data[j] == '\\' and returns the
// index just past it, or -1, saying why in f (when not nil): a \u escape
// of a surrogate must be a high one followed at once by an escaped low one.
func escapeEnd(data []byte, j int, f *Fault) int {
	if j+1 >= len(data) {
		return f.set(j, "unexpected end of input in an escape")
	}
	switch c := data[j+1]; c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return j + 2
	case 'u':
	default:
		if f != nil {
			f.set(j+1, fmt.Sprintf("invalid escape '\\%c'", c))
		}
		return -1
	}
	r, end := hex4At(data, j+2, f)
	switch {
	case end < 0:
		return -1
	case r >= 0xDC00 && r < 0xE000:
		return f.set(j+6, "lone surrogate escape in a string")
	case r < 0xD800 || r >= 0xE000:
		return j + 6
	}
	if j+7 >= len(data) || data[j+6] != '\\' || data[j+7] != 'u' {
		return f.set(j+6, "lone surrogate escape in a string")
	}
	lo, end := hex4At(data, j+8, f)
	switch {
	case end < 0:
		return -1
	case lo < 0xDC00 || lo >= 0xE000:
		return f.set(j+12, "lone surrogate escape in a string")
	}
	return j + 12
}

// hex4At decodes the four hexadecimal digits of a \u escape at data[i:]
// and returns the index past them, or -1 with the reason in f.
func hex4At(data []byte, i int, f *Fault) (rune, int) {
	if i+4 > len(data) {
		return 0, f.set(i, "unexpected end of input in a \\u escape")
	}
	r, ok := hex4(data, i)
	if !ok {
		return 0, f.set(i, "invalid \\u escape")
	}
	return r, i + 4
}

// hex4 decodes the four hexadecimal digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// NumberEnd returns the index just past the JSON number that starts at
// data[i], or -1 when none does.
func NumberEnd(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	return numberEnd(data, i, nil)
}

// AppendUnescaped appends the decoded form of raw, the content of a JSON
// string that StringEnd has accepted, to dst.
func AppendUnescaped(dst, raw []byte) []byte {
	for i := 0; i < len(raw); {
		c := raw[i]
		if c != '\\' {
			j := bytes.IndexByte(raw[i:], '\\')
			if j < 0 {
				return append(dst, raw[i:]...)
			}
			dst = append(dst, raw[i:i+j]...)
			i += j
			continue
		}
		switch raw[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, _ := hex4(raw, i+2)
			if r >= 0xD800 && r < 0xDC00 {
				lo, _ := hex4(raw, i+8)
				r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				i += 6
			}
			dst = utf8.AppendRune(dst, r)
			i += 6
			continue
		default: // '"', '\\', '/'
			dst = append(dst, raw[i+1])
		}
		i += 2
	}
	return dst
}
