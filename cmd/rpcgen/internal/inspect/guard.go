package inspect

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
)

// TokenHeader is the request header the page sends the token in; a URL
// carries it as the query parameter "token" instead.
const TokenHeader = "X-Inspect-Token"

// newToken returns 32 random bytes, URL-safe base64.
func newToken() string {
	var b [32]byte
	rand.Read(b[:]) // never fails (crypto/rand's contract)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// guard refuses a request that does not carry the token, names another
// host, or comes from another origin. Host and Origin must be exactly the
// inspector's own: a page elsewhere, even on another loopback port, is
// refused, and so is a DNS name rebound to 127.0.0.1.
type guard struct {
	token  string
	host   string // "127.0.0.1:PORT"
	origin string // "http://127.0.0.1:PORT"
	next   http.Handler
}

func (g *guard) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if why := g.refuse(r); why != "" {
		code := http.StatusForbidden
		if why == refusedToken {
			code = http.StatusUnauthorized
		}
		http.Error(w, why, code)
		return
	}
	h := w.Header()
	// The token is in the page's URL: no Referer may carry it off (a
	// URL-mode elicitation links elsewhere), no cache may keep it, no
	// other page may frame this one.
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; media-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'")
	g.next.ServeHTTP(w, r)
}

// The reasons a request is refused.
const (
	refusedHost   = "the Host header does not name this inspector"
	refusedOrigin = "the request comes from another origin"
	refusedToken  = "the request lacks this inspector's token"
)

// refuse returns why r must be refused, or "".
func (g *guard) refuse(r *http.Request) string {
	if r.Host != g.host {
		return refusedHost
	}
	if o, ok := r.Header["Origin"]; ok && (len(o) != 1 || o[0] != g.origin) {
		return refusedOrigin
	}
	// A browser says where a request comes from even when it sends no
	// Origin (a GET from a page's script or an <img>).
	switch r.Header.Get("Sec-Fetch-Site") {
	case "", "same-origin", "none":
	default:
		return refusedOrigin
	}
	tok := r.Header.Get(TokenHeader)
	if tok == "" {
		tok = r.URL.Query().Get("token")
	}
	if subtle.ConstantTimeCompare([]byte(tok), []byte(g.token)) != 1 {
		return refusedToken
	}
	return ""
}
