package jsondecode

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// maxDepth is how deep objects and arrays may nest.
const maxDepth = 10000

// level is one open object or array, or the top level (reader.st[0]).
type level struct {
	obj bool
	// n counts what was read in it: names and values for an object (a
	// value is pending when n is odd), elements for an array, values at
	// the top level.
	n int64
	// name is the raw content of the last member name read (obj only).
	name []byte
	// own is set when the decoder of the object finds repeated member
	// names itself (a struct by its fields, a map by its keys) and calls
	// addOwnName for the others; otherwise the reader finds them.
	own bool
}

func (l *level) needValue() bool { return l.obj && l.n%2 == 1 }
func (l *level) needName() bool  { return l.obj && l.n%2 == 0 }

// reader reads one JSON text token by token or value by value, tracking
// where it is (for JSON Pointers) and checking the text as it goes: every
// fault is an *Error told as the decoder has always told it.
type reader struct {
	data      []byte
	prev      int // just past the previous token or value
	prevStart int // where the previous token or value starts
	st        []level
	names     []nameSet // the member names read so far at each level of st
	peekPos   int       // the position of the next token once peeked, or 0
	peekErr   error
	stack     [8]level
}

func (r *reader) init(data []byte) {
	r.data = data
	if r.st == nil {
		r.st = r.stack[:1]
	}
	r.st = r.st[:1]
	r.st[0] = level{}
}

func (r *reader) last() *level { return &r.st[len(r.st)-1] }

// needDelim is the delimiter that must come before a token of kind next.
func (r *reader) needDelim(next Kind) byte {
	l := r.last()
	switch {
	case l.needValue():
		return ':'
	case len(r.st) > 1 && l.n > 0 && next != '}' && next != ']':
		return ','
	}
	return 0
}

// pointer is the JSON Pointer of where the reader is: where < 0 names the
// previous value, where > 0 the next one, 0 the current container.
func (r *reader) pointer(where int) string {
	var b []byte
	for i := 1; i < len(r.st); i++ {
		l := &r.st[i]
		delta := int64(-1)
		if i == len(r.st)-1 {
			switch {
			case where < 0 && l.n == 0, where == 0 && !l.needValue(), where > 0 && l.needName():
				return string(b)
			case where > 0 && !l.obj:
				delta = 0
			}
		}
		if l.obj {
			b = appendToken(b, decodeName(l.name, hasEscape(l.name)))
		} else {
			b = append(b, '/')
			b = strconv.AppendInt(b, l.n+delta, 10)
		}
	}
	return string(b)
}

// decodeName is a raw member name, decoded.
func decodeName(raw []byte, escaped bool) string {
	if !escaped {
		return string(raw)
	}
	s, _ := jsonscan.Name(raw)
	return s
}

// syntaxError is the error about the fault err at pos, placed where (as
// for pointer) with suffix, a path inside a value read whole, appended.
func (r *reader) syntaxError(err error, pos, where int, suffix string) *Error {
	ptr := r.pointer(where) + suffix
	if err == errMismatchDelim {
		what := "at start of value"
		if l := r.last(); len(r.st) > 1 && l.n > 0 {
			if l.obj {
				what = "after object value (expecting ',' or '}')"
			} else {
				what = "after array element (expecting ',' or ']')"
			}
			ptr = Parent(ptr)
		}
		err = invalidChar(r.data[pos:], what)
	}
	return &Error{Pointer: ptr, Offset: int64(pos), Err: err}
}

