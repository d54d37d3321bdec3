// Package jsonscan walks JSON text in place: it finds the end of a value,
// steps through the members of an object and compares or decodes member
// names and strings, without building a tree and, on the common paths,
// without allocating.
//
// It holds the project's only strict JSON scanner (Strict, StrictEnd,
// Members, Explain, and the token scanners StringEnd and NumberEnd they
// are made of): valid UTF-8, no lone surrogate escapes, no
// repeated member names, a nesting limit. The rpc connection and its
// parser, rpc.ReadEnvelope (and so mcp), DecodeMembers and
// internal/fastschema all check text with it; Explain gives the reason
// for a refusal that rpc's -32700 errors quote. The lax walkers (End,
// Object, Member, Array) read text that has already been checked.
package jsonscan

import "bytes"

// isSpace reports whether c is JSON whitespace.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first byte at or after i that is not
// JSON whitespace.
func SkipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// End returns the index just past the JSON value that starts at data[i]
// (no leading whitespace), or -1 when no well-formed value starts there.
// Nesting is tracked with a counter, so depth costs nothing.
func End(data []byte, i int) int {
	if i >= len(data) {
		return -1
	}
	switch c := data[i]; {
	case c == '"':
		return stringEnd(data, i)
	case c == '{' || c == '[':
		return compositeEnd(data, i)
	case c == 't':
		return literalEnd(data, i, "true")
	case c == 'f':
		return literalEnd(data, i, "false")
	case c == 'n':
		return literalEnd(data, i, "null")
	case c == '-' || (c >= '0' && c <= '9'):
		return numberEnd(data, i, nil)
	}
	return -1
}

