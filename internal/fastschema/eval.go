package fastschema

// eval checks the value starting at i (not whitespace) against n. It returns
// the result and, when known, the index just after the value; the index is
// always known when the result is rOK, and then the value has been checked
// to be well formed.
func (s *state) eval(n *node, i int) (result, int) {
	if n.always {
		e, ok := s.skip(i)
		if !ok {
			return rBad, -1
		}
		return rOK, e
	}
	if n.never {
		return rFail, -1
	}
	if i >= len(s.data) {
		return rBad, -1
	}
	k := kindAt(s.data[i])
	if k == 0 {
		return rBad, -1
	}
	if n.unsup&k != 0 {
		return rUnk, -1
	}
	res, end := rOK, -1

	// type
	if n.types != 0 && n.types&k == 0 {
		if k != kNumber || n.types&kInteger == 0 {
			return rFail, -1
		}
		e, ok := s.scanNumber(i)
		if !ok {
			return rBad, -1
		}
		mark := len(s.buf)
		d, ok := s.parseDecimal(s.data[i:e])
		s.buf = s.buf[:mark]
		switch {
		case !ok:
			res = rUnk
		case !d.isInt():
			return rFail, -1
		}
		end = e
	}

	// const, enum
	if n.consts != nil {
		if r := s.matchConsts(n.consts, i); r != rOK {
			if r != rUnk {
				return r, -1
			}
			res = rUnk
		}
	}
	if n.enum != nil {
		if r := s.matchConsts(n.enum, i); r != rOK {
			if r != rUnk {
				return r, -1
			}
			res = rUnk
		}
	}
	if n.format != nil {
		if r := s.checkFormat(n.format, i); r != rOK {
			return r, -1
		}
	}

	// $ref
	if n.ref != nil {
		r, e := s.eval(n.ref, i)
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
		if n.refOnly {
			return s.finish(res, end, i)
		}
	}

	// keywords of the value's kind
	var r result
	e := -1
	switch k {
	case kObject:
		if n.obj != nil {
			r, e = s.evalObject(n.obj, i)
		}
	case kArray:
		if n.arr != nil {
			r, e = s.evalArray(n.arr, i)
		}
	case kString:
		if n.str != nil {
			r, e = s.evalString(n.str, i)
		}
	case kNumber:
		if n.num != nil {
			r, e = s.evalNumber(n.num, i)
		}
	}
	if res, end = and(res, end, r, e); res >= rFail {
		return res, -1
	}

	// applicators on the same value
	for _, sub := range n.allOf {
		r, e := s.eval(sub, i)
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
	}
	if n.anyOf != nil {
		r, e := s.anyOf(n, i)
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
	}
	if n.oneOf != nil {
		r, e := s.oneOf(n, i)
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
	}
	if n.not != nil {
		r, e := s.eval(n.not, i)
		switch r {
		case rOK:
			return rFail, -1
		case rFail:
			r = rOK
			e = -1
		}
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
	}
	if n.ifN != nil {
		r, e := s.ifThenElse(n, i)
		if res, end = and(res, end, r, e); res >= rFail {
			return res, -1
		}
	}
	return s.finish(res, end, i)
}

// finish completes a node's check: a success needs the value's end, which
// the keywords that ran may not have found.
func (s *state) finish(res result, end, i int) (result, int) {
	if res == rOK && end < 0 {
		e, ok := s.skip(i)
		if !ok {
			return rBad, -1
		}
		end = e
	}
	return res, end
}

// and combines the result so far with one more conjunct's, keeping the
// value's end when one of them found it.
func and(res result, end int, r result, e int) (result, int) {
	if r > res {
		res = r
	}
	if end < 0 && r == rOK {
		end = e
	}
	return res, end
}

// anyOf checks the value at i against n's anyOf alternatives.
func (s *state) anyOf(n *node, i int) (result, int) {
	if n.anyUnion != nil {
		alt, r := s.pick(n.anyUnion, i)
		if r != rOK {
			return r, -1
		}
		if alt == nil {
			return rFail, -1
		}
		return s.eval(alt, i)
	}
	res := rFail
	for _, sub := range n.anyOf {
		switch r, e := s.eval(sub, i); r {
		case rOK:
			return rOK, e
		case rBad:
			return rBad, -1
		case rUnk:
			res = rUnk
		}
	}
	return res, -1
}

// oneOf checks the value at i against n's oneOf alternatives: exactly one
// must accept it.
func (s *state) oneOf(n *node, i int) (result, int) {
	if n.oneUnion != nil {
		alt, r := s.pick(n.oneUnion, i)
		if r != rOK {
			return r, -1
		}
		if alt == nil {
			return rFail, -1
		}
		return s.eval(alt, i)
	}
	oks, unks, end := 0, 0, -1
	for _, sub := range n.oneOf {
		switch r, e := s.eval(sub, i); r {
		case rOK:
			oks++
			end = e
			if oks > 1 {
				return rFail, -1
			}
		case rBad:
			return rBad, -1
		case rUnk:
			unks++
		}
	}
	switch {
	case unks > 0:
		return rUnk, -1
	case oks == 1:
		return rOK, end
	}
	return rFail, -1
}

// ifThenElse checks the value at i against n's if, then and else.
func (s *state) ifThenElse(n *node, i int) (result, int) {
	r, _ := s.eval(n.ifN, i)
	switch r {
	case rBad:
		return rBad, -1
	case rOK:
		if n.thenN == nil {
			return rOK, -1
		}
		return s.eval(n.thenN, i)
	case rFail:
		if n.elseN == nil {
			return rOK, -1
		}
		return s.eval(n.elseN, i)
	}
	// The condition is undecided: the outcome is known only when both
	// branches agree.
	rt, et := rOK, -1
	if n.thenN != nil {
		rt, et = s.eval(n.thenN, i)
	}
	re, ee := rOK, -1
	if n.elseN != nil {
		re, ee = s.eval(n.elseN, i)
	}
	switch {
	case rt == rBad || re == rBad:
		return rBad, -1
	case rt == re && rt != rUnk:
		if et < 0 {
			et = ee
		}
		return rt, et
	}
	return rUnk, -1
}
