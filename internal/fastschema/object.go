package fastschema

import "bytes"

// presenceWords is the size of the presence bit set kept on the stack; more
// member names than 64×presenceWords allocate one.
const presenceWords = 4

// lookup returns the position of the decoded member name key in o.names,
// or -1.
func (o *objectRules) lookup(key []byte) int {
	if o.index != nil {
		if i, ok := o.index[string(key)]; ok {
			return int(i)
		}
		return -1
	}
	for i := range o.names {
		if o.names[i].name == string(key) {
			return i
		}
	}
	return -1
}

// evalObject checks the object at i against the object keywords o.
func (s *state) evalObject(o *objectRules, i int) (result, int) {
	s.depth++
	r, e := s.evalObjectBody(o, i)
	s.depth--
	return r, e
}

// evalObjectBody walks the members once: each name is looked up among the
// names the keywords mention (marking it present), its value checked
// against properties, patternProperties or additionalProperties, and the
// name against propertyNames; the counts, required names and dependencies
// are checked at the end.
func (s *state) evalObjectBody(o *objectRules, i int) (result, int) {
	if s.depth > maxDepth {
		return rBad, -1
	}
	var stack [presenceWords]uint64
	present := stack[:]
	if o.nwords > presenceWords {
		present = make([]uint64, o.nwords)
	}
	res := rOK
	var m members
	m.byCaller = true
	m.open(s, i)
	for m.next(s) {
		mark := len(s.buf)
		key := s.decodedKey(m.key)
		v := m.val
		r, e := rOK, -1
		evaluated := false
		p := o.lookup(key)
		switch {
		case p < 0:
			if !m.unknownName(s) {
				m.close(s)
				return rBad, -1
			}
		case present[p>>6]&(1<<(p&63)) != 0:
			m.close(s)
			return rBad, -1 // a duplicate name
		}
		if p >= 0 {
			present[p>>6] |= 1 << (p & 63)
			if sub := o.names[p].prop; sub != nil {
				sub.ready() // a program's member schema: decoded now, the first time
				evaluated = true
				if v == s.recur.start && s.recalled != nil {
					r, e = s.evalRecurring(sub, v)
				} else {
					r, e = s.eval(sub, v)
				}
			}
		}
		for k := range o.patterns {
			if r >= rFail {
				break
			}
			p := &o.patterns[k]
			if p.match(key) {
				evaluated = true
				pr, pe := s.eval(p.node, v)
				r, e = and(r, e, pr, pe)
			}
		}
		if !evaluated && r < rFail {
			if o.addlFalse {
				r = rFail
			} else if o.addl != nil {
				r, e = s.eval(o.addl, v)
			}
		}
		if o.propNames != nil && r < rFail {
			nr, _ := s.eval(o.propNames, m.keyPos)
			r, _ = and(r, e, nr, -1)
		}
		s.buf = s.buf[:mark]
		if r >= rFail {
			m.close(s)
			return r, -1
		}
		if r == rUnk {
			res = rUnk
		}
		if e < 0 {
			var ok bool
			if e, ok = s.skip(v); !ok {
				m.close(s)
				return rBad, -1
			}
		}
		m.after(s, e)
	}
	if !m.ok {
		return rBad, -1
	}
	if (o.minProps >= 0 && m.count < o.minProps) || (o.maxProps >= 0 && m.count > o.maxProps) {
		return rFail, -1
	}
	for _, p := range o.required {
		if present[p>>6]&(1<<(p&63)) == 0 {
			return rFail, -1
		}
	}
	for _, dep := range o.depRequired {
		if present[dep.trigger>>6]&(1<<(dep.trigger&63)) == 0 {
			continue
		}
		for _, p := range dep.required {
			if present[p>>6]&(1<<(p&63)) == 0 {
				return rFail, -1
			}
		}
	}
	for _, dep := range o.depSchemas {
		if present[dep.trigger>>6]&(1<<(dep.trigger&63)) == 0 {
			continue
		}
		r, _ := s.eval(dep.node, i)
		if r >= rFail {
			return r, -1
		}
		if r == rUnk {
			res = rUnk
		}
	}
	return res, m.end
}

// evalRecurring is eval for the recurring value of a check
// (CheckWellFormedRecurring), the value of a property whose subschema is
// n: bytes the validator remembers as valid under n at this depth are
// stepped over (an object's or an array's bytes fix where it ends); any
// other value is checked, and remembered when valid.
func (s *state) evalRecurring(n *node, i int) (result, int) {
	if m := s.recalled.Load(); m != nil && m.node == n && m.depth == s.depth && bytes.HasPrefix(s.data[i:], m.text) {
		return rOK, i + len(m.text)
	}
	r, e := s.eval(n, i)
	if r == rOK && s.wellFormed && e == s.recur.end && e-i <= maxRecalled && (s.data[i] == '{' || s.data[i] == '[') {
		s.recalled.Store(&recalledValue{node: n, depth: s.depth, text: bytes.Clone(s.data[i:e])})
	}
	return r, e
}
