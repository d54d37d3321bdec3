package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

// fakeAS is an authorization server for the tests: metadata, dynamic
// registration, an authorization endpoint that approves at once, and a
// token endpoint for every grant the Transport uses. It records what it
// is sent.
type fakeAS struct {
	t   *testing.T
	srv *httptest.Server

	// Configuration, set before use.
	path           string   // issuer path ("" or "/tenant1")
	metadataIssuer string   // issuer the metadata names; "" means the real one
	issMode        string   // iss in the redirect: "" correct, "omit", "wrong", "slash"
	advertiseIss   bool     // authorization_response_iss_parameter_supported
	cimd           bool     // client_id_metadata_document_supported
	noRegistration bool     // no registration endpoint
	noPKCE         bool     // no code_challenge_methods_supported
	authMethods    []string // token_endpoint_auth_methods_supported
	regMethod      string   // token_endpoint_auth_method the registration returns
	regError       string   // refuse every registration with this error
	regNoID        bool     // answer registrations without a client_id
	noAccessToken  bool     // answer token requests without an access_token
	scopes         []string // scopes_supported
	grants         []string // grant_types_supported
	dpopAlgs       []string // dpop_signing_alg_values_supported
	expiresIn      int      // of issued tokens; 0 means 3600
	refresh        bool     // issue refresh tokens
	denyAuthorize  bool     // answer the authorization with error=access_denied
	tokenError     string   // refuse every token request with this error
	dpopNonce      string   // demand this DPoP nonce at the token endpoint
	clientKey      *ecdsa.PublicKey
	audience       string // of issued tokens

	mu         sync.Mutex
	authReqs   []url.Values
	tokenReqs  []*http.Request
	tokenForms []url.Values
	regs       []map[string]any
	challenge  string
	issued     map[string]*auth.TokenInfo
	n          int
}

func newFakeAS(t *testing.T, configure func(*fakeAS)) *fakeAS {
	a := &fakeAS{t: t, issued: map[string]*auth.TokenInfo{}, advertiseIss: true, authMethods: []string{"none", "client_secret_basic", "client_secret_post"}}
	if configure != nil {
		configure(a)
	}
	a.srv = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *fakeAS) issuer() string { return a.srv.URL + a.path }

func (a *fakeAS) metadataPath() string {
	if a.path == "" {
		return "/.well-known/oauth-authorization-server"
	}
	return "/.well-known/oauth-authorization-server" + a.path
}

func (a *fakeAS) serve(w http.ResponseWriter, r *http.Request) {
	base := a.issuer()
	switch r.URL.Path {
	case a.metadataPath():
		md := map[string]any{
			"issuer":                                base,
			"authorization_endpoint":                base + "/authorize",
			"token_endpoint":                        base + "/token",
			"response_types_supported":              []string{"code"},
			"token_endpoint_auth_methods_supported": a.authMethods,
		}
		if a.metadataIssuer != "" {
			md["issuer"] = a.metadataIssuer
		}
		if !a.noRegistration {
			md["registration_endpoint"] = base + "/register"
		}
		if !a.noPKCE {
			md["code_challenge_methods_supported"] = []string{"S256"}
		}
		if a.advertiseIss {
			md["authorization_response_iss_parameter_supported"] = true
		}
		if a.cimd {
			md["client_id_metadata_document_supported"] = true
		}
		if a.scopes != nil {
			md["scopes_supported"] = a.scopes
		}
		if a.grants != nil {
			md["grant_types_supported"] = a.grants
		}
		if a.dpopAlgs != nil {
			md["dpop_signing_alg_values_supported"] = a.dpopAlgs
		}
		writeJSON(w, 200, md)
	case a.path + "/register":
		var reg map[string]any
		require.NoError(a.t, json.NewDecoder(r.Body).Decode(&reg))
		a.mu.Lock()
		a.regs = append(a.regs, reg)
		a.n++
		id := fmt.Sprintf("client-%d", a.n)
		a.mu.Unlock()
		if a.regError != "" {
			writeJSON(w, 400, map[string]string{"error": a.regError})
			return
		}
		out := map[string]any{"client_id": id, "client_secret": "secret-" + id}
		if a.regNoID {
			delete(out, "client_id")
		}
		if a.regMethod != "" {
			out["token_endpoint_auth_method"] = a.regMethod
		}
		writeJSON(w, 201, out)
	case a.path + "/authorize":
		q := r.URL.Query()
		a.mu.Lock()
		a.authReqs = append(a.authReqs, q)
		a.challenge = q.Get("code_challenge")
		a.mu.Unlock()
		back, err := url.Parse(q.Get("redirect_uri"))
		require.NoError(a.t, err)
		v := url.Values{"state": {q.Get("state")}}
		if a.denyAuthorize {
			v.Set("error", "access_denied")
		} else {
			v.Set("code", "code-"+q.Get("state"))
		}
		switch a.issMode {
		case "":
			v.Set("iss", base)
		case "wrong":
			v.Set("iss", "https://evil.example.com")
		case "slash":
			v.Set("iss", base+"/")
		}
		back.RawQuery = v.Encode()
		http.Redirect(w, r, back.String(), http.StatusFound)
	case a.path + "/token":
		require.NoError(a.t, r.ParseForm())
		a.mu.Lock()
		a.tokenReqs = append(a.tokenReqs, r)
		a.tokenForms = append(a.tokenForms, r.PostForm)
		a.mu.Unlock()
		a.token(w, r)
	default:
		http.NotFound(w, r)
	}
}

