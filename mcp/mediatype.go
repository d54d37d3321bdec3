package mcp

import (
	"mime"
	"net/http"
	"strings"
)

// isJSONBody reports whether a request's Content-Type names
// application/json (parameters such as a charset allowed). The exact
// header value every client sends is recognised without parsing.
func isJSONBody(r *http.Request) bool {
	ct := headerValue(r.Header, "Content-Type")
	if ct == "application/json" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}

// accepts reports whether the request's Accept header admits a media type:
// the type itself, its major type with a wildcard, or */*, unless with
// q=0. A part written plainly (no parameters) is compared without parsing;
// any other part is parsed with mime.ParseMediaType.
func accepts(r *http.Request, mediaType string) bool {
	major, _, _ := strings.Cut(mediaType, "/")
	for _, line := range r.Header["Accept"] {
		for rest := line; rest != ""; {
			var part string
			part, rest, _ = strings.Cut(rest, ",")
			part = strings.TrimSpace(part)
			if !strings.ContainsRune(part, ';') {
				// Clients write the type in lower case: an exact match
				// is one comparison, EqualFold one per character.
				if part == mediaType || strings.EqualFold(part, mediaType) || part == "*/*" ||
					(len(part) == len(major)+2 && strings.EqualFold(part[:len(major)], major) && part[len(major):] == "/*") {
					return true
				}
				if isPlainMediaType(part) {
					continue // a valid type, and another one
				}
			}
			if acceptsPart(part, mediaType, major) {
				return true
			}
		}
	}
	return false
}

// isPlainMediaType reports whether s is type/subtype made of the
// characters tokens are commonly written with, so that parsing it could
// only say it names another type.
func isPlainMediaType(s string) bool {
	slash := strings.IndexByte(s, '/')
	if slash <= 0 || slash == len(s)-1 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == slash:
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9',
			c == '-', c == '+', c == '.', c == '_':
		default:
			return false
		}
	}
	return true
}

// acceptsPart parses one part of an Accept header and reports whether it
// admits mediaType.
func acceptsPart(part, mediaType, major string) bool {
	mt, params, err := mime.ParseMediaType(part)
	if err != nil {
		return false
	}
	if q, ok := params["q"]; ok && strings.Trim(q, "0.") == "" {
		return false
	}
	return mt == mediaType || mt == major+"/*" || mt == "*/*"
}
