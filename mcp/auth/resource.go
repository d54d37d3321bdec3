package auth

import (
	"net/url"
	"strings"
)

// canonicalResource returns the form of a resource URI that identifies
// it: scheme and host lower-cased, default port dropped, no fragment, no
// trailing slash. A string that is no URL is returned unchanged.
func canonicalResource(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return s
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	if (u.Scheme == "https" && strings.HasSuffix(u.Host, ":443")) || (u.Scheme == "http" && strings.HasSuffix(u.Host, ":80")) {
		u.Host = u.Host[:strings.LastIndexByte(u.Host, ':')]
	}
	u.Fragment = ""
	u.RawFragment = ""
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = ""
	return u.String()
}

// resourceCovers reports whether the protected resource identified by
// resource covers the URL target: same origin, and resource's path equal
// to target's or a parent of it on a segment boundary.
func resourceCovers(resource, target string) bool {
	r, err1 := url.Parse(canonicalResource(resource))
	t, err2 := url.Parse(canonicalResource(target))
	if err1 != nil || err2 != nil || r.Host == "" {
		return false
	}
	if r.Scheme != t.Scheme || r.Host != t.Host || r.RawQuery != "" {
		return false
	}
	return r.Path == "" || t.Path == r.Path || strings.HasPrefix(t.Path, r.Path+"/")
}
