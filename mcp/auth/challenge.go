package auth

import (
	"net/http"
	"sort"
	"strings"
)

// Challenge is one challenge of a WWW-Authenticate header (RFC 9110
// §11.6.1): a scheme and its parameters.
type Challenge struct {
	// Scheme is the authentication scheme as sent ("Bearer", "DPoP").
	Scheme string
	// Params are the auth-params, names lower-cased, values unquoted.
	Params map[string]string
}

// String renders the challenge with every parameter value quoted, in the
// order resource_metadata, scope, error, error_description, then the rest
// by name.
func (c Challenge) String() string {
	var b strings.Builder
	b.WriteString(c.Scheme)
	first := true
	for _, name := range paramOrder(c.Params) {
		if first {
			b.WriteByte(' ')
			first = false
		} else {
			b.WriteString(", ")
		}
		b.WriteString(name)
		b.WriteString(`="`)
		b.WriteString(quoteEscape(c.Params[name]))
		b.WriteByte('"')
	}
	return b.String()
}

var leadingParams = []string{"resource_metadata", "scope", "error", "error_description"}

func paramOrder(params map[string]string) []string {
	var names []string
	for _, n := range leadingParams {
		if _, ok := params[n]; ok {
			names = append(names, n)
		}
	}
	var rest []string
	for n := range params {
		if !contains(leadingParams, n) {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	return append(names, rest...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteEscape(s string) string {
	if !strings.ContainsAny(s, `"\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == '"' || r == '\\' {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// ParseChallenges reads every challenge of the WWW-Authenticate headers
// in h. What cannot be parsed ends the parse; the challenges read until
// then are returned.
func ParseChallenges(h http.Header) []Challenge {
	var out []Challenge
	for _, v := range h.Values("WWW-Authenticate") {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

// FindChallenge returns the first challenge of scheme (compared without
// case) among cs.
func FindChallenge(cs []Challenge, scheme string) (Challenge, bool) {
	for _, c := range cs {
		if strings.EqualFold(c.Scheme, scheme) {
			return c, true
		}
	}
	return Challenge{}, false
}

// challengeParser walks one header value.
type challengeParser struct {
	s string
	i int
}

func parseChallenges(v string) []Challenge {
	p := &challengeParser{s: v}
	var out []Challenge
	for {
		p.skipSpaceAndCommas()
		if p.i >= len(p.s) {
			return out
		}
		scheme := p.token()
		if scheme == "" {
			return out
		}
		c := Challenge{Scheme: scheme, Params: map[string]string{}}
		p.skipSpace()
		// Parameters until the next scheme (a token not followed by '=').
		for p.i < len(p.s) {
			save := p.i
			p.skipSpaceAndCommas()
			name := p.token()
			p.skipSpace()
			if name == "" || p.i >= len(p.s) || p.s[p.i] != '=' {
				p.i = save // the next challenge's scheme, or the end
				break
			}
			p.i++ // '='
			p.skipSpace()
			// token68 form "abc==" of a scheme with no params.
			if p.i >= len(p.s) || p.s[p.i] == ',' || p.s[p.i] == '=' {
				for p.i < len(p.s) && p.s[p.i] == '=' {
					p.i++
				}
				continue
			}
			var val string
			if p.s[p.i] == '"' {
				var ok bool
				if val, ok = p.quoted(); !ok {
					out = append(out, c)
					return out
				}
			} else {
				val = p.token()
			}
			c.Params[strings.ToLower(name)] = val
		}
		out = append(out, c)
		if p.i >= len(p.s) {
			return out
		}
	}
}

func (p *challengeParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

func (p *challengeParser) skipSpaceAndCommas() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == ',') {
		p.i++
	}
}

// token reads an RFC 9110 token (and the token68 characters / + . _ ~ -).
func (p *challengeParser) token() string {
	start := p.i
	for p.i < len(p.s) && isTokenChar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

func isTokenChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~/:", c) >= 0
}

// quoted reads a quoted-string at p.i, undoing backslash escapes.
func (p *challengeParser) quoted() (string, bool) {
	var b strings.Builder
	p.i++ // opening quote
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch c {
		case '\\':
			if p.i+1 < len(p.s) {
				b.WriteByte(p.s[p.i+1])
			}
			p.i += 2
		case '"':
			p.i++
			return b.String(), true
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return b.String(), false
}