// peek finds the next token, past whitespace and the delimiter before it,
// checks that delimiter, and returns the token's kind.
func (r *reader) peek() (Kind, error) {
	if r.peekPos > 0 {
		return kindOf(r.data[r.peekPos]), nil
	}
	if r.peekErr != nil {
		return 0, r.peekErr
	}
	pos := jsonscan.SkipSpace(r.data, r.prev)
	if pos >= len(r.data) {
		r.peekErr = r.syntaxError(errUnexpectedEOF, pos, 0, "")
		return 0, r.peekErr
	}
	var delim byte
	if c := r.data[pos]; c == ':' || c == ',' {
		delim = c
		pos = jsonscan.SkipSpace(r.data, pos+1)
		if pos >= len(r.data) {
			if r.needDelim('"') != delim {
				r.peekErr = r.delimError(delim, '"')
			} else {
				r.peekErr = r.syntaxError(errUnexpectedEOF, pos, 0, "")
			}
			return 0, r.peekErr
		}
	}
	next := kindOf(r.data[pos])
	if r.needDelim(next) != delim {
		r.peekErr = r.delimError(delim, next)
		return 0, r.peekErr
	}
	r.peekPos = pos
	return next, nil
}

// delimError is the error about a delimiter that does not fit the token
// after it.
func (r *reader) delimError(delim byte, next Kind) *Error {
	where := "at start of value"
	switch r.needDelim(next) {
	case ':':
		where = "after object name (expecting ':')"
	case ',':
		if r.last().obj {
			where = "after object value (expecting ',' or '}')"
		} else {
			where = "after array element (expecting ',' or ']')"
		}
	}
	pos := jsonscan.SkipSpace(r.data, r.prev)
	return r.syntaxError(invalidChar(r.data[pos:], where), pos, 0, "")
}

// take consumes the peeked position: the token or value there ends at end.
func (r *reader) take(start, end int) {
	r.peekPos = 0
	r.prevStart, r.prev = start, end
}

// readToken reads the next token: a scalar whole, or the opening or
// closing of an object or array. It returns the token's kind and bytes.
func (r *reader) readToken() (Kind, []byte, error) {
	k, err := r.peek()
	if err != nil {
		return 0, nil, err
	}
	pos := r.peekPos
	l := r.last()
	switch k {
	case 'n', 't', 'f', '"', '0':
		end, err := scalarEnd(r.data, pos, k)
		if err != nil {
			return 0, nil, r.fail(err, end, +1, "")
		}
		if k == '"' && l.needName() {
			if err := r.addName(pos, end); err != nil {
				return 0, nil, err
			}
		} else if l.needName() {
			return 0, nil, r.fail(errNonStringName, pos, +1, "")
		}
		l.n++
		r.take(pos, end)
		return k, r.data[pos:end], nil
	case '{', '[':
		switch {
		case l.needName():
			return 0, nil, r.fail(errNonStringName, pos, +1, "")
		case len(r.st) == maxDepth+1:
			return 0, nil, r.fail(errMaxDepth, pos, +1, "")
		}
		l.n++
		r.push(k == '{')
		r.take(pos, pos+1)
		return k, r.data[pos : pos+1], nil
	case '}', ']':
		switch {
		case len(r.st) == 1 || l.obj != (k == '}'):
			return 0, nil, r.fail(errMismatchDelim, pos, +1, "")
		case l.needValue():
			return 0, nil, r.fail(errMissingValue, pos, +1, "")
		}
		r.st = r.st[:len(r.st)-1]
		r.take(pos, pos+1)
		return k, r.data[pos : pos+1], nil
	}
	return 0, nil, r.fail(invalidChar(r.data[pos:], "at start of value"), pos, +1, "")
}

// fail records err as the reader's last word: a reader that failed reads
// no more.
func (r *reader) fail(err error, pos, where int, suffix string) error {
	e := r.syntaxError(err, pos, where, suffix)
	r.peekPos, r.peekErr = 0, e
	return e
}

// push opens an object or array.
func (r *reader) push(obj bool) {
	r.st = append(r.st, level{obj: obj})
	if obj {
		for len(r.names) < len(r.st) {
			r.names = append(r.names, nameSet{})
		}
		r.names[len(r.st)-1].reset()
	}
}

// nameSet is the set of member names of the current object.
func (r *reader) nameSet() *nameSet { return &r.names[len(r.st)-1] }

