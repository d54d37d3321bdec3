package fastschema

import (
	"bytes"
	"math"
	"math/big"
)

// maxExponent bounds the decimal exponent and the fraction length of the
// numbers the checker reasons about. Beyond it the oracle's big.Rat parsing
// fails or gets expensive (it refuses exponents past 1e6), so keywords that
// need a number's value answer Unknown instead.
const maxExponent = 100000

// decimal is an exact decimal number: 0.digits × 10^exp, negative when neg.
// digits has no leading or trailing zeros; zero has no digits.
type decimal struct {
	neg    bool
	digits []byte
	exp    int64
}

// isZero reports whether d is zero.
func (d decimal) isZero() bool { return len(d.digits) == 0 }

// isInt reports whether d is an integer.
func (d decimal) isInt() bool { return d.isZero() || d.exp >= int64(len(d.digits)) }

// int64 returns d as an int64 when d is an integer of at most 18 digits.
func (d decimal) int64() (int64, bool) {
	if d.isZero() {
		return 0, true
	}
	if !d.isInt() || d.exp > 18 {
		return 0, false
	}
	var v int64
	for _, c := range d.digits {
		v = v*10 + int64(c-'0')
	}
	for k := int64(len(d.digits)); k < d.exp; k++ {
		v *= 10
	}
	if d.neg {
		v = -v
	}
	return v, true
}

// cmpDecimal compares a and b exactly: -1, 0 or +1.
func cmpDecimal(a, b decimal) int {
	sa, sb := sign(a), sign(b)
	if sa != sb {
		if sa < sb {
			return -1
		}
		return 1
	}
	if sa == 0 {
		return 0
	}
	var m int
	switch {
	case a.exp < b.exp:
		m = -1
	case a.exp > b.exp:
		m = 1
	default:
		m = bytes.Compare(a.digits, b.digits)
	}
	return m * sa
}

// sign returns -1, 0 or +1.
func sign(d decimal) int {
	switch {
	case d.isZero():
		return 0
	case d.neg:
		return -1
	}
	return 1
}

// parseDecimal reads the JSON number text t (already checked) into a
// decimal whose digits are appended to the arena of s. It reports false when
// the exponent or the fraction is beyond maxExponent.
func (s *state) parseDecimal(t []byte) (decimal, bool) {
	d, buf, ok := appendDecimal(s.buf, t)
	s.buf = buf
	return d, ok
}

// appendDecimal reads the JSON number text t (already checked) into a
// decimal whose digits are appended to buf. It reports false, leaving buf
// as it was, when the exponent or the fraction is beyond maxExponent.
func appendDecimal[T string | []byte](buf []byte, t T) (decimal, []byte, bool) {
	var d decimal
	i := 0
	if t[0] == '-' {
		d.neg = true
		i++
	}
	mark := len(buf)
	intDigits := int64(0) // significant digits before the point
	fracDigits := int64(0)
	started := false
	for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
		if t[i] != '0' || started {
			started = true
			buf = append(buf, t[i])
			intDigits++
		}
	}
	lead := int64(0) // zeros after the point before the first significant digit
	if i < len(t) && t[i] == '.' {
		i++
		for ; i < len(t) && t[i] >= '0' && t[i] <= '9'; i++ {
			fracDigits++
			if t[i] != '0' || started {
				started = true
				buf = append(buf, t[i])
			} else {
				lead++
			}
		}
	}
	var e int64
	if i < len(t) && (t[i] == 'e' || t[i] == 'E') {
		i++
		neg := false
		if t[i] == '+' || t[i] == '-' {
			neg = t[i] == '-'
			i++
		}
		for ; i < len(t); i++ {
			e = e*10 + int64(t[i]-'0')
			if e > maxExponent {
				buf = buf[:mark]
				return d, buf, false
			}
		}
		if neg {
			e = -e
		}
	}
	if fracDigits > maxExponent {
		buf = buf[:mark]
		return d, buf, false
	}
	digs := buf[mark:]
	for len(digs) > 0 && digs[len(digs)-1] == '0' {
		digs = digs[:len(digs)-1]
	}
	if len(digs) == 0 {
		return decimal{}, buf, true
	}
	d.digits = digs
	// The point sits after intDigits significant digits, or lead zeros
	// before the first one.
	if intDigits > 0 {
		d.exp = intDigits + e
	} else {
		d.exp = -lead + e
	}
	return d, buf, true
}

// powerOfFive returns b when n is 5^b with b at most maxExponent.
func powerOfFive(n *big.Int) (int, bool) {
	if n.Cmp(big.NewInt(1)) == 0 {
		return 0, true
	}
	if n.Bit(0) == 0 {
		return 0, false
	}
	// 5^b has between b·log2(5) and b·log2(5)+1 bits.
	guess := int(float64(n.BitLen()) / math.Log2(5))
	if guess > maxExponent+1 {
		return 0, false
	}
	var p big.Int
	for b := max(guess-1, 1); b <= guess+1 && b <= maxExponent; b++ {
		if p.Exp(big.NewInt(5), big.NewInt(int64(b)), nil).Cmp(n) == 0 {
			return b, true
		}
	}
	return 0, false
}

// ratDecimal returns r as a decimal when its expansion terminates within
// maxExponent digits.
func ratDecimal(r *big.Rat) (decimal, bool) {
	if r.Sign() == 0 {
		return decimal{}, true
	}
	// The expansion terminates when the denominator is 2^a × 5^b. Both
	// are found without dividing a step at a time, which costs seconds
	// for a denominator of 10^99999.
	den := new(big.Int).Set(r.Denom())
	a := int(den.TrailingZeroBits())
	if a > maxExponent {
		return decimal{}, false
	}
	den.Rsh(den, uint(a))
	b, ok := powerOfFive(den)
	if !ok {
		return decimal{}, false
	}
	k := max(a, b)
	if k > maxExponent {
		return decimal{}, false
	}
	n := new(big.Int).Abs(r.Num())
	n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
	n.Quo(n, r.Denom())
	str := []byte(n.String())
	t := 0
	for len(str) > 0 && str[len(str)-1] == '0' {
		str = str[:len(str)-1]
		t++
	}
	return decimal{neg: r.Sign() < 0, digits: str, exp: int64(len(str)) + int64(t) - int64(k)}, true
}
