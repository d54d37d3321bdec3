package jsonscan

import "unicode/utf8"

// PlainString returns the content of value (between the quotes) when value
// is exactly one JSON string, with nothing around it, that has no escapes:
// valid UTF-8 with no control characters. Any other value, including a
// valid string written with escapes, is not ok.
func PlainString(value []byte) ([]byte, bool) {
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return nil, false
	}
	content := value[1 : len(value)-1]
	ascii := true
	for _, c := range content {
		switch {
		case c == '"' || c == '\\' || c < 0x20:
			return nil, false
		case c >= 0x80:
			ascii = false
		}
	}
	if !ascii && !utf8.Valid(content) {
		return nil, false
	}
	return content, true
}

// maxSmallDigits is how many digits SmallInt reads: every integer of that
// many digits fits an int64.
const maxSmallDigits = 18

// SmallInt returns the integer value is when value is exactly a JSON
// number written as an integer (no fraction, no exponent, nothing around
// it) of at most 18 digits, so that it fits an int64 whatever its digits.
func SmallInt(value []byte) (int64, bool) {
	digits := value
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > maxSmallDigits || digits[0] == '0' && len(digits) > 1 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if len(digits) < len(value) {
		n = -n
	}
	return n, true
}

// IsNumber reports whether value is exactly one JSON number, with nothing
// around it.
func IsNumber(value []byte) bool {
	if len(value) == 0 || value[0] != '-' && (value[0] < '0' || value[0] > '9') {
		return false
	}
	return numberEnd(value, 0, nil) == len(value)
}

// Bare reports whether value starts and ends with something other than
// JSON whitespace: a value with whitespace around it is not bare.
func Bare(value []byte) bool {
	return len(value) > 0 && !isSpace(value[0]) && !isSpace(value[len(value)-1])
}

// Array steps through the elements of one JSON array in place. It checks
// the brackets and the commas between elements; the bytes of each element
// are found by End, which does not check them: a caller decodes each one
// with a decoder that does.
type Array struct {
	data    []byte
	pos     int
	started bool
	state   membersState
}

// NewArray starts stepping through data, which must be exactly one JSON
// array with nothing around it; ok is false when it does not start with '['.
func NewArray(data []byte) (a Array, ok bool) {
	if len(data) == 0 || data[0] != '[' {
		return Array{state: membersBad}, false
	}
	return Array{data: data, pos: 1}, true
}

// Next returns the next element's bytes. ok is false at the end of the
// array or at the first fault; Err tells which.
func (a *Array) Next() (elem []byte, ok bool) {
	if a.state != membersStepping {
		return nil, false
	}
	d := a.data
	i := SkipSpace(d, a.pos)
	if i < len(d) && d[i] == ']' && !a.started {
		return a.close(i)
	}
	if a.started {
		switch {
		case i >= len(d):
			return a.fail()
		case d[i] == ']':
			return a.close(i)
		case d[i] == ',':
			i = SkipSpace(d, i+1)
		default:
			return a.fail()
		}
	}
	a.started = true
	e := End(d, i)
	if e < 0 {
		return a.fail()
	}
	a.pos = e
	return d[i:e], true
}

// close ends the walk at the closing bracket at i, the array's last byte.
func (a *Array) close(i int) ([]byte, bool) {
	if i+1 != len(a.data) {
		return a.fail()
	}
	a.state = membersDone
	return nil, false
}

func (a *Array) fail() ([]byte, bool) {
	a.state = membersBad
	return nil, false
}

// Err reports whether the walk stopped on a fault rather than at the end
// of the array.
func (a *Array) Err() bool { return a.state == membersBad }
