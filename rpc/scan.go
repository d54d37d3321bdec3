package rpc

import "unicode/utf8"

// The scanning half of the parser: it accepts exactly the texts the tree
// parser accepts (the differential tests hold it to that) but builds
// nothing, so a message whose envelope and params pass the compiled fast
// validators is read without allocating a tree. On a rejection the caller
// parses again with the tree parser, whose error is the one reported.

// maxScanNames is how many member names of one object are compared in
// place before the scanner switches to a set.
const maxScanNames = 16

// skip checks the value at p.pos, as value would, and moves past it.
func (p *parser) skip(depth int) bool {
	if p.pos >= len(p.data) {
		return false
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
		return p.scanNumber() == nil
	case c == 't':
		return p.literal("true") == nil
	case c == 'f':
		return p.literal("false") == nil
	case c == 'n':
		return p.literal("null") == nil
	}
	return false
}

// skipObject checks an object, including that no member name repeats.
func (p *parser) skipObject(depth int) bool {
	if depth > p.maxDepth {
		return false
	}
	p.pos++ // '{'
	var names [maxScanNames]span
	var escaped [maxScanNames]bool
	var set map[string]struct{}
	n := 0
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return true
	}
	for {
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return false
		}
		start := p.pos + 1
		esc, ok := p.skipStr()
		if !ok {
			return false
		}
		key := span{start, p.pos - 1}
		switch {
		case set != nil:
			if !p.addName(set, key, esc) {
				return false
			}
		case n < maxScanNames:
			for i := range n {
				if p.sameName(names[i], escaped[i], key, esc) {
					return false
				}
			}
			names[n], escaped[n] = key, esc
			n++
		default:
			set = make(map[string]struct{}, 2*maxScanNames)
			for i := range n {
				p.addName(set, names[i], escaped[i])
			}
			if !p.addName(set, key, esc) {
				return false
			}
		}
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return false
		}
		p.pos++
		p.skipSpace()
		if !p.skip(depth + 1) {
			return false
		}
		p.skipSpace()
		if p.pos >= len(p.data) {
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case '}':
			p.pos++
			return true
		default:
			return false
		}
	}
}

// sameName compares two member names given as raw spans; names written
// with escapes are decoded first.
func (p *parser) sameName(a span, aEsc bool, b span, bEsc bool) bool {
	if !aEsc && !bEsc {
		return string(p.data[a.start:a.end]) == string(p.data[b.start:b.end])
	}
	return p.decodeName(a, aEsc) == p.decodeName(b, bEsc)
}

// addName adds a name to set, reporting false when it was already there.
func (p *parser) addName(set map[string]struct{}, s span, esc bool) bool {
	name := p.decodeName(s, esc)
	if _, dup := set[name]; dup {
		return false
	}
	set[name] = struct{}{}
	return true
}

// decodeName returns the text of a name the scanner has already checked.
func (p *parser) decodeName(s span, esc bool) string {
	if !esc {
		return string(p.data[s.start:s.end])
	}
	q := parser{data: p.data, pos: s.start - 1, maxDepth: p.maxDepth}
	name, _ := q.str()
	return name
}

func (p *parser) skipArray(depth int) bool {
	if depth > p.maxDepth {
		return false
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
			return false
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
			p.skipSpace()
		case ']':
			p.pos++
			return true
		default:
			return false
		}
	}
}

// skipStr checks the string at p.pos (its opening quote) under the rules
// of str and moves past its closing quote. escaped reports whether it
// holds escape sequences.
func (p *parser) skipStr() (escaped, ok bool) {
	p.pos++ // '"'
	d := p.data
	for p.pos < len(d) {
		c := d[p.pos]
		switch {
		case c == '"':
			p.pos++
			return escaped, true
		case c < 0x20:
			return false, false
		case c == '\\':
			escaped = true
			if !p.skipEscape() {
				return false, false
			}
		case c < 0x80:
			p.pos++
		default:
			r, size := utf8.DecodeRune(d[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return false, false
			}
			p.pos += size
		}
	}
	return false, false
}

// skipEscape checks the escape sequence at p.pos under the rules of escape.
func (p *parser) skipEscape() bool {
	d := p.data
	if p.pos+1 >= len(d) {
		return false
	}
	c := d[p.pos+1]
	p.pos += 2
	switch c {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		r, ok := p.skipHex4()
		if !ok {
			return false
		}
		if r < 0xD800 || r > 0xDFFF {
			return true
		}
		if r >= 0xDC00 || p.pos+1 >= len(d) || d[p.pos] != '\\' || d[p.pos+1] != 'u' {
			return false
		}
		p.pos += 2
		r2, ok := p.skipHex4()
		return ok && r2 >= 0xDC00 && r2 <= 0xDFFF
	}
	return false
}

// skipHex4 reads four hexadecimal digits.
func (p *parser) skipHex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
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
	p.pos += 4
	return r, true
}