// addName records the member name data[start:end] (quoted) in the current
// object: an error when the object already has a member of that name.
func (r *reader) addName(start, end int) error {
	l := r.last()
	l.name = r.data[start+1 : end-1]
	if !l.own && !r.nameSet().add(r.data, start+1, end-1, hasEscape(l.name)) {
		l.n++ // the pointer names the repeated member
		return r.fail(ErrDuplicateName, start, -1, "")
	}
	return nil
}

// ownNames tells the reader that the decoder of the object just opened
// finds its repeated member names itself.
func (r *reader) ownNames() { r.last().own = true }

// addOwnName records the member name just read in an object whose
// decoder finds repeated names itself, for a name it does not find them
// for: an error when the object already has a member of that name.
func (r *reader) addOwnName() error {
	l := r.last()
	if !r.nameSet().add(r.data, r.prevStart+1, r.prev-1, hasEscape(l.name)) {
		return &Error{Pointer: r.pointer(-1), Offset: int64(r.prevStart), Err: ErrDuplicateName}
	}
	return nil
}

// readValue reads the next value whole and returns its kind and bytes.
func (r *reader) readValue() (Kind, []byte, error) {
	k, err := r.peek()
	if err != nil {
		return 0, nil, err
	}
	pos := r.peekPos
	l := r.last()
	end, suffix, err := r.consumeValue(pos, len(r.st))
	if err != nil {
		return 0, nil, r.fail(err, end, +1, suffix)
	}
	switch k {
	case '"':
		if l.needName() {
			if err := r.addName(pos, end); err != nil {
				return 0, nil, err
			}
		}
	case '{', '[':
		if l.needName() {
			return 0, nil, r.fail(errNonStringName, pos, +1, "")
		}
		if len(r.st) == maxDepth+1 {
			return 0, nil, r.fail(errMaxDepth, pos, +1, "")
		}
	default:
		if l.needName() {
			return 0, nil, r.fail(errNonStringName, pos, +1, "")
		}
	}
	l.n++
	r.take(pos, end)
	return k, r.data[pos:end], nil
}

// consumeValue checks the value at pos, which opens nesting level depth,
// and returns its end; or the position of its first fault, the fault, and
// the path to it inside the value.
func (r *reader) consumeValue(pos, depth int) (int, string, error) {
	switch k := kindOf(r.data[pos]); k {
	case 'n', 't', 'f', '"', '0':
		end, err := scalarEnd(r.data, pos, k)
		return end, "", err
	}
	if end := jsonscan.StrictEnd(r.data, pos, depth, maxDepth); end > 0 {
		return end, "", nil
	}
	end, rev, err := r.valueFault(pos, depth)
	var b strings.Builder
	for i := len(rev) - 1; i >= 0; i-- {
		b.WriteString(rev[i])
	}
	return end, b.String(), err
}

// valueFault finds the first fault of the value at pos, which the strict
// scanner refused, walking it once: the values inside it are walked by
// valueFault too (not checked by the scanner first), so that the walk
// stays linear however deep the value nests. A value without a fault
// gives its end.
//
// The path to the fault comes back as its pointer tokens ("/name",
// "/0"), innermost first.
func (r *reader) valueFault(pos, depth int) (int, []string, error) {
	d := r.data
	switch k := kindOf(d[pos]); k {
	case 'n', 't', 'f', '"', '0':
		end, err := scalarEnd(d, pos, k)
		return end, nil, err
	case '{':
		return r.objectFault(pos, depth)
	case '[':
		return r.arrayFault(pos, depth)
	}
	if l := r.last(); l.obj && d[pos] == ']' || !l.obj && len(r.st) > 1 && d[pos] == '}' {
		return pos, nil, errMismatchDelim
	}
	return pos, nil, invalidChar(d[pos:], "at start of value")
}

