package fastschema

import (
	"sync"
	"sync/atomic"
)

// Validator checks JSON texts against one compiled schema. Safe for
// concurrent use.
type Validator struct {
	root   *node
	exact  func() bool // computed on first use: only tests and tools ask
	states sync.Pool
	// recalled is the recurring value last found valid
	// (CheckWellFormedRecurring); an entry is never changed once stored.
	recalled atomic.Pointer[recalledValue]
}

// recalledValue is a recurring value a check found valid: its text, a
// whole object or array, the subschema of the property it was the value
// of, and the nesting depth it was checked at.
type recalledValue struct {
	node  *node
	depth int
	text  []byte
}

// maxRecalled is the longest recurring value a validator remembers.
const maxRecalled = 1024

// Check checks one JSON text. data is normally already known to be one
// well-formed JSON text, but Check never panics or loops on any input:
// malformed input answers Unknown. Leading and trailing JSON whitespace is
// allowed.
func (v *Validator) Check(data []byte) Verdict { return v.run(data, false, extent{}, extent{}) }

// CheckWellFormed is Check for a text the project's strict scanner has
// accepted (jsonscan.Strict, at any nesting limit): the verdict is the one
// Check gives, found with less work, since values no keyword constrains
// are stepped over without their grammar being checked again and member
// names are not compared for repeats. A value nested deeper than Check
// follows may be decided where Check answers Unknown. Given a text the
// strict scanner refuses, its verdict means nothing.
func (v *Validator) CheckWellFormed(data []byte) Verdict {
	return v.run(data, true, extent{}, extent{})
}

// CheckWellFormedKnowing is CheckWellFormed for a text in which the caller
// already knows where one value lies: the value that starts at data[start]
// ends just before data[end] (a message's params, which the reader found
// as it checked the message). A check that steps over that value takes
// its end from there instead of scanning it again; one that reads it
// reads it as CheckWellFormed does. Given a wrong extent, the verdict
// means nothing.
func (v *Validator) CheckWellFormedKnowing(data []byte, start, end int) Verdict {
	return v.run(data, true, extent{start, end}, extent{})
}

// CheckWellFormedRecurring is CheckWellFormed for a text in which the
// value at data[start:end], a member's value, recurs from text to text (the
// _meta of one client's requests, written the same every time). The
// validator remembers the last such value it found valid, an object or
// array of at most 1 KiB, with the property's subschema that checked it;
// a later check that finds the same bytes as the value of a property of
// the same subschema, at the same depth, takes it as valid without
// reading it. The verdict is CheckWellFormed's whatever the extent: a
// wrong one only keeps the value from being remembered.
func (v *Validator) CheckWellFormedRecurring(data []byte, start, end int) Verdict {
	return v.run(data, true, extent{}, extent{start, end})
}

// extent locates one value in a text: data[start:end]. The zero extent
// locates nothing (no value ends at 0).
type extent struct{ start, end int }

// run is Check (wellFormed false), CheckWellFormed, CheckWellFormedKnowing
// (known) and CheckWellFormedRecurring (recur), with a state from the
// validator's pool.
func (v *Validator) run(data []byte, wellFormed bool, known, recur extent) Verdict {
	if v == nil {
		return Valid
	}
	s := v.states.Get().(*state)
	if recur != (extent{}) {
		s.recur, s.recalled = recur, &v.recalled
	}
	verdict := s.check(v.root, data, wellFormed, known)
	s.reset(nil)
	s.recur, s.recalled = extent{}, nil
	v.states.Put(s)
	return verdict
}

// check runs one check of data against root; wellFormed and known are as
// for CheckWellFormedKnowing.
func (s *state) check(root *node, data []byte, wellFormed bool, known extent) Verdict {
	s.reset(data)
	s.wellFormed, s.known = wellFormed, known
	i := s.ws(0)
	if i >= len(data) {
		return Unknown
	}
	r, end := s.eval(root, i)
	switch r {
	case rOK:
	case rFail:
		// The check may have stopped before the end: the verdict stands
		// only for a well-formed text.
		s.reset(data)
		s.wellFormed, s.known = wellFormed, known
		e, ok := s.skip(i)
		if !ok {
			return Unknown
		}
		end = e
	default:
		return Unknown
	}
	if s.ws(end) != len(data) {
		return Unknown
	}
	if r == rOK {
		return Valid
	}
	return Invalid
}

// ArrayOnly reports whether the schema's own "type" keyword accepts arrays
// and not objects.
func (v *Validator) ArrayOnly() bool {
	return v != nil && v.root.types&kArray != 0 && v.root.types&kObject == 0
}