func literalEnd(data []byte, i int, word string) int {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// numberEnd accepts the JSON number grammar; f (when not nil) says why it
// refuses a number.
func numberEnd(data []byte, i int, f *Fault) int {
	if data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	case i < len(data) && data[i] >= '1' && data[i] <= '9':
		i = digitsEnd(data, i)
	default:
		return f.set(i, "invalid number")
	}
	if i < len(data) && data[i] == '.' {
		if i = digitsEnd(data, i+1); data[i-1] == '.' {
			return f.set(i, "invalid number: no digits after '.'")
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		start := i
		if i = digitsEnd(data, i); i == start {
			return f.set(i, "invalid number: no digits in the exponent")
		}
	}
	return i
}

// digitsEnd returns the index of the first byte at or after i that is not
// a decimal digit.
func digitsEnd(data []byte, i int) int {
	for i < len(data) && data[i] >= '0' && data[i] <= '9' {
		i++
	}
	return i
}

// stringEnd returns the index past the closing quote of the string at i.
// Runs of plain ASCII are skipped (PlainEnd), as in strictString; the
// bytes that end them are then looked at one by one.
func stringEnd(data []byte, i int) int {
	for i++; i < len(data); i++ {
		if i = PlainEnd(data, i); i >= len(data) {
			break
		}
		switch c := data[i]; {
		case c == '"':
			return i + 1
		case c == '\\':
			i++
		case c < 0x20:
			return -1
		}
	}
	return -1
}

// compositeEnd returns the index past the object or array at i, counting
// brackets and stepping over strings; the grammar inside is checked only
// as far as bracket balance.
func compositeEnd(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '"':
			e := stringEnd(data, i)
			if e < 0 {
				return -1
			}
			i = e - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// Depth returns how many levels of objects and arrays the well-formed
// value data nests: 0 for a string, number or literal, 1 for an object or
// array holding none, and so on.
func Depth(data []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			e := stringEnd(data, i)
			if e < 0 {
				return deepest
			}
			i = e - 1
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// Value returns the bytes of the one JSON value data holds, without the
// whitespace around it.
func Value(data []byte) ([]byte, bool) {
	i := SkipSpace(data, 0)
	e := End(data, i)
	if e < 0 || SkipSpace(data, e) != len(data) {
		return nil, false
	}
	return data[i:e], true
}

// Object steps through the members of one JSON object in place.
type Object struct {
	data  []byte
	known []byte // a whole object or array the text may hold (Knowing)
	pos   int
	bad   bool
}

// Knowing tells the walk one value the text may hold, so that a member
// whose value starts with its bytes is handed out without its extent being
// scanned: known must be a whole object or array (it starts with '{' or
// '['), since the bytes of such a value fix where it ends. A caller that
// has seen a member's value before (the same _meta on every request of
// one client) skips it this way. Given anything else, the values the walk
// returns mean nothing.
func (o *Object) Knowing(known []byte) {
	if len(known) > 0 && (known[0] == '{' || known[0] == '[') {
		o.known = known
	}
}

// NewObject starts stepping through data, which must hold one JSON object
// (whitespace around it allowed); ok is false when it does not start with
// '{'.
func NewObject(data []byte) (o Object, ok bool) {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return Object{bad: true}, false
	}
	return Object{data: data, pos: i + 1}, true
}

// Next returns the next member: its name as raw string content (between
// the quotes, escapes left as written) and its value's bytes. ok is false
// at the end of the object; Err then tells whether the end was reached
// cleanly.
func (o *Object) Next() (name, value []byte, ok bool) {
	if o.bad || o.pos < 0 {
		return nil, nil, false
	}
	d := o.data
	i := SkipSpace(d, o.pos)
	if i < len(d) && d[i] == '}' {
		o.pos = -1
		return nil, nil, false
	}
	if i < len(d) && d[i] == ',' {
		i = SkipSpace(d, i+1)
	}
	if i >= len(d) || d[i] != '"' {
		o.bad = true
		return nil, nil, false
	}
	ke := stringEnd(d, i)
	if ke < 0 {
		o.bad = true
		return nil, nil, false
	}
	name = d[i+1 : ke-1]
	i = SkipSpace(d, ke)
	if i >= len(d) || d[i] != ':' {
		o.bad = true
		return nil, nil, false
	}
	i = SkipSpace(d, i+1)
	var ve int
	if k := o.known; len(k) > 0 && i < len(d) && d[i] == k[0] && bytes.HasPrefix(d[i:], k) {
		ve = i + len(k)
	} else {
		ve = End(d, i)
	}
	if ve < 0 {
		o.bad = true
		return nil, nil, false
	}
	value = d[i:ve]
	o.pos = ve
	return name, value, true
}

// Err reports whether stepping stopped on malformed input rather than at
// the end of the object.
func (o *Object) Err() bool { return o.bad }

// Member returns the value of the member named name in the object data,
// and whether there is one.
func Member(data []byte, name string) ([]byte, bool) {
	o, ok := NewObject(data)
	if !ok {
		return nil, false
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			return nil, false
		}
		if NameIs(k, name) {
			return v, true
		}
	}
}

// NameIs reports whether a raw member name (as Object.Next returns it)
// decodes to name.
func NameIs(raw []byte, name string) bool {
	if len(raw) == len(name) {
		return string(raw) == name && !hasEscape(raw)
	}
	// An escape is longer than what it stands for: only a longer name
	// with escapes can decode to name.
	if len(raw) < len(name) || !hasEscape(raw) {
		return false
	}
	s, ok := unescape(raw)
	return ok && s == name
}

// Name decodes a raw member name.
func Name(raw []byte) (string, bool) {
	if !hasEscape(raw) {
		return string(raw), true
	}
	return unescape(raw)
}

// String decodes a JSON string value (with its quotes); ok is false when
// value is not a string.
func String(value []byte) (string, bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return "", false
	}
	return Name(value[1 : len(value)-1])
}

// StringIs reports whether value is a JSON string equal to s, without
// allocating when the string has no escapes.
func StringIs(value []byte, s string) bool {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return false
	}
	return NameIs(value[1:len(value)-1], s)
}

func hasEscape(raw []byte) bool { return bytes.IndexByte(raw, '\\') >= 0 }

// unescape decodes string content that has escapes, the rare path: it
// checks the content with StringEnd and decodes it with AppendUnescaped.
func unescape(raw []byte) (string, bool) {
	q := make([]byte, 0, len(raw)+2)
	q = append(append(append(q, '"'), raw...), '"')
	if end, _ := StringEnd(q, 0); end != len(q) {
		return "", false
	}
	return string(AppendUnescaped(q[:0], raw)), true
}
