package fastschema

import "math/big"

// evalNumber checks the number at i against the number keywords nr.
// Bounds compare exactly, on the decimal digits; multipleOf divides
// integers directly and falls back to big.Rat otherwise.
func (s *state) evalNumber(nr *numberRules, i int) (result, int) {
	e, ok := s.scanNumber(i)
	if !ok {
		return rBad, -1
	}
	text := s.data[i:e]
	mark := len(s.buf)
	defer func() { s.buf = s.buf[:mark] }()
	d, ok := s.parseDecimal(text)
	if !ok {
		return rUnk, e
	}
	var rat *big.Rat
	for k := range nr.bounds {
		b := &nr.bounds[k]
		var c int
		if b.exact {
			c = cmpDecimal(d, b.dec)
		} else {
			if rat == nil {
				rat, _ = new(big.Rat).SetString(string(text))
			}
			c = rat.Cmp(b.rat)
		}
		if !b.op.pass(c) {
			return rFail, -1
		}
	}
	if nr.multipleOf != nil {
		if v, ok := d.int64(); ok && nr.multInt > 0 {
			return boolResult(v%nr.multInt == 0), e
		}
		if rat == nil {
			rat, _ = new(big.Rat).SetString(string(text))
		}
		if !new(big.Rat).Quo(rat, nr.multipleOf).IsInt() {
			return rFail, -1
		}
	}
	return rOK, e
}
