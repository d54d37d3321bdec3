package fastschema

import (
	"bytes"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// maxDepth bounds the nesting of arrays and objects the checker follows;
// deeper input answers Unknown (the project's parser stops at 1000).
const maxDepth = 10000

// bigObject is the member count from which duplicate member names are found
// with a map instead of by comparing every pair.
const bigObject = 32

// keyRef locates one member name in the input: the bytes between its
// quotes, and whether they hold escapes.
type keyRef struct {
	start, end int
	esc        bool
}

// state is the per-call scratch of a check. It is pooled by its Validator,
// so a check allocates nothing once the buffers have grown.
type state struct {
	data []byte
	// wellFormed: data is known to be a text the strict scanner accepts
	// (CheckWellFormed), so values are stepped over without checking their
	// grammar and member names are never repeats.
	wellFormed bool
	// known: a value of a well-formed text whose end the caller gave
	// (CheckWellFormedKnowing), which skip does not scan for.
	known extent
	// recur: a member value of a well-formed text that recurs from check
	// to check (CheckWellFormedRecurring), checked through recalled, the
	// validator's memory of it; nil for other checks.
	recur    extent
	recalled *atomic.Pointer[recalledValue]
	depth    int
	keys     []keyRef // member names of the objects being scanned, innermost last
	buf      []byte   // arena for decoded strings and number digits
}

// reset prepares s for checking data. recur and recalled are left as they
// are: CheckWellFormedRecurring sets them around its check, which a rerun
// of a failed check (state.check) keeps.
func (s *state) reset(data []byte) {
	s.data = data
	s.wellFormed = false
	s.known = extent{}
	s.depth = 0
	s.keys = s.keys[:0]
	s.buf = s.buf[:0]
}

// kind bits: the JSON kinds a node's "type" keyword may name.
type kindMask uint8

const (
	kNull kindMask = 1 << iota
	kBool
	kNumber
	kInteger
	kString
	kArray
	kObject
	kAll kindMask = kNull | kBool | kNumber | kInteger | kString | kArray | kObject
)

// kindAt returns the kind of the value starting with byte c, or 0 when no
// value starts with c. Numbers are kNumber.
func kindAt(c byte) kindMask {
	switch c {
	case '{':
		return kObject
	case '[':
		return kArray
	case '"':
		return kString
	case 't', 'f':
		return kBool
	case 'n':
		return kNull
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return kNumber
	}
	return 0
}

// ws returns the index of the first byte at or after i that is not JSON
// whitespace.
func (s *state) ws(i int) int {
	d := s.data
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skip scans the value starting at i, checking that it is well formed
// unless the text is known to be (wellFormed), and returns the index just
// after it; the value the caller located (known) is not scanned.
func (s *state) skip(i int) (int, bool) {
	if s.wellFormed {
		if i == s.known.start && s.known.end > i {
			return s.known.end, true
		}
		e := jsonscan.End(s.data, i)
		return e, e >= 0
	}
	d := s.data
	if i >= len(d) {
		return -1, false
	}
	switch d[i] {
	case '{':
		return s.skipObject(i)
	case '[':
		return s.skipArray(i)
	case '"':
		e, _, ok := s.scanString(i)
		return e, ok
	case 't':
		return s.literal(i, "true")
	case 'f':
		return s.literal(i, "false")
	case 'n':
		return s.literal(i, "null")
	}
	return s.scanNumber(i)
}

// literal scans the word w at i.
func (s *state) literal(i int, w string) (int, bool) {
	if len(s.data)-i < len(w) || string(s.data[i:i+len(w)]) != w {
		return -1, false
	}
	return i + len(w), true
}

// skipObject scans the object starting at i.
func (s *state) skipObject(i int) (int, bool) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth {
		return -1, false
	}
	var m members
	m.open(s, i)
	for m.next(s) {
		e, ok := s.skip(m.val)
		if !ok {
			return -1, false
		}
		m.after(s, e)
	}
	return m.end, m.ok
}

// skipArray scans the array starting at i.
func (s *state) skipArray(i int) (int, bool) {
	s.depth++
	defer func() { s.depth-- }()
	if s.depth > maxDepth {
		return -1, false
	}
	var it items
	it.open(s, i)
	for it.next(s) {
		e, ok := s.skip(it.val)
		if !ok {
			return -1, false
		}
		it.after(s, e)
	}
	return it.end, it.ok
}

// members walks the members of one object: open, then next until it
// reports false, calling after with the end of each member's value. When
// the walk stops, ok tells whether the object was well formed and end is
// the index just after it. Member names are checked for duplicates.
type members struct {
	start int // index of '{'
	base  int // first of this object's entries in state.keys
	count int // members seen
	nkeys int // names pushed on state.keys for duplicate detection
	// byCaller: the caller finds duplicates among the names it knows and
	// calls unknownName for the others.
	byCaller bool
	seen     map[string]struct{}
	keyPos   int // index of the current name's opening quote
	key      keyRef
	val      int // index of the current value
	pos      int // where the walk continues
	end      int
	ok       bool
	done     bool
}

// open starts the walk of the object at i.
func (m *members) open(s *state, i int) {
	m.start = i
	m.base = len(s.keys)
	m.pos = s.ws(i + 1)
	m.end = -1
	if m.pos < len(s.data) && s.data[m.pos] == '}' {
		m.end, m.ok, m.done = m.pos+1, true, true
	}
}

// next advances to the next member; it reports false at the end of the
// object or on malformed input.
func (m *members) next(s *state) bool {
	if m.done {
		return false
	}
	d := s.data
	j := m.pos
	if j >= len(d) || d[j] != '"' {
		return m.fail(s)
	}
	ke, esc, ok := s.scanString(j)
	if !ok {
		return m.fail(s)
	}
	m.keyPos = j
	m.key = keyRef{j + 1, ke - 1, esc}
	if !m.byCaller && !m.unknownName(s) {
		return m.fail(s)
	}
	m.count++
	c := s.ws(ke)
	if c >= len(d) || d[c] != ':' {
		return m.fail(s)
	}
	m.val = s.ws(c + 1)
	if m.val >= len(d) {
		return m.fail(s)
	}
	return true
}

// after continues the walk behind the value that ends at e.
func (m *members) after(s *state, e int) {
	d := s.data
	n := s.ws(e)
	switch {
	case n < len(d) && d[n] == ',':
		m.pos = s.ws(n + 1)
	case n < len(d) && d[n] == '}':
		m.end, m.ok, m.done = n+1, true, true
		s.keys = s.keys[:m.base]
	default:
		m.fail(s)
	}
}

// fail ends the walk on malformed input.
func (m *members) fail(s *state) bool {
	m.ok, m.done, m.end = false, true, -1
	s.keys = s.keys[:m.base]
	return false
}

// unknownName records the current member name for duplicate detection;
// it reports false when the name repeats one recorded before. In a text
// known to be well formed no name repeats, and none is recorded.
func (m *members) unknownName(s *state) bool {
	if s.wellFormed {
		return true
	}
	s.keys = s.keys[:m.base+m.nkeys]
	if s.duplicate(m, m.key) {
		return false
	}
	s.keys = append(s.keys, m.key)
	m.nkeys++
	return true
}

// close drops the walk's member names when it ends early.
func (m *members) close(s *state) {
	if len(s.keys) > m.base {
		s.keys = s.keys[:m.base]
	}
}

// rawKey returns the current member name as it appears in the input.
func (m *members) rawKey(s *state) []byte {
	return s.data[m.key.start:m.key.end]
}

// duplicate reports whether k repeats a name already seen in the object m
// walks. Names with escapes are compared decoded.
func (s *state) duplicate(m *members, k keyRef) bool {
	if m.seen != nil || m.nkeys >= bigObject {
		if m.seen == nil {
			m.seen = make(map[string]struct{}, 2*bigObject)
			for _, o := range s.keys[m.base : m.base+m.nkeys] {
				m.seen[string(s.decodedKey(o))] = struct{}{}
			}
		}
		name := string(s.decodedKey(k))
		if _, ok := m.seen[name]; ok {
			return true
		}
		m.seen[name] = struct{}{}
		return false
	}
	raw := s.data[k.start:k.end]
	for _, o := range s.keys[m.base : m.base+m.nkeys] {
		if !k.esc && !o.esc {
			if bytes.Equal(raw, s.data[o.start:o.end]) {
				return true
			}
			continue
		}
		mark := len(s.buf)
		a := s.decodedKey(k)
		b := s.decodedKey(o)
		eq := bytes.Equal(a, b)
		s.buf = s.buf[:mark]
		if eq {
			return true
		}
	}
	return false
}

// decodedKey returns the name k decoded; names without escapes are returned
// in place, others are decoded into the arena.
func (s *state) decodedKey(k keyRef) []byte {
	raw := s.data[k.start:k.end]
	if !k.esc {
		return raw
	}
	mark := len(s.buf)
	s.buf = jsonscan.AppendUnescaped(s.buf, raw)
	return s.buf[mark:]
}

// items walks the elements of one array, like members does for objects.
type items struct {
	val  int // index of the current element
	pos  int
	end  int
	ok   bool
	done bool
}

// open starts the walk of the array at i.
func (it *items) open(s *state, i int) {
	it.pos = s.ws(i + 1)
	it.end = -1
	if it.pos < len(s.data) && s.data[it.pos] == ']' {
		it.end, it.ok, it.done = it.pos+1, true, true
	}
}

// next advances to the next element; it reports false at the end of the
// array or on malformed input.
func (it *items) next(s *state) bool {
	if it.done {
		return false
	}
	if it.pos >= len(s.data) {
		it.ok, it.done = false, true
		return false
	}
	it.val = it.pos
	return true
}

// after continues the walk behind the element that ends at e.
func (it *items) after(s *state, e int) {
	d := s.data
	n := s.ws(e)
	switch {
	case n < len(d) && d[n] == ',':
		it.pos = s.ws(n + 1)
	case n < len(d) && d[n] == ']':
		it.end, it.ok, it.done = n+1, true, true
	default:
		it.ok, it.done, it.end = false, true, -1
	}
}

// scanString scans the string starting with the quote at i with
// jsonscan.StringEnd. It returns the index after the closing quote and
// whether the string holds escapes.
func (s *state) scanString(i int) (end int, esc bool, ok bool) {
	end, esc = jsonscan.StringEnd(s.data, i)
	return end, esc, end >= 0
}

// scanNumber scans the number at i with jsonscan.NumberEnd and returns the
// index after it.
func (s *state) scanNumber(i int) (int, bool) {
	e := jsonscan.NumberEnd(s.data, i)
	return e, e >= 0
}