func (r *reader) objectFault(pos, depth int) (int, []string, error) {
	d := r.data
	pos, done, err := openFault(d, pos, depth, '}')
	if done || err != nil {
		return pos, nil, err
	}
	var names nameSet
	for {
		pos = jsonscan.SkipSpace(d, pos)
		if pos >= len(d) {
			return pos, nil, errUnexpectedEOF
		}
		start := pos
		end, err := stringEnd(d, pos)
		if err != nil {
			return end, nil, err
		}
		raw := d[start+1 : end-1]
		escaped := hasEscape(raw)
		name := string(appendToken(nil, decodeName(raw, escaped)))
		if !names.add(d, start+1, end-1, escaped) {
			return start, []string{name}, ErrDuplicateName
		}
		pos = jsonscan.SkipSpace(d, end)
		if pos >= len(d) {
			return pos, []string{name}, errUnexpectedEOF
		}
		if d[pos] != ':' {
			return pos, []string{name}, invalidChar(d[pos:], "after object name (expecting ':')")
		}
		pos = jsonscan.SkipSpace(d, pos+1)
		if pos >= len(d) {
			return pos, []string{name}, errUnexpectedEOF
		}
		end, rev, err := r.valueFault(pos, depth+1)
		if err != nil {
			return end, append(rev, name), err
		}
		if pos, done, err = nextFault(d, end, '}', "after object value (expecting ',' or '}')"); done || err != nil {
			return pos, nil, err
		}
	}
}

func (r *reader) arrayFault(pos, depth int) (int, []string, error) {
	d := r.data
	pos, done, err := openFault(d, pos, depth, ']')
	if done || err != nil {
		return pos, nil, err
	}
	for i := 0; ; i++ {
		pos = jsonscan.SkipSpace(d, pos)
		if pos >= len(d) {
			return pos, nil, errUnexpectedEOF
		}
		end, rev, err := r.valueFault(pos, depth+1)
		if err != nil {
			return end, append(rev, "/"+strconv.Itoa(i)), err
		}
		if pos, done, err = nextFault(d, end, ']', "after array element (expecting ',' or ']')"); done || err != nil {
			return pos, nil, err
		}
	}
}

// openFault steps into the object or array that opens at pos and closes
// with close: it gives the position after the opening and its space, or
// the end of an empty one with done, or its fault.
func openFault(d []byte, pos, depth int, close byte) (next int, done bool, err error) {
	if depth == maxDepth+1 {
		return pos, false, errMaxDepth
	}
	pos = jsonscan.SkipSpace(d, pos+1)
	switch {
	case pos >= len(d):
		return pos, false, errUnexpectedEOF
	case d[pos] == close:
		return pos + 1, true, nil
	}
	return pos, false, nil
}

// nextFault steps past what follows a member or element that ends at end,
// in an object or array that closes with close: a ',' (the position after
// it), or close (the end, with done). Anything else is a fault, told as
// "invalid character ... " + after.
func nextFault(d []byte, end int, close byte, after string) (next int, done bool, err error) {
	pos := jsonscan.SkipSpace(d, end)
	switch {
	case pos >= len(d):
		return pos, false, errUnexpectedEOF
	case d[pos] == ',':
		return pos + 1, false, nil
	case d[pos] == close:
		return pos + 1, true, nil
	}
	return pos, false, invalidChar(d[pos:], after)
}

// skipValue reads past the next value, token by token when it is an
// object or array.
func (r *reader) skipValue() error {
	k, err := r.peek()
	if err != nil {
		return err
	}
	if k != '{' && k != '[' {
		_, _, err := r.readValue()
		return err
	}
	depth := len(r.st)
	for {
		if _, _, err := r.readToken(); err != nil {
			return err
		}
		if len(r.st) <= depth {
			return nil
		}
	}
}

// end checks that nothing but whitespace follows the value read.
func (r *reader) end() error {
	pos := jsonscan.SkipSpace(r.data, r.prev)
	if pos < len(r.data) {
		return r.syntaxError(invalidChar(r.data[pos:], "after top-level value"), pos, 0, "")
	}
	return nil
}

func hasEscape(raw []byte) bool { return bytes.IndexByte(raw, '\\') >= 0 }
