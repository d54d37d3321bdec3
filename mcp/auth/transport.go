package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// refreshAhead is how long before its expiry a token is refreshed.
const refreshAhead = 30 * time.Second

// Transport is an http.RoundTripper that authorizes the requests of an
// MCP client. It sends the token it holds for the server; on a 401 it
// discovers the authorization server from the challenge and the
// server's metadata, refreshes the token or obtains a new one, and sends
// the request again; on a 403 insufficient_scope it obtains a token for
// the union of the scopes held and those the server names, a bounded
// number of times. Request bodies are buffered so that they can be sent
// again. It is safe for concurrent use; authorizations run one at a
// time.
type Transport struct {
	base    http.RoundTripper
	cfg     Config
	store   TokenStore
	client  *http.Client // discovery, registration, tokens
	dpop    *dpopProver  // nil without Config.DPoP
	dpopRT  http.RoundTripper
	initErr error

	flow sync.Mutex // one authorization at a time

	mu      sync.Mutex
	targets map[string]string              // request URL (no query) → resource
	servers map[string]*AuthServerMetadata // by issuer
}

// NewTransport returns a Transport sending over base (nil means
// http.DefaultTransport) as cfg says.
func NewTransport(base http.RoundTripper, cfg *Config) *Transport {
	if base == nil {
		base = http.DefaultTransport
	}
	t := &Transport{base: base, targets: map[string]string{}, servers: map[string]*AuthServerMetadata{}}
	if cfg != nil {
		t.cfg = *cfg
	}
	t.store = t.cfg.Store
	if t.store == nil {
		t.store = NewMemoryStore()
	}
	t.client = t.cfg.HTTPClient
	if t.client == nil {
		t.client = &http.Client{Transport: base}
	}
	if t.cfg.DPoP {
		t.dpop, t.initErr = newDPoPProver(t.cfg.DPoPKey)
		inner := t.client.Transport
		if inner == nil {
			inner = http.DefaultTransport
		}
		t.dpopRT = &dpopTransport{base: inner, prover: t.dpop}
	}
	return t
}

// Store returns the store the Transport keeps tokens and registrations in.
func (t *Transport) Store() TokenStore { return t.store }

// RoundTrip sends req with the token held for its server, authorizing
// when the server asks for it.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.initErr != nil {
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, t.initErr
	}
	body, err := readBody(req)
	if err != nil {
		return nil, err
	}
	ctx := req.Context()
	target := targetKey(req.URL)
	// A 401 leads to one new token (and to one retry with a token another
	// request obtained meanwhile); a 403 to at most maxStepUps.
	stepUps, renewed, reused := 0, false, false
	for {
		tok := t.tokenFor(ctx, target)
		resp, err := t.send(req, body, tok)
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusUnauthorized:
			if renewed {
				return resp, nil
			}
			cs := ParseChallenges(resp.Header)
			drain(resp)
			fresh, err := t.authorize(ctx, target, cs, tok, false, reused)
			if err != nil {
				return nil, err
			}
			renewed = fresh
			reused = reused || !fresh
		case http.StatusForbidden:
			cs := ParseChallenges(resp.Header)
			c, ok := authChallenge(cs)
			if !ok || c.Params["error"] != "insufficient_scope" || stepUps >= t.cfg.maxStepUps() {
				return resp, nil
			}
			if tok != nil && containsAll(tok.Scopes, strings.Fields(c.Params["scope"])) {
				return resp, nil // the token has what the server asks for: asking again cannot help
			}
			drain(resp)
			if _, err := t.authorize(ctx, target, cs, tok, true, false); err != nil {
				return nil, err
			}
			stepUps++
		default:
			return resp, nil
		}
	}
}

// send sends one attempt of req with tok.
func (t *Transport) send(req *http.Request, body []byte, tok *Token) (*http.Response, error) {
	r := withBody(req, body)
	rt := t.base
	if tok != nil {
		if t.dpop != nil && strings.EqualFold(tok.TokenType, "DPoP") {
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			rt = t.dpopRT
		} else {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
	}
	return rt.RoundTrip(r)
}

// targetKey identifies the server a request goes to: its URL without
// query or fragment, scheme and host lower-cased.
func targetKey(u *url.URL) string {
	return (&url.URL{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Host), Path: u.Path, RawPath: u.RawPath}).String()
}

// authChallenge picks the challenge to act on: Bearer, else DPoP.
func authChallenge(cs []Challenge) (Challenge, bool) {
	if c, ok := FindChallenge(cs, "Bearer"); ok {
		return c, true
	}
	return FindChallenge(cs, "DPoP")
}

// resourceFor returns the resource a request URL belongs to, "" when not
// yet known.
func (t *Transport) resourceFor(target string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.targets[target]; ok {
		return r
	}
	for _, r := range t.targets {
		if resourceCovers(r, target) {
			return r
		}
	}
	return ""
}

// tokenFor returns the token to send to target, refreshed first when it
// is about to expire and can be.
func (t *Transport) tokenFor(ctx context.Context, target string) *Token {
	resource := t.resourceFor(target)
	if resource == "" {
		return nil
	}
	tok, err := t.store.Token(ctx, resource)
	if err != nil || tok == nil {
		return nil
	}
	if tok.RefreshToken == "" || !tok.expiresWithin(time.Now(), refreshAhead) {
		return tok
	}
	t.mu.Lock()
	as := t.servers[tok.Issuer]
	t.mu.Unlock()
	if as == nil {
		return tok
	}
	t.flow.Lock()
	defer t.flow.Unlock()
	if cur, err := t.store.Token(ctx, resource); err == nil && cur != nil && cur.AccessToken != tok.AccessToken {
		return cur // refreshed meanwhile
	}
	fresh, err := t.refresh(ctx, as, resource, tok)
	if err != nil {
		return tok // the server's 401 will start over
	}
	if t.store.SaveToken(ctx, resource, fresh) != nil {
		return tok
	}
	return fresh
}

