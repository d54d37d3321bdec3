package gen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// nodeKind is the JSON type of a node.
type nodeKind int

const (
	kindNull nodeKind = iota
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k nodeKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// node is one JSON value that remembers the order of object members, which
// the generator needs: property order is the positional order of params.
type node struct {
	kind    nodeKind
	boolean bool
	number  json.Number
	str     string
	items   []*node
	members []member
	ptr     string // JSON pointer of this value inside its document
}

type member struct {
	key string
	val *node
}

// get returns the value of an object member, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kindObject {
		return nil
	}
	for _, m := range n.members {
		if m.key == key {
			return m.val
		}
	}
	return nil
}

// child returns the member or item named by one unescaped pointer token.
func (n *node) child(tok string) *node {
	switch n.kind {
	case kindObject:
		return n.get(tok)
	case kindArray:
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i >= len(n.items) || strconv.Itoa(i) != tok {
			return nil
		}
		return n.items[i]
	}
	return nil
}

// lookup follows an RFC 6901 JSON pointer from n.
func (n *node) lookup(ptr string) (*node, bool) {
	if ptr == "" {
		return n, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	cur := n
	for _, tok := range strings.Split(ptr[1:], "/") {
		cur = cur.child(unescapePointerToken(tok))
		if cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// int64 returns the value of a number node that holds an integral value
// fitting an int64 (1 and 1.0 alike).
func (n *node) int64() (int64, bool) {
	if n.kind != kindNumber {
		return 0, false
	}
	i, err := strconv.ParseInt(n.number.String(), 10, 64)
	if err == nil {
		return i, true
	}
	f, err := strconv.ParseFloat(n.number.String(), 64)
	if err != nil || f != float64(int64(f)) || f > 1<<62 || f < -(1<<62) {
		return 0, false
	}
	return int64(f), true
}

func escapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// validPointerEscapes reports whether every "~" of a JSON pointer starts
// one of RFC 6901's two escapes, "~0" and "~1". A pointer that broke the
// rule would name a member by a second spelling, and the schema there
// would become a second Go type.
func validPointerEscapes(ptr string) bool {
	for i := 0; i < len(ptr); i++ {
		if ptr[i] == '~' && (i+1 == len(ptr) || (ptr[i+1] != '0' && ptr[i+1] != '1')) {
			return false
		}
	}
	return true
}

func unescapePointerToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

func pointerJoin(base string, toks ...string) string {
	var b strings.Builder
	b.WriteString(base)
	for _, t := range toks {
		b.WriteByte('/')
		b.WriteString(escapePointerToken(t))
	}
	return b.String()
}

// syntaxError is a JSON parse failure; ptr is where the parser was.
type syntaxError struct {
	ptr string
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// parseJSON decodes one JSON document into a node tree. It rejects invalid
// UTF-8, duplicate object keys and trailing data, which encoding/json would
// otherwise let through silently.
func parseJSON(data []byte) (*node, error) {
	if !utf8.Valid(data) {
		return nil, &syntaxError{msg: "not valid UTF-8"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &parser{dec: dec}
	n, err := p.value("")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, &syntaxError{msg: "unexpected data after the top-level value"}
	}
	return n, nil
}

type parser struct {
	dec *json.Decoder
}

func (p *parser) fail(ptr string, err error) error {
	if errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return &syntaxError{ptr: ptr, msg: fmt.Sprintf("invalid JSON at byte %d: %v", p.dec.InputOffset(), err)}
}

func (p *parser) value(ptr string) (*node, error) {
	tok, err := p.dec.Token()
	if err != nil {
		return nil, p.fail(ptr, err)
	}
	return p.fromToken(tok, ptr)
}

func (p *parser) fromToken(tok json.Token, ptr string) (*node, error) {
	n := &node{ptr: ptr}
	switch t := tok.(type) {
	case nil:
		n.kind = kindNull
	case bool:
		n.kind, n.boolean = kindBool, t
	case json.Number:
		n.kind, n.number = kindNumber, t
	case string:
		n.kind, n.str = kindString, t
	case json.Delim:
		switch t {
		case '[':
			n.kind = kindArray
			for p.dec.More() {
				item, err := p.value(pointerJoin(ptr, strconv.Itoa(len(n.items))))
				if err != nil {
					return nil, err
				}
				n.items = append(n.items, item)
			}
		case '{':
			n.kind = kindObject
			seen := map[string]bool{}
			for p.dec.More() {
				kt, err := p.dec.Token()
				if err != nil {
					return nil, p.fail(ptr, err)
				}
				key, ok := kt.(string)
				if !ok {
					return nil, p.fail(ptr, fmt.Errorf("object key is not a string"))
				}
				if seen[key] {
					return nil, &syntaxError{ptr: ptr, msg: fmt.Sprintf("duplicate key %q", key)}
				}
				seen[key] = true
				val, err := p.value(pointerJoin(ptr, key))
				if err != nil {
					return nil, err
				}
				n.members = append(n.members, member{key: key, val: val})
			}
		default:
			return nil, p.fail(ptr, fmt.Errorf("unexpected %q", t))
		}
		if _, err := p.dec.Token(); err != nil { // the closing delimiter
			return nil, p.fail(ptr, err)
		}
	}
	return n, nil
}