// token answers a token request.
func (a *fakeAS) token(w http.ResponseWriter, r *http.Request) {
	f := r.PostForm
	if a.tokenError != "" {
		writeJSON(w, 400, map[string]string{"error": a.tokenError, "error_description": "refused"})
		return
	}
	if a.noAccessToken {
		writeJSON(w, 200, map[string]any{"token_type": "Bearer", "expires_in": 3600})
		return
	}
	if a.dpopNonce != "" && jwtPart(a.t, r.Header.Get("DPoP"), 1)["nonce"] != a.dpopNonce {
		w.Header().Set("DPoP-Nonce", a.dpopNonce)
		writeJSON(w, 400, map[string]string{"error": "use_dpop_nonce"})
		return
	}
	switch f.Get("grant_type") {
	case "authorization_code":
		sum := sha256.Sum256([]byte(f.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != a.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "PKCE"})
			return
		}
	case "client_credentials", "refresh_token", "urn:ietf:params:oauth:grant-type:jwt-bearer":
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	if f.Get("client_assertion") != "" && a.clientKey != nil {
		if err := verifyES256(f.Get("client_assertion"), a.clientKey); err != nil {
			writeJSON(w, 401, map[string]string{"error": "invalid_client", "error_description": err.Error()})
			return
		}
	}
	scopes := strings.Fields(f.Get("scope"))
	if f.Get("grant_type") == "authorization_code" {
		a.mu.Lock()
		scopes = strings.Fields(a.authReqs[len(a.authReqs)-1].Get("scope"))
		a.mu.Unlock()
	}
	a.mu.Lock()
	a.n++
	tok := fmt.Sprintf("at-%d", a.n)
	exp := a.expiresIn
	if exp == 0 {
		exp = 3600
	}
	aud := a.audience
	if aud == "" {
		aud = f.Get("resource")
	}
	a.issued[tok] = &auth.TokenInfo{Subject: "user", Scopes: scopes, Audience: []string{aud}, Expiry: time.Now().Add(time.Duration(exp) * time.Second)}
	a.mu.Unlock()
	out := map[string]any{"access_token": tok, "token_type": "Bearer", "expires_in": exp}
	if len(scopes) > 0 {
		out["scope"] = strings.Join(scopes, " ")
	}
	if a.refresh {
		out["refresh_token"] = "rt-" + tok
	}
	if r.Header.Get("DPoP") != "" {
		out["token_type"] = "DPoP"
	}
	writeJSON(w, 200, out)
}