// authorize obtains a new token for target after the server refused
// used (nil: no token was sent) with the challenges cs; stepUp asks for
// the union of used's scopes and the challenge's. It reports whether it
// obtained a token (fresh), rather than finding one another request
// obtained meanwhile, which it does only when noReuse is false.
func (t *Transport) authorize(ctx context.Context, target string, cs []Challenge, used *Token, stepUp, noReuse bool) (fresh bool, err error) {
	t.flow.Lock()
	defer t.flow.Unlock()
	c, _ := authChallenge(cs)
	var as *AuthServerMetadata
	var resource string
	var prmScopes []string
	prm, err := FetchResourceMetadata(ctx, t.client, target, c.Params["resource_metadata"])
	switch {
	case err == nil:
		resource = prm.Resource
		issuer, err := pickIssuer(prm.AuthorizationServers, t.cfg.PreferredIssuer)
		if err != nil {
			return false, err
		}
		if as, err = FetchAuthServerMetadata(ctx, t.client, issuer); err != nil {
			return false, err
		}
		prmScopes = prm.ScopesSupported
	case errors.Is(err, ErrNoResourceMetadata):
		// A 2025-03-26 server: no resource metadata.
		resource = target
		if as, err = authServer20250326(ctx, t.client, target); err != nil {
			return false, err
		}
	default:
		return false, err
	}
	t.mu.Lock()
	t.targets[target] = resource
	t.servers[as.Issuer] = as
	t.mu.Unlock()

	scopes := t.scopes(c, prmScopes, as, used, stepUp)
	// Another request may have been authorized meanwhile.
	if cur, err := t.store.Token(ctx, resource); !noReuse && err == nil && cur != nil && cur.Issuer == as.Issuer &&
		(used == nil || cur.AccessToken != used.AccessToken) && !cur.expiresWithin(time.Now(), 0) &&
		(!stepUp || containsAll(cur.Scopes, scopes)) {
		return false, nil
	}
	if !stepUp && used != nil && used.RefreshToken != "" && used.Issuer == as.Issuer {
		if tok, err := t.refresh(ctx, as, resource, used); err == nil {
			return true, t.store.SaveToken(ctx, resource, tok)
		}
	}
	var tok *Token
	switch t.cfg.grant() {
	case GrantAuthorizationCode:
		tok, err = t.authorizationCode(ctx, as, resource, scopes)
	case GrantClientCredentials:
		tok, err = t.clientCredentials(ctx, as, resource, scopes)
	case GrantJWTBearer:
		tok, err = t.jwtBearer(ctx, as, resource, scopes)
	default:
		err = fmt.Errorf("auth: unknown grant %q", t.cfg.Grant)
	}
	if err != nil {
		return false, err
	}
	return true, t.store.SaveToken(ctx, resource, tok)
}

// pickIssuer chooses among the resource's authorization servers.
func pickIssuer(servers []string, preferred string) (string, error) {
	if len(servers) == 0 {
		return "", errors.New("auth: the protected resource metadata names no authorization server")
	}
	if preferred != "" && slices.Contains(servers, preferred) {
		return preferred, nil
	}
	return servers[0], nil
}

// scopes chooses the scopes to ask for: the challenge's scope, else all
// the resource's scopes_supported, else none; plus Config.Scopes; for a
// step-up, plus those held; plus offline_access when the authorization
// server offers it and refresh tokens.
func (t *Transport) scopes(c Challenge, prmScopes []string, as *AuthServerMetadata, used *Token, stepUp bool) []string {
	var s []string
	if v := strings.Fields(c.Params["scope"]); len(v) > 0 {
		s = v
	} else {
		s = slices.Clone(prmScopes)
	}
	s = union(s, t.cfg.Scopes)
	if stepUp && used != nil {
		s = union(used.Scopes, s)
	}
	if t.cfg.grant() == GrantAuthorizationCode && !t.cfg.NoOfflineAccess &&
		slices.Contains(as.ScopesSupported, "offline_access") &&
		(len(as.GrantTypesSupported) == 0 || slices.Contains(as.GrantTypesSupported, "refresh_token")) {
		s = union(s, []string{"offline_access"})
	}
	return s
}

// tokenClient returns the client for as's token endpoint: with DPoP
// proofs when the Transport uses DPoP and as supports it.
func (t *Transport) tokenClient(as *AuthServerMetadata) *http.Client {
	if t.dpop != nil && len(as.DPoPSigningAlgValuesSupported) > 0 {
		return &http.Client{Transport: t.dpopRT, Timeout: t.client.Timeout}
	}
	return t.client
}

func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

// CloseIdleConnections closes the idle connections of the base
// RoundTripper and of the client making discovery and token requests,
// where they can.
func (t *Transport) CloseIdleConnections() {
	type closer interface{ CloseIdleConnections() }
	if c, ok := t.base.(closer); ok {
		c.CloseIdleConnections()
	}
	t.client.CloseIdleConnections()
}
