package jsonscan

import (
	"bytes"
	"fmt"
)

// Strict reports whether data is exactly one JSON text under I-JSON rules
// (RFC 7493): valid UTF-8, no lone surrogate escapes, no repeated member
// names, nesting at most maxDepth levels, nothing but whitespace around
// the value. It allocates only for objects with many members or names
// written with escapes. It is the one strict scanner (see the package
// documentation for who uses it); Explain says why it refuses a text.
func Strict(data []byte, maxDepth int) bool {
	p := strict{data: data, maxDepth: maxDepth}
	p.pos = SkipSpace(data, 0)
	return p.skip(1) && SkipSpace(data, p.pos) == len(data)
}

// StrictEnd checks the value that starts at data[i] as Strict does, where
// depth is the nesting level the value opens (1 for a whole text), and
// returns the index just past it, or -1.
func StrictEnd(data []byte, i, depth, maxDepth int) int {
	p := strict{data: data, pos: i, maxDepth: maxDepth}
	if !p.skip(depth) {
		return -1
	}
	return p.pos
}

// Explain says why the strict scanner refuses the value that starts at
// data[i], where depth is the nesting level the value opens: the first
// fault, where StrictEnd stops. Its At is -1 when the value is accepted.
// A reader that needs the reason (the rpc parser's -32700 messages) asks
// only once it has met a fault, so the common path pays nothing for it.
func Explain(data []byte, i, depth, maxDepth int) Fault {
	f := Fault{At: -1}
	p := strict{data: data, pos: i, maxDepth: maxDepth, fault: &f}
	p.skip(depth)
	return f
}

// Fault is where and why the strict scanner refused a text.
type Fault struct {
	// At is the byte offset of the fault.
	At int
	// Reason says what is wrong there, in a few words.
	Reason string
}

// set records the fault at, unless f is nil (nobody asked), and returns -1
// for the caller to return.
func (f *Fault) set(at int, reason string) int {
	if f != nil {
		f.At, f.Reason = at, reason
	}
	return -1
}

// strict is the state of one Strict check.
type strict struct {
	data     []byte
	pos      int
	maxDepth int
	fault    *Fault // where to say why the text is refused; nil: nobody asks
	// known is an object Strict accepts, nesting knownDepth levels, that
	// an object in the text may be (Members.Knowing): the same bytes there
	// are stepped over as checked.
	known      []byte
	knownDepth int
	// index, when set, records the members of the next object the walk
	// enters (skipObject takes it), for Members.Indexing.
	index *Index
}

// fail records a fault at the current position and returns false.
func (p *strict) fail(reason string) bool {
	p.fault.set(p.pos, reason)
	return false
}

// deeper records that the value at the current position nests too deep.
func (p *strict) deeper() bool {
	if p.fault != nil {
		p.fail(fmt.Sprintf("nesting deeper than %d levels", p.maxDepth))
	}
	return false
}

func (p *strict) skipSpace() { p.pos = SkipSpace(p.data, p.pos) }

func (p *strict) literal(word string) bool {
	e := literalEnd(p.data, p.pos, word)
	if e < 0 {
		return p.fail("invalid literal")
	}
	p.pos = e
	return true
}

func (p *strict) number() bool {
	e := numberEnd(p.data, p.pos, p.fault)
	if e < 0 {
		return false
	}
	p.pos = e
	return true
}

// maxScanNames is how many member names of one object are compared in
// place before the scanner switches to a set.
const maxScanNames = 16