// verify is the resource server's view of the tokens a issued.
func (a *fakeAS) verify(ctx context.Context, token string) (*auth.TokenInfo, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if info, ok := a.issued[token]; ok {
		return info, nil
	}
	return nil, auth.ErrInvalidToken
}

func (a *fakeAS) counts() (auths, tokens, regs int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.authReqs), len(a.tokenReqs), len(a.regs)
}

// fakeRS is a resource server behind auth.Require, with protected
// resource metadata at the path-based well-known URL. Its handler echoes
// the request body.
type fakeRS struct {
	t      *testing.T
	srv    *httptest.Server
	as     []*fakeAS // tokens of any of them are accepted
	prm    auth.ProtectedResourceMetadata
	opts   auth.RequireOptions
	mu     sync.Mutex
	bodies []string
	hook   func(w http.ResponseWriter, r *http.Request) bool // answers instead when it returns true
}

func newFakeRS(t *testing.T, as *fakeAS, configure func(*fakeRS)) *fakeRS {
	rs := &fakeRS{t: t, as: []*fakeAS{as}}
	mux := http.NewServeMux()
	rs.srv = httptest.NewServer(mux)
	t.Cleanup(rs.srv.Close)
	rs.prm = auth.ProtectedResourceMetadata{Resource: rs.url(), AuthorizationServers: []string{as.issuer()}}
	prmURL, err := auth.ProtectedResourceMetadataURL(rs.url())
	require.NoError(t, err)
	rs.opts = auth.RequireOptions{Resource: rs.url(), ResourceMetadataURL: prmURL,
		Verifier: auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
			for _, a := range rs.as {
				if info, err := a.verify(ctx, token); err == nil {
					return info, nil
				}
			}
			return nil, auth.ErrInvalidToken
		})}
	if configure != nil {
		configure(rs)
	}
	mux.HandleFunc(auth.ProtectedResourceMetadataPath("/mcp"), func(w http.ResponseWriter, r *http.Request) {
		rs.mu.Lock()
		md := rs.prm
		rs.mu.Unlock()
		auth.ProtectedResourceHandler(&md).ServeHTTP(w, r)
	})
	protected := auth.Require(rs.opts)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rs.mu.Lock()
		rs.bodies = append(rs.bodies, string(b))
		rs.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write(b)
	}))
	mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rs.hook != nil && rs.hook(w, r) {
			return
		}
		protected.ServeHTTP(w, r)
	}))
	return rs
}

func (rs *fakeRS) url() string { return rs.srv.URL + "/mcp" }

// do POSTs body to the resource server through tr.
func do(t *testing.T, tr http.RoundTripper, url, body string) (*http.Response, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b), nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// verifyES256 checks a compact JWS signed with ES256 by key.
func verifyES256(jws string, key *ecdsa.PublicKey) error {
	parts := strings.Split(jws, ".")
	if len(parts) != 3 {
		return fmt.Errorf("not a compact JWS")
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		return fmt.Errorf("bad signature encoding")
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
	if !ecdsa.Verify(key, sum[:], r, s) {
		return fmt.Errorf("signature does not verify")
	}
	return nil
}

// jwtPart decodes part i (0 header, 1 claims) of a compact JWS.
func jwtPart(t *testing.T, jws string, i int) map[string]any {
	t.Helper()
	parts := strings.Split(jws, ".")
	require.Len(t, parts, 3)
	b, err := base64.RawURLEncoding.DecodeString(parts[i])
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

// ecKeyFromJWK rebuilds a P-256 public key from a JWK.
func ecKeyFromJWK(t *testing.T, jwk map[string]any) *ecdsa.PublicKey {
	t.Helper()
	x, err := base64.RawURLEncoding.DecodeString(jwk["x"].(string))
	require.NoError(t, err)
	y, err := base64.RawURLEncoding.DecodeString(jwk["y"].(string))
	require.NoError(t, err)
	return &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
}

// newServer starts h on a test server closed with the test.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}
