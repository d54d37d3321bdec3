package jsonformat

import "errors"

// checkJSONPointer checks an RFC 6901 JSON pointer: empty, or "/" and
// reference tokens in which "~" only escapes "0" or "1". Every other
// character is allowed in a token.
func checkJSONPointer(s string) error {
	if s == "" {
		return nil
	}
	if s[0] != '/' {
		return errors.New("does not start with /")
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			continue
		}
		if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return errors.New("~ is not followed by 0 or 1")
		}
		i++
	}
	return nil
}

// checkRelativeJSONPointer checks a relative JSON pointer
// (draft-handrews-relative-json-pointer-01): a non-negative integer without
// leading zeros, then "#" or a JSON pointer. The later drafts' index
// adjustment ("0+1") is not part of the form the library knows.
func checkRelativeJSONPointer(s string) error {
	digits := 0
	for digits < len(s) && isDigit(s[digits]) {
		digits++
	}
	switch {
	case digits == 0:
		return errors.New("does not start with a non-negative integer")
	case digits > 1 && s[0] == '0':
		return errors.New("the integer has a leading zero")
	}
	if rest := s[digits:]; rest != "#" {
		return checkJSONPointer(rest)
	}
	return nil
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isAlpha reports whether c is an ASCII letter.
func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// isHex reports whether c is an ASCII hexadecimal digit.
func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
