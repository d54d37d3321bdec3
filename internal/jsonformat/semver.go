package jsonformat

import (
	"errors"
	"strings"
)

// checkSemver checks a semantic version (semver 2.0.0's grammar):
// MAJOR.MINOR.PATCH without leading zeros, then an optional "-" and
// pre-release identifiers (numeric ones without leading zeros), then an
// optional "+" and build identifiers, identifiers being non-empty runs of
// ASCII letters, digits and hyphens separated by dots.
func checkSemver(s string) error {
	s, build, hasBuild := strings.Cut(s, "+")
	if hasBuild {
		if err := identifiers(build, false); err != nil {
			return errors.New("build: " + err.Error())
		}
	}
	core, pre, hasPre := strings.Cut(s, "-")
	if hasPre {
		if err := identifiers(pre, true); err != nil {
			return errors.New("pre-release: " + err.Error())
		}
	}
	parts := strings.Split(core, ".")
	if len(parts) != 3 {
		return errors.New("not three numbers joined by dots")
	}
	for _, p := range parts {
		if !isNumber(p) {
			return errors.New("a version number is not a number without leading zeros")
		}
	}
	return nil
}

// identifiers checks dot-separated semver identifiers; numeric ones may
// not have leading zeros when noLeadingZero is set (pre-release).
func identifiers(s string, noLeadingZero bool) error {
	for _, id := range strings.Split(s, ".") {
		if id == "" {
			return errors.New("empty identifier")
		}
		numeric := true
		for i := 0; i < len(id); i++ {
			c := id[i]
			switch {
			case isDigit(c):
			case isAlpha(c) || c == '-':
				numeric = false
			default:
				return errors.New("identifier with a character other than [0-9A-Za-z-]")
			}
		}
		if noLeadingZero && numeric && len(id) > 1 && id[0] == '0' {
			return errors.New("numeric identifier with a leading zero")
		}
	}
	return nil
}

// isNumber reports whether s is a non-empty run of ASCII digits without a
// leading zero (but "0" itself).
func isNumber(s string) bool {
	if s == "" || len(s) > 1 && s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return true
}
