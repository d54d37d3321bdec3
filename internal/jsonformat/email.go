package jsonformat

import (
	"errors"
	"strings"
)

// atextOrDot are the characters of an unquoted local part besides letters
// and digits: RFC 5322's atext and the dot that joins dot-atoms.
const atextOrDot = ".!#$%&'*+-/=?^_`{|}~"

// checkEmail checks an address (RFC 5321 Mailbox, RFC 5322 addr-spec): a
// local part of at most 64 octets, "@" (the last one), and a host name or
// an address literal ("[192.0.2.1]", "[IPv6:2001:db8::1]"), at most 254
// octets in all. The local part is a dot-atom, or a quoted string without
// backslashes or quotes inside.
//
// Where the library departs from the RFCs: it accepts an empty local part,
// a quoted one holding any other character (space, control characters,
// non-ASCII), and an IPv4 literal with its number quirks (see checkIPv4);
// so does this check.
func checkEmail(s string) error {
	if len(s) > 254 {
		return errors.New("longer than 254 characters")
	}
	at := strings.LastIndexByte(s, '@')
	if at < 0 {
		return errors.New("no @")
	}
	local, domain := s[:at], s[at+1:]
	if len(local) > 64 {
		return errors.New("local part longer than 64 characters")
	}
	if err := checkLocalPart(local); err != nil {
		return err
	}
	if literal, ok := strings.CutPrefix(domain, "["); ok {
		if literal, ok := strings.CutSuffix(literal, "]"); ok {
			if ip, ok := strings.CutPrefix(literal, "IPv6:"); ok {
				return checkIPv6(ip)
			}
			return checkIPv4(literal)
		}
	}
	return checkHostname(domain)
}

// checkLocalPart checks the part of an address before the "@".
func checkLocalPart(local string) error {
	if len(local) > 1 && local[0] == '"' && local[len(local)-1] == '"' {
		if strings.ContainsAny(local[1:len(local)-1], `\"`) {
			return errors.New(`backslash or quote inside a quoted local part`)
		}
		return nil
	}
	if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
		return errors.New("local part with a dot at an end or two dots in a row")
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; !isAlpha(c) && !isDigit(c) && !strings.ContainsRune(atextOrDot, rune(c)) {
			return errors.New("local part with a character outside atext")
		}
	}
	return nil
}
