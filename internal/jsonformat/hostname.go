package jsonformat

import (
	"errors"
	"strings"
)

// checkHostname checks an RFC 1123 host name: labels of 1 to 63 ASCII
// letters, digits and hyphens, not starting or ending with a hyphen,
// joined by dots, at most 253 characters without the one trailing dot a
// fully qualified name may have.
func checkHostname(s string) error {
	s = strings.TrimSuffix(s, ".")
	if len(s) > 253 {
		return errors.New("longer than 253 characters")
	}
	for _, label := range strings.Split(s, ".") {
		if len(label) < 1 || len(label) > 63 {
			return errors.New("a label not 1 to 63 characters long")
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return errors.New("a label starting or ending with a hyphen")
		}
		for i := 0; i < len(label); i++ {
			if c := label[i]; !isAlpha(c) && !isDigit(c) && c != '-' {
				return errors.New("a character other than a letter, a digit or a hyphen")
			}
		}
	}
	return nil
}
