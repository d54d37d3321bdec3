package fastschema

// evalArray checks the array at i against the array keywords a.
func (s *state) evalArray(a *arrayRules, i int) (result, int) {
	s.depth++
	r, e := s.evalArrayBody(a, i)
	s.depth--
	return r, e
}

// evalArrayBody walks the elements once: each is checked against its
// prefixItems or items schema and against contains; the counts are checked
// at the end.
func (s *state) evalArrayBody(a *arrayRules, i int) (result, int) {
	if s.depth > maxDepth {
		return rBad, -1
	}
	res := rOK
	n := 0
	contained, maybe := 0, 0 // elements contains accepts, or may accept
	var it items
	it.open(s, i)
	for it.next(s) {
		v := it.val
		r, e := rOK, -1
		switch {
		case n < len(a.prefix):
			r, e = s.eval(a.prefix[n], v)
		case a.restFalse:
			r = rFail
		case a.rest != nil:
			r, e = s.eval(a.rest, v)
		}
		if r >= rFail {
			return r, -1
		}
		if r == rUnk {
			res = rUnk
		}
		if a.contains != nil {
			cr, ce := s.eval(a.contains, v)
			switch cr {
			case rBad:
				return rBad, -1
			case rOK:
				contained++
				if e < 0 {
					e = ce
				}
			case rUnk:
				maybe++
			}
		}
		if e < 0 {
			var ok bool
			if e, ok = s.skip(v); !ok {
				return rBad, -1
			}
		}
		n++
		it.after(s, e)
	}
	if !it.ok {
		return rBad, -1
	}
	if (a.minItems >= 0 && n < a.minItems) || (a.maxItems >= 0 && n > a.maxItems) {
		return rFail, -1
	}
	if a.contains != nil {
		if contained+maybe < a.minContains || (a.maxContains >= 0 && contained > a.maxContains) {
			return rFail, -1
		}
		if contained < a.minContains || (a.maxContains >= 0 && contained+maybe > a.maxContains) {
			res = rUnk
		}
	}
	if a.unique && n > 1 {
		switch r := s.uniqueItems(i); r {
		case rOK:
		case rUnk:
			res = rUnk
		default:
			return r, -1
		}
	}
	return res, it.end
}
