package jsonformat

import (
	"errors"
	"strings"
)

// checkDuration checks an RFC 3339 (Appendix A) duration: "P", then either
// a number of weeks ("P3W"), or date elements (Y, M, D) and, after "T",
// at least one time element (H, M, S), each element a run of digits and
// its unit, the units in that order.
//
// Where the library departs from the RFC: the RFC's grammar lets an
// element be left out only at the ends ("P1Y2M", "P2M3D", never "P1Y3D");
// the library takes any of the units as long as their order holds, and so
// does this check.
func checkDuration(s string) error {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok {
		return errors.New("does not start with P")
	}
	if rest == "" {
		return errors.New("nothing after P")
	}
	if weeks, ok := strings.CutSuffix(rest, "W"); ok {
		if weeks == "" || strings.TrimLeft(weeks, "0123456789") != "" {
			return errors.New("weeks not a number")
		}
		return nil
	}
	date, clock, hasT := strings.Cut(rest, "T")
	if err := durationElements(date, "YMD"); err != nil {
		return err
	}
	if !hasT {
		return nil
	}
	if clock == "" {
		return errors.New("no time elements after T")
	}
	return durationElements(clock, "HMS")
}

// durationElements checks a run of elements (digits and a unit), whose
// units are taken from units in order, each at most once.
func durationElements(s, units string) error {
	for s != "" {
		n := 0
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if n == 0 {
			return errors.New("an element has no number")
		}
		if n == len(s) {
			return errors.New("a number has no unit")
		}
		i := strings.IndexByte(units, s[n])
		if i < 0 {
			return errors.New("a unit out of place or unknown")
		}
		units, s = units[i+1:], s[n+1:]
	}
	return nil
}

// checkPeriod checks an RFC 3339 (Appendix A) period: two date-times, a
// date-time and a duration, or a duration and a date-time, joined by "/".
func checkPeriod(s string) error {
	start, end, ok := strings.Cut(s, "/")
	if !ok {
		return errors.New("no / between start and end")
	}
	if strings.HasPrefix(start, "P") {
		if err := checkDuration(start); err != nil {
			return err
		}
		return checkDateTime(end)
	}
	if err := checkDateTime(start); err != nil {
		return err
	}
	if strings.HasPrefix(end, "P") {
		return checkDuration(end)
	}
	return checkDateTime(end)
}