// skip checks the value at p.pos and moves past it.
func (p *strict) skip(depth int) bool {
	if p.pos >= len(p.data) {
		return p.fail("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.skipObject(depth)
	case c == '[':
		return p.skipArray(depth)
	case c == '"':
		_, ok := p.skipStr()
		return ok
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 't':
		return p.literal("true")
	case c == 'f':
		return p.literal("false")
	case c == 'n':
		return p.literal("null")
	default:
		if p.fault != nil {
			return p.fail(fmt.Sprintf("invalid character %q looking for a value", rune(c)))
		}
		return false
	}
}

// skipObject checks an object, including that no member name repeats.
func (p *strict) skipObject(depth int) bool {
	var rec indexer
	if x := p.index; x != nil {
		p.index = nil // this object's, not the ones inside it
		rec = x.open(p.pos)
	}
	if depth > p.maxDepth {
		return p.deeper()
	}
	if k := p.known; len(k) > 0 && depth+p.knownDepth-1 <= p.maxDepth && bytes.HasPrefix(p.data[p.pos:], k) {
		p.pos += len(k) // the object opens level depth and nests knownDepth levels
		return true     // (an index of it stays incomplete)
	}
	p.pos++ // '{'
	var names nameSet
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		rec.close()
		return true
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return p.fail("expected a member name")
		}
		start := p.pos + 1
		esc, ok := p.skipStr()
		if !ok {
			return false
		}
		key := span{start, p.pos - 1}
		if !names.add(p, key, esc) {
			if p.fault != nil {
				p.fault.set(start-1, fmt.Sprintf("duplicate member name %q", p.decodeName(key, esc)))
			}
			return false
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return p.fail("expected ':' after a member name")
		}
		p.pos++
		p.skipSpace()
		vstart := p.pos
		if !p.skip(depth + 1) {
			return false
		}
		rec.add(key, vstart, p.pos)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.fail("unexpected end of input in an object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			rec.close()
			return true
		default:
			return p.fail("expected ',' or '}' in an object")
		}
	}
}

// nameSet holds the member names of one object seen so far, to find a
// repeated one: the first maxScanNames are compared in place, and past
// them the names move to a set.
type nameSet struct {
	n       int
	names   [maxScanNames]span
	escaped [maxScanNames]bool
	set     map[string]struct{}
}

// add records the name at key (written with escapes when esc), reporting
// false when the object already has a member of that name.
func (s *nameSet) add(p *strict, key span, esc bool) bool {
	switch {
	case s.set != nil:
		return p.addName(s.set, key, esc)
	case s.n < maxScanNames:
		for i := range s.n {
			if p.sameName(s.names[i], s.escaped[i], key, esc) {
				return false
			}
		}
		s.names[s.n], s.escaped[s.n] = key, esc
		s.n++
		return true
	}
	s.set = make(map[string]struct{}, 2*maxScanNames)
	for i := range s.n {
		p.addName(s.set, s.names[i], s.escaped[i])
	}
	return p.addName(s.set, key, esc)
}

// sameName compares two member names given as raw spans; names written
// with escapes are decoded first.
func (p *strict) sameName(a span, aEsc bool, b span, bEsc bool) bool {
	if !aEsc && !bEsc {
		return string(p.data[a.start:a.end]) == string(p.data[b.start:b.end])
	}
	return p.decodeName(a, aEsc) == p.decodeName(b, bEsc)
}

// addName adds a name to set, reporting false when it was already there.
func (p *strict) addName(set map[string]struct{}, s span, esc bool) bool {
	name := p.decodeName(s, esc)
	if _, dup := set[name]; dup {
		return false
	}
	set[name] = struct{}{}
	return true
}

// decodeName returns the text of a name the scanner has already checked.
func (p *strict) decodeName(s span, esc bool) string {
	if !esc {
		return string(p.data[s.start:s.end])
	}
	name, _ := unescape(p.data[s.start:s.end])
	return name
}

func (p *strict) skipArray(depth int) bool {
	if depth > p.maxDepth {
		return p.deeper()
	}
	p.pos++ // '['
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return true
	}
	for {
		if !p.skip(depth + 1) {
			return false
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return p.fail("unexpected end of input in an array")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return true
		default:
			return p.fail("expected ',' or ']' in an array")
		}
	}
}

// skipStr checks the string at p.pos (its opening quote) with StringEnd
// and moves past its closing quote. escaped reports whether it holds
// escape sequences.
func (p *strict) skipStr() (escaped, ok bool) {
	end, escaped := strictString(p.data, p.pos, p.fault)
	if end < 0 {
		return false, false
	}
	p.pos = end
	return escaped, true
}

// span is a half-open byte range [start, end) of the input.
type span struct{ start, end int }
