package jsonwrite

import (
	"bytes"
	"encoding/json"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// maxDepth is encoding/json's nesting limit: a value nested deeper is a
// syntax error.
const maxDepth = 10000

// Raw appends raw, which must be exactly one JSON value, without the
// whitespace between its tokens, as json.Compact does: strings are copied
// as written (their escapes kept, any byte but a control character
// allowed). Anything else is json.Compact's *json.SyntaxError, with b
// returned unchanged. Input that is already compact, as encoded JSON
// usually is, is checked in one pass and copied.
func Raw(b []byte, raw []byte) ([]byte, error) {
	if compactValue(raw) {
		return append(b, raw...), nil
	}
	buf := bytes.NewBuffer(b)
	if err := json.Compact(buf, raw); err != nil {
		return b, err
	}
	return buf.Bytes(), nil
}

// compactValue reports whether raw is one valid JSON value with no
// whitespace outside its strings: then compacting it changes nothing.
func compactValue(raw []byte) bool {
	s := compactScan{data: raw}
	return s.value(1) && s.pos == len(raw)
}

// compactScan checks a JSON text that holds no insignificant whitespace.
type compactScan struct {
	data []byte
	pos  int
}

// value checks the value at pos, opened at nesting level depth, and moves
// past it.
func (s *compactScan) value(depth int) bool {
	if s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; c {
	case '{':
		if depth > maxDepth {
			return false
		}
		s.pos++
		if s.pos < len(s.data) && s.data[s.pos] == '}' {
			s.pos++
			return true
		}
		for {
			if s.pos >= len(s.data) || s.data[s.pos] != '"' || !s.str() {
				return false
			}
			if s.pos >= len(s.data) || s.data[s.pos] != ':' {
				return false
			}
			s.pos++
			if !s.value(depth + 1) {
				return false
			}
			if s.pos >= len(s.data) {
				return false
			}
			switch s.data[s.pos] {
			case ',':
				s.pos++
			case '}':
				s.pos++
				return true
			default:
				return false
			}
		}
	case '[':
		if depth > maxDepth {
			return false
		}
		s.pos++
		if s.pos < len(s.data) && s.data[s.pos] == ']' {
			s.pos++
			return true
		}
		for {
			if !s.value(depth + 1) {
				return false
			}
			if s.pos >= len(s.data) {
				return false
			}
			switch s.data[s.pos] {
			case ',':
				s.pos++
			case ']':
				s.pos++
				return true
			default:
				return false
			}
		}
	case '"':
		return s.str()
	case 't':
		return s.literal("true")
	case 'f':
		return s.literal("false")
	case 'n':
		return s.literal("null")
	default:
		return s.number()
	}
}

func (s *compactScan) literal(word string) bool {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(word)) {
		return false
	}
	s.pos += len(word)
	return true
}

// str checks the string that starts at pos (a quote) and moves past it.
// Runs of plain ASCII are skipped eight bytes at a time.
func (s *compactScan) str() bool {
	i := s.pos + 1
	for i < len(s.data) {
		if i = jsonscan.PlainEnd(s.data, i); i >= len(s.data) {
			return false
		}
		c := s.data[i]
		switch {
		case c == '"':
			s.pos = i + 1
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if i+1 >= len(s.data) {
				return false
			}
			switch s.data[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(s.data) {
					return false
				}
				for _, h := range s.data[i+2 : i+6] {
					if !isHex(h) {
						return false
					}
				}
				i += 6
			default:
				return false
			}
		default:
			i++
		}
	}
	return false
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// number checks a number: an optional minus, 0 or digits not starting with
// 0, an optional fraction, an optional exponent.
func (s *compactScan) number() bool {
	d, i := s.data, s.pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && '1' <= d[i] && d[i] <= '9':
		for i++; i < len(d) && isDigit(d[i]); i++ {
		}
	default:
		return false
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return false
		}
		for i++; i < len(d) && isDigit(d[i]); i++ {
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return false
		}
		for i++; i < len(d) && isDigit(d[i]); i++ {
		}
	}
	s.pos = i
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
