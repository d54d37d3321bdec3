package jsonformat

import (
	"errors"
	"net/url"
	"strings"
)

// The URI formats (RFC 3986; RFC 3987 for the IRI ones, which the library
// checks as URIs) are parsed by net/url, as the library parses them, so
// that the verdict follows the Go release both are built with. net/url is
// more lenient than RFC 3986 (it takes spaces and most other characters in
// a path, query or fragment, and does not check a query's percent
// escapes); that leniency is the library's verdict too.

// parseURI parses s as a URI reference, also checking what net/url leaves
// unchecked: a host with a colon must be a bracketed IPv6 address (RFC
// 3986's IP-literal) without a zone.
func parseURI(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, err
	}
	if host := u.Hostname(); strings.Contains(host, ":") {
		if !strings.Contains(u.Host, "[") || !strings.Contains(u.Host, "]") {
			return nil, errors.New("an IPv6 host not in brackets")
		}
		if err := checkIPv6(host); err != nil {
			return nil, err
		}
	}
	return u, nil
}

// checkURI checks an absolute URI: one with a scheme.
func checkURI(s string) error {
	u, err := parseURI(s)
	if err != nil {
		return err
	}
	if !u.IsAbs() {
		return errors.New("no scheme")
	}
	return nil
}

// checkURIReference checks a URI reference, absolute or relative. A
// backslash, which browsers read as a slash, is refused.
func checkURIReference(s string) error {
	if strings.Contains(s, `\`) {
		return errors.New("a backslash")
	}
	_, err := parseURI(s)
	return err
}

// checkURITemplate checks an RFC 6570 URI template as far as the library
// does: a URI reference whose path segments hold "{" and "}" in pairs,
// never nested.
//
// Where the library departs from the RFC: it looks at the braces only in
// the path, and only when net/url keeps the path as written (URL.RawPath,
// set when the written form is not net/url's own escaping of it, as when
// it holds a brace), each segment after percent-decoding (so "%7B" counts
// as "{"); so does this check. Expressions are not parsed.
func checkURITemplate(s string) error {
	u, err := parseURI(s)
	if err != nil {
		return err
	}
	for _, seg := range strings.Split(u.RawPath, "/") {
		open := false
		for i := 0; i < len(seg); i++ {
			switch brace(seg, i) {
			case '{':
				if open {
					return errors.New("nested braces")
				}
				open = true
			case '}':
				if !open {
					return errors.New("a } without its {")
				}
				open = false
			}
		}
		if open {
			return errors.New("a { without its }")
		}
	}
	return nil
}

// brace is the brace at seg[i], written or percent-encoded, or 0. The
// escapes of a RawPath are well-formed: net/url has decoded it once.
func brace(seg string, i int) byte {
	switch c := seg[i]; {
	case c == '{' || c == '}':
		return c
	case c == '%' && i+2 < len(seg) && seg[i+1] == '7':
		switch seg[i+2] {
		case 'B', 'b':
			return '{'
		case 'D', 'd':
			return '}'
		}
	}
	return 0
}