// Exact reports whether the schema uses only supported keywords everywhere
// reachable, so Check never answers Unknown for well-formed input except
// for the documented number cases (exponents or fractions longer than
// 100000 digits, where the oracle's arithmetic gives up) and nesting deeper
// than 10000.
func (v *Validator) Exact() bool {
	return v == nil || v.exact()
}

// accepts reports whether n asserts nothing: it accepts every value.
func (n *node) accepts() bool {
	return !n.never && n.unsup == 0 && n.types == 0 && n.consts == nil && n.enum == nil &&
		n.format == nil && n.ref == nil && n.allOf == nil && n.anyOf == nil && n.oneOf == nil &&
		n.not == nil && n.ifN == nil && n.obj == nil && n.arr == nil && n.str == nil && n.num == nil
}

// exact reports whether no node reachable from root answers Unknown for a
// keyword it does not support.
func exact(root *node) bool {
	seen := map[*node]bool{}
	ok := true
	var walk func(n *node)
	walk = func(n *node) {
		if n == nil || seen[n] || !ok {
			return
		}
		seen[n] = true
		if n.ready().unsup != 0 {
			ok = false
			return
		}
		for _, c := range n.children() {
			walk(c)
		}
	}
	walk(root)
	return ok
}

// children lists every node n may apply, to the same value or to parts of
// it.
func (n *node) children() []*node {
	var out []*node
	n.forInPlace(func(c *node) { out = append(out, c) })
	if o := n.obj; o != nil {
		for _, e := range o.names {
			out = append(out, e.prop)
		}
		for _, p := range o.patterns {
			out = append(out, p.node)
		}
		out = append(out, o.addl, o.propNames)
	}
	if a := n.arr; a != nil {
		out = append(out, a.prefix...)
		out = append(out, a.rest, a.contains)
	}
	return out
}

// forInPlace calls f with each node n applies to the very value it checks,
// without making a list.
func (n *node) forInPlace(f func(*node)) {
	for _, c := range [...]*node{n.ref, n.not, n.ifN, n.thenN, n.elseN} {
		if c != nil {
			f(c)
		}
	}
	for _, l := range [...][]*node{n.allOf, n.anyOf, n.oneOf} {
		for _, c := range l {
			if c != nil {
				f(c)
			}
		}
	}
	if o := n.obj; o != nil {
		for _, d := range o.depSchemas {
			if d.node != nil {
				f(d.node)
			}
		}
	}
}

// markInPlaceCycles marks as unsupported every node that can reach itself
// without moving to a part of the value ({"anyOf": [{"$ref": "#"}]}): the
// oracle reports such cycles as errors, and following them would not end.
// It finds the strongly connected components of the in-place graph with
// Tarjan's algorithm.
func markInPlaceCycles(all []*node) {
	var stack []*node
	index := 0
	var visit func(n *node)
	visit = func(n *node) {
		n.index, n.low = index, index
		index++
		stack = append(stack, n)
		n.onStack = true
		n.forInPlace(func(c *node) {
			if c.index < 0 {
				visit(c)
				n.low = min(n.low, c.low)
			} else if c.onStack {
				n.low = min(n.low, c.index)
			}
		})
		if n.low != n.index {
			return
		}
		var comp []*node
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			top.onStack = false
			comp = append(comp, top)
			if top == n {
				break
			}
		}
		selfLoop := false
		n.forInPlace(func(c *node) { selfLoop = selfLoop || c == n })
		if len(comp) > 1 || selfLoop {
			for _, c := range comp {
				c.unsupported(kAll, "cycle of in-place references")
			}
		}
	}
	for _, n := range all {
		if n.index < 0 {
			visit(n)
		}
	}
}

// Refuses returns a schema feature that Explain cannot evaluate
// ($dynamicRef, $recursiveRef) when the validator's schema uses one, ""
// when it uses none: a caller that must explain every failure refuses such
// a schema when it compiles it, rather than at its first Unknown.
func (v *Validator) Refuses() string {
	if v == nil {
		return ""
	}
	seen := map[*node]bool{}
	var walk func(n *node) string
	walk = func(n *node) string {
		if n == nil || seen[n] {
			return ""
		}
		seen[n] = true
		if n.ready().refuse != "" {
			return n.refuse
		}
		for _, c := range append(n.children(), n.uneProps, n.uneItems) {
			if r := walk(c); r != "" {
				return r
			}
		}
		return ""
	}
	return walk(v.root)
}
