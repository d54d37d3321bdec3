package jsonformat

import (
	"errors"
	"net/netip"
	"strconv"
	"strings"
)

// checkIPv4 checks dotted-decimal IPv4 (RFC 2673's dotted-quad, RFC 3986's
// IPv4address): four numbers from 0 to 255 without leading zeros, joined by
// dots.
//
// Where the library departs from the RFCs: each number is read by
// strconv.Atoi, which takes a sign, and the leading-zero rule looks only at
// the first character; so "+1", "+001" and "-0" pass for a number, as they
// do here.
func checkIPv4(s string) error {
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return errors.New("not four numbers joined by dots")
	}
	for _, p := range parts {
		if len(p) > 1 && p[0] == '0' {
			return errors.New("a number with a leading zero")
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 255 {
			return errors.New("a number not from 0 to 255")
		}
	}
	return nil
}

// checkIPv6 checks an RFC 4291 text address (with "::" and an embedded
// IPv4 tail allowed, no zone), parsed by net/netip as the library does.
func checkIPv6(s string) error {
	if !strings.Contains(s, ":") {
		return errors.New("no colon")
	}
	addr, err := netip.ParseAddr(s)
	if err != nil {
		return err
	}
	if addr.Zone() != "" {
		return errors.New("a zone is not part of an address")
	}
	return nil
}
