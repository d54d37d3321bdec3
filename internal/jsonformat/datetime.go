package jsonformat

import (
	"errors"
	"strconv"
)

// checkDate checks an RFC 3339 full-date: YYYY-MM-DD, the day within the
// month (29 February only in leap years of the Gregorian calendar).
func checkDate(s string) error {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return errors.New("not YYYY-MM-DD")
	}
	for _, i := range []int{0, 1, 2, 3, 5, 6, 8, 9} {
		if !isDigit(s[i]) {
			return errors.New("not YYYY-MM-DD")
		}
	}
	year, month, day := digits(s[0:4]), digits(s[5:7]), digits(s[8:10])
	if month < 1 || month > 12 {
		return errors.New("month out of range")
	}
	if day < 1 || day > daysIn(month, year) {
		return errors.New("day out of range")
	}
	return nil
}

// digits is the value of a run of ASCII digits.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// daysIn is the number of days of month in year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// checkTime checks an RFC 3339 full-time: hh:mm:ss, an optional fraction
// of a second, then "Z" (or "z") or an offset ±hh:mm. A leap second (:60)
// must fall at 23:59 UTC.
//
// Where the library departs from the RFC: each two-character field is read
// by strconv.Atoi, so "+5" and "-0" pass for a field, as they do here.
func checkTime(s string) error {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return errors.New("not hh:mm:ss and an offset")
	}
	h, okH := timeField(s[0:2])
	m, okM := timeField(s[3:5])
	sec, okS := timeField(s[6:8])
	if !okH || !okM || !okS {
		return errors.New("hour, minute or second not a number")
	}
	if h > 23 || m > 59 || sec > 60 {
		return errors.New("hour, minute or second out of range")
	}
	rest := s[8:]
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && isDigit(rest[n]) {
			n++
		}
		if n == 1 {
			return errors.New("no digits after the decimal point")
		}
		rest = rest[n:]
	}
	utc := h*60 + m // minutes into the day, in UTC
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, okH := timeField(rest[1:3])
		om, okM := timeField(rest[4:6])
		if !okH || !okM {
			return errors.New("offset not a number")
		}
		if oh > 23 || om > 59 {
			return errors.New("offset out of range")
		}
		off := oh*60 + om
		if rest[0] == '+' {
			off = -off
		}
		utc = (utc + off + 24*60) % (24 * 60)
	default:
		return errors.New("no Z or ±hh:mm offset")
	}
	if sec == 60 && utc != 23*60+59 {
		return errors.New("leap second not at 23:59 UTC")
	}
	return nil
}

// timeField reads a two-character field of a time as the library does,
// with strconv.Atoi: two digits, or a sign and a digit; never negative.
func timeField(s string) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0
}

// checkDateTime checks an RFC 3339 date-time: a full-date, "T" (or "t"),
// a full-time.
func checkDateTime(s string) error {
	if len(s) < 20 {
		return errors.New("too short for a date, T and a time")
	}
	if s[10] != 'T' && s[10] != 't' {
		return errors.New("no T between the date and the time")
	}
	if err := checkDate(s[:10]); err != nil {
		return err
	}
	return checkTime(s[11:])
}
