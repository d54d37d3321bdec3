package auth

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// dpopProver makes DPoP proofs (RFC 9449) with one key and remembers the
// nonces servers hand out, per origin.
type dpopProver struct {
	key crypto.Signer
	jwk map[string]any

	mu     sync.Mutex
	nonces map[string]string
}

// newDPoPProver returns a prover with key, or a new P-256 key when nil.
func newDPoPProver(key crypto.Signer) (*dpopProver, error) {
	if key == nil {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		key = k
	}
	jwk, err := publicJWK(key)
	if err != nil {
		return nil, err
	}
	return &dpopProver{key: key, jwk: jwk, nonces: map[string]string{}}, nil
}

// proof returns a proof for a request of method to u; accessToken, when
// not empty, is hashed into ath.
func (p *dpopProver) proof(method string, u *url.URL, accessToken string) (string, error) {
	htu := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	claims := map[string]any{"jti": randomString(16), "htm": method, "htu": htu.String(), "iat": time.Now().Unix()}
	if n := p.nonce(u); n != "" {
		claims["nonce"] = n
	}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = b64.EncodeToString(sum[:])
	}
	return signJWT(p.key, map[string]any{"typ": "dpop+jwt", "jwk": p.jwk}, claims)
}

func (p *dpopProver) nonce(u *url.URL) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.nonces[u.Scheme+"://"+u.Host]
}

// learn records the nonce a response hands out; it reports whether the
// nonce is new.
func (p *dpopProver) learn(u *url.URL, h http.Header) bool {
	n := h.Get("DPoP-Nonce")
	if n == "" {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	key := u.Scheme + "://" + u.Host
	if p.nonces[key] == n {
		return false
	}
	p.nonces[key] = n
	return true
}

// dpopTransport puts a fresh proof on every request it carries, bound
// to the access token of an Authorization "DPoP" header when there is
// one, and repeats a request once when the server answers that it wants
// a (new) nonce: 400 use_dpop_nonce from an authorization server, 401
// with a DPoP error="use_dpop_nonce" challenge from a resource server.
type dpopTransport struct {
	base   http.RoundTripper
	prover *dpopProver
}

// RoundTrip sends req with a proof.
func (t *dpopTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	var token string
	if scheme, tok, ok := strings.Cut(req.Header.Get("Authorization"), " "); ok && strings.EqualFold(scheme, "DPoP") {
		token = strings.TrimSpace(tok)
	}
	for attempt := 0; ; attempt++ {
		proof, err := t.prover.proof(req.Method, req.URL, token)
		if err != nil {
			return nil, err
		}
		r := withBody(req, body)
		r.Header.Set("DPoP", proof)
		resp, err := t.base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		fresh := t.prover.learn(req.URL, resp.Header)
		if attempt > 0 || !fresh || !wantsNonce(resp) {
			return resp, nil
		}
		drain(resp)
	}
}

// wantsNonce reports whether resp asks for a DPoP nonce; it leaves the
// body readable.
func wantsNonce(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusUnauthorized:
		c, ok := FindChallenge(ParseChallenges(resp.Header), "DPoP")
		return ok && c.Params["error"] == "use_dpop_nonce"
	case http.StatusBadRequest:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
		var e struct {
			Error string `json:"error"`
		}
		return json.Unmarshal(b, &e) == nil && e.Error == "use_dpop_nonce"
	}
	return false
}

// readBody reads a request's body so that it can be sent again.
func readBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	return io.ReadAll(req.Body)
}

// withBody clones req with a fresh reader over body.
func withBody(req *http.Request, body []byte) *http.Request {
	r := req.Clone(req.Context())
	if body == nil {
		r.Body = http.NoBody
		r.GetBody = func() (io.ReadCloser, error) { return http.NoBody, nil }
		return r
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	r.ContentLength = int64(len(body))
	return r
}

// drain discards what is left of a response and closes it, so that its
// connection can be used again.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
