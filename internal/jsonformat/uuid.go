package jsonformat

import "errors"

// checkUUID checks the RFC 4122 string form: 32 hexadecimal digits in
// groups of 8, 4, 4, 4 and 12 joined by hyphens, in either case.
func checkUUID(s string) error {
	if len(s) != 36 {
		return errors.New("not 36 characters long")
	}
	for i := 0; i < len(s); i++ {
		switch i {
		case 8, 13, 18, 23:
			if s[i] != '-' {
				return errors.New("hyphens not between groups of 8, 4, 4, 4 and 12")
			}
		default:
			if !isHex(s[i]) {
				return errors.New("not a hexadecimal digit")
			}
		}
	}
	return nil
}
