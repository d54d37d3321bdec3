package rpc

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultMaxDepth is the default limit on the nesting of arrays and objects
// in one message.
const DefaultMaxDepth = 1000

// syntaxError describes why bytes are not an acceptable JSON text. Offset is
// the byte offset of the problem.
type syntaxError struct {
	Offset int
	Reason string
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("%s at byte %d", e.Reason, e.Offset)
}

// span is a half-open byte range [start, end) of the parsed input.
type span struct{ start, end int }

// member is one member of an object whose raw bytes were recorded.
type member struct {
	key  string
	val  span
	tree any
}

// parser is a strict, single-pass JSON parser. It accepts exactly one JSON
// text under I-JSON rules (RFC 7493): valid UTF-8, no lone surrogate escapes,
// unique member names. Numbers become json.Number so their text stays exact;
// objects become map[string]any and arrays []any, the tree the schema
// validator consumes.
type parser struct {
	data     []byte
	pos      int
	maxDepth int
}

// parse decodes b as one JSON text into a validation tree.
func parse(b []byte, maxDepth int) (any, error) {
	p := parser{data: b, maxDepth: maxDepth}
	p.skipSpace()
	v, err := p.value(1)
	if err != nil {
		return nil, err
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return v, nil
}

// end checks that only whitespace follows the value.
func (p *parser) end() error {
	p.skipSpace()
	if p.pos != len(p.data) {
		return p.fail("unexpected data after the JSON value")
	}
	return nil
}

func (p *parser) fail(reason string) error {
	return &syntaxError{Offset: p.pos, Reason: reason}
}

func (p *parser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value parses the value at p.pos; depth is the nesting level it would open.
func (p *parser) value(depth int) (any, error) {
	if p.pos >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		v, _, err := p.object(depth, false)
		return v, err
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	default:
		return nil, p.fail(fmt.Sprintf("invalid character %q looking for a value", rune(c)))
	}
}

func (p *parser) literal(word string) error {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return p.fail("invalid literal")
	}
	p.pos += len(word)
	return nil
}

// object parses an object. With record set it also returns each member's
// raw value span, in input order.
func (p *parser) object(depth int, record bool) (map[string]any, []member, error) {
	if depth > p.maxDepth {
		return nil, nil, p.fail(fmt.Sprintf("nesting deeper than %d levels", p.maxDepth))
	}
	p.pos++ // '{'
	obj := make(map[string]any)
	var members []member
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, members, nil
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, nil, p.fail("expected a member name")
		}
		keyAt := p.pos
		key, err := p.str()
		if err != nil {
			return nil, nil, err
		}
		if _, dup := obj[key]; dup {
			return nil, nil, &syntaxError{Offset: keyAt, Reason: fmt.Sprintf("duplicate member name %q", key)}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, nil, p.fail("expected ':' after a member name")
		}
		p.pos++
		p.skipSpace()
		start := p.pos
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, nil, err
		}
		obj[key] = v
		if record {
			members = append(members, member{key: key, val: span{start, p.pos}, tree: v})
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, nil, p.fail("unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return obj, members, nil
		default:
			return nil, nil, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *parser) array(depth int) ([]any, error) {
	if depth > p.maxDepth {
		return nil, p.fail(fmt.Sprintf("nesting deeper than %d levels", p.maxDepth))
	}
	p.pos++ // '['
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, nil
	}
	for {
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.fail("unexpected end of input in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return arr, nil
		default:
			return nil, p.fail("expected ',' or ']' in an array")
		}
	}
}

func (p *parser) number() (any, error) {
	start := p.pos
	if err := p.scanNumber(); err != nil {
		return nil, err
	}
	return json.Number(p.data[start:p.pos]), nil
}

// scanNumber moves past the number at p.pos.
func (p *parser) scanNumber() error {
	d := p.data
	if d[p.pos] == '-' {
		p.pos++
	}
	switch {
	case p.pos < len(d) && d[p.pos] == '0':
		p.pos++
	case p.pos < len(d) && d[p.pos] >= '1' && d[p.pos] <= '9':
		for p.pos < len(d) && d[p.pos] >= '0' && d[p.pos] <= '9' {
			p.pos++
		}
	default:
		return p.fail("invalid number")
	}
	if p.pos < len(d) && d[p.pos] == '.' {
		p.pos++
		if !p.digits() {
			return p.fail("invalid number: no digits after '.'")
		}
	}
	if p.pos < len(d) && (d[p.pos] == 'e' || d[p.pos] == 'E') {
		p.pos++
		if p.pos < len(d) && (d[p.pos] == '+' || d[p.pos] == '-') {
			p.pos++
		}
		if !p.digits() {
			return p.fail("invalid number: no digits in the exponent")
		}
	}
	return nil
}

func (p *parser) digits() bool {
	start := p.pos
	for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
		p.pos++
	}
	return p.pos > start
}

// str parses a string starting at the opening quote.
func (p *parser) str() (string, error) {
	p.pos++ // '"'
	start := p.pos
	d := p.data
	// Fast path: printable ASCII without escapes.
	for p.pos < len(d) {
		c := d[p.pos]
		if c == '"' {
			s := string(d[start:p.pos])
			p.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= 0x80 {
			break
		}
		p.pos++
	}
	buf := make([]byte, 0, p.pos-start+16)
	buf = append(buf, d[start:p.pos]...)
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c == '\\':
			var err error
			if buf, err = p.escape(buf); err != nil {
				return "", err
			}
		case c < 0x80:
			buf = append(buf, c)
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			buf = append(buf, d[p.pos:p.pos+size]...)
			p.pos += size
		}
	}
	return "", p.fail("unexpected end of input in a string")
}

// escape decodes the escape sequence at p.pos and appends it to buf.
func (p *parser) escape(buf []byte) ([]byte, error) {
	d := p.data
	if p.pos+1 >= len(d) {
		return nil, p.fail("unexpected end of input in an escape")
	}
	c := d[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/':
		return append(buf, c), nil
	case 'b':
		return append(buf, '\b'), nil
	case 'f':
		return append(buf, '\f'), nil
	case 'n':
		return append(buf, '\n'), nil
	case 'r':
		return append(buf, '\r'), nil
	case 't':
		return append(buf, '\t'), nil
	case 'u':
		r, err := p.hex4()
		if err != nil {
			return nil, err
		}
		if utf16.IsSurrogate(r) {
			if r >= 0xDC00 || p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
				return nil, p.fail("lone surrogate escape in a string")
			}
			p.pos += 2
			r2, err := p.hex4()
			if err != nil {
				return nil, err
			}
			r = utf16.DecodeRune(r, r2)
			if r == utf8.RuneError {
				return nil, p.fail("lone surrogate escape in a string")
			}
		}
		return utf8.AppendRune(buf, r), nil
	default:
		p.pos--
		return nil, p.fail(fmt.Sprintf("invalid escape '\\%c'", c))
	}
}

func (p *parser) hex4() (rune, error) {
	if p.pos+4 > len(p.data) {
		return 0, p.fail("unexpected end of input in a \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.fail("invalid \\u escape")
	}
	p.pos += 4
	return rune(n), nil
}
