package rpc

import (
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
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

// parser builds the validation tree of one JSON text under I-JSON rules
// (RFC 7493): numbers become json.Number so their text stays exact;
// objects become map[string]any and arrays []any, the tree the schema
// validator consumes. It has no rules of its own: it reads strings and
// numbers with the strict scanner of internal/jsonscan, and at the first
// fault asks that scanner (jsonscan.Explain) where and why, so a -32700
// message says what the one scanner found.
type parser struct {
	data     []byte
	pos      int
	maxDepth int
}

// parse decodes b as one JSON text into a validation tree.
func parse(b []byte, maxDepth int) (any, error) {
	p := parser{data: b, maxDepth: maxDepth}
	p.skipSpace()
	start := p.pos
	v, ok := p.value(1)
	if !ok {
		return nil, p.explain(start, 1)
	}
	if err := p.end(); err != nil {
		return nil, err
	}
	return v, nil
}

// explain is the error for the value at start, nesting at depth, that the
// tree could not be built from: the strict scanner's first fault in it.
func (p *parser) explain(start, depth int) error {
	f := jsonscan.Explain(p.data, start, depth, p.maxDepth)
	if f.At < 0 { // the scanner accepts what the tree refused: cannot happen
		return &syntaxError{Offset: start, Reason: "invalid JSON"}
	}
	return &syntaxError{Offset: f.At, Reason: f.Reason}
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

func (p *parser) skipSpace() { p.pos = jsonscan.SkipSpace(p.data, p.pos) }

// value builds the value at p.pos; depth is the nesting level it would
// open. ok is false at the first fault.
func (p *parser) value(depth int) (v any, ok bool) {
	if p.pos >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		v, _, ok := p.object(depth, false)
		return v, ok
	case c == '[':
		return p.array(depth)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		e := jsonscan.NumberEnd(p.data, p.pos)
		if e < 0 {
			return nil, false
		}
		n := json.Number(p.data[p.pos:e])
		p.pos = e
		return n, true
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	}
	return nil, false
}

func (p *parser) literal(word string) bool {
	if len(p.data)-p.pos < len(word) || string(p.data[p.pos:p.pos+len(word)]) != word {
		return false
	}
	p.pos += len(word)
	return true
}

// object builds an object. With record set it also returns each member's
// raw value span, in input order.
func (p *parser) object(depth int, record bool) (map[string]any, []member, bool) {
	if depth > p.maxDepth {
		return nil, nil, false
	}
	p.pos++ // '{'
	obj := make(map[string]any)
	var members []member
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return obj, members, true
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, nil, false
		}
		key, ok := p.str()
		if !ok {
			return nil, nil, false
		}
		if _, dup := obj[key]; dup {
			return nil, nil, false
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, nil, false
		}
		p.pos++
		p.skipSpace()
		start := p.pos
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, nil, false
		}
		obj[key] = v
		if record {
			members = append(members, member{key: key, val: span{start, p.pos}, tree: v})
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, nil, false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return obj, members, true
		default:
			return nil, nil, false
		}
	}
}

func (p *parser) array(depth int) ([]any, bool) {
	if depth > p.maxDepth {
		return nil, false
	}
	p.pos++ // '['
	arr := []any{}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return arr, true
	}
	for {
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		arr = append(arr, v)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return arr, true
		default:
			return nil, false
		}
	}
}

// str builds the string whose opening quote is at p.pos.
func (p *parser) str() (string, bool) {
	end, escaped := jsonscan.StringEnd(p.data, p.pos)
	if end < 0 {
		return "", false
	}
	raw := p.data[p.pos+1 : end-1]
	p.pos = end
	if !escaped {
		return string(raw), true
	}
	return string(jsonscan.AppendUnescaped(make([]byte, 0, len(raw)), raw)), true
}
