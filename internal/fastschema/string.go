package fastschema

import (
	"unicode/utf8"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// evalString checks the string at i against the string keywords st.
// Lengths count the code points of the decoded string, as the oracle does.
func (s *state) evalString(st *stringRules, i int) (result, int) {
	e, esc, ok := s.scanString(i)
	if !ok {
		return rBad, -1
	}
	str := s.data[i+1 : e-1]
	mark := len(s.buf)
	if esc {
		s.buf = jsonscan.AppendUnescaped(s.buf, str)
		str = s.buf[mark:]
	}
	res := rOK
	if st.minLen >= 0 || st.maxLen >= 0 {
		n := utf8.RuneCount(str)
		if (st.minLen >= 0 && n < st.minLen) || (st.maxLen >= 0 && n > st.maxLen) {
			res = rFail
		}
	}
	if res == rOK && st.pattern != nil && !matchRegexp(st.pattern, st.gore, str) {
		res = rFail
	}
	s.buf = s.buf[:mark]
	return res, e
}
