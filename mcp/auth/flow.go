package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/oauth2"
)

// Authorization response errors.
var (
	// ErrStateMismatch: the authorization response's state is not the
	// one the request carried.
	ErrStateMismatch = errors.New("auth: the authorization response's state does not match")
	// ErrMissingIssuer: the authorization server promised iss in its
	// authorization responses (RFC 9207) and this one has none.
	ErrMissingIssuer = errors.New("auth: the authorization response lacks the iss parameter")
	// ErrNoPKCE: the authorization server's metadata does not offer PKCE
	// with S256, which MCP requires.
	ErrNoPKCE = errors.New("auth: the authorization server does not support PKCE with S256")
)

// AuthorizationError is an error an authorization server returned to the
// redirect URI (the user denied access, say).
type AuthorizationError struct {
	Code        string
	Description string
}

// Error describes the refusal.
func (e *AuthorizationError) Error() string {
	if e.Description != "" {
		return "auth: authorization refused: " + e.Code + ": " + e.Description
	}
	return "auth: authorization refused: " + e.Code
}

// HeadlessAuthorize returns an [AuthorizeFunc] for tests and automated
// clients: it GETs the authorization URL with client, redirects not
// followed, and returns the Location the server redirects to, as a
// server that authorizes without asking anyone does.
func HeadlessAuthorize(client *http.Client) AuthorizeFunc {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func(ctx context.Context, authURL string) (*url.URL, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authURL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.Do(req)
		if err != nil {
			return nil, fmt.Errorf("auth: authorization request: %w", err)
		}
		drain(resp)
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			return nil, fmt.Errorf("auth: the authorization endpoint answered %s without a redirect", resp.Status)
		}
		return resp.Request.URL.Parse(loc)
	}
}

// authorizationCode runs the authorization code grant with PKCE (S256),
// the resource parameter and state, checks the response's state and iss
// (RFC 9207), and exchanges the code.
func (t *Transport) authorizationCode(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (*Token, error) {
	if t.cfg.Authorize == nil {
		return nil, errors.New("auth: authorization needs a user, and Config.Authorize is nil")
	}
	if !as.from20250326 && !slices.Contains(as.CodeChallengeMethodsSupported, "S256") {
		return nil, ErrNoPKCE
	}
	ci, err := t.clientFor(ctx, as, scopes)
	if err != nil {
		return nil, err
	}
	ca := chooseClientAuth(as, ci, t.cfg.PrivateKey)
	if ca.method == "private_key_jwt" && ca.key == nil {
		return nil, errNoPrivateKey // said now rather than after the user's part
	}
	conf := &oauth2.Config{ClientID: ca.id, Endpoint: oauth2.Endpoint{AuthURL: as.AuthorizationEndpoint},
		RedirectURL: t.cfg.redirectURL(), Scopes: scopes}
	verifier := oauth2.GenerateVerifier()
	state := randomString(24)
	authURL := conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", resource))
	back, err := t.cfg.Authorize(ctx, authURL)
	if err != nil {
		return nil, err
	}
	q := back.Query()
	if err := checkIssuer(as, q); err != nil {
		return nil, err
	}
	if e := q.Get("error"); e != "" {
		return nil, &AuthorizationError{Code: e, Description: q.Get("error_description")}
	}
	if q.Get("state") != state {
		return nil, ErrStateMismatch
	}
	code := q.Get("code")
	if code == "" {
		return nil, errors.New("auth: the authorization response has no code")
	}
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {conf.RedirectURL},
		"code_verifier": {verifier}, "resource": {resource}}
	return t.requestToken(ctx, as, form, &ca, scopes)
}

// checkIssuer applies RFC 9207 to an authorization response: iss, when
// present, must equal the issuer exactly (no normalization); when the
// server advertises it, it must be present.
func checkIssuer(as *AuthServerMetadata, q url.Values) error {
	iss, present := q["iss"]
	if !present {
		if as.AuthorizationResponseIssParameterSupported {
			return ErrMissingIssuer
		}
		return nil
	}
	if as.from20250326 && !as.AuthorizationResponseIssParameterSupported {
		return nil // no issuer was ever recorded to compare with
	}
	if len(iss) != 1 || iss[0] != as.Issuer {
		return fmt.Errorf("%w: the authorization response names %q, the server is %q", ErrIssuerMismatch, strings.Join(iss, ","), as.Issuer)
	}
	return nil
}

// clientCredentials runs the client credentials grant.
func (t *Transport) clientCredentials(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (*Token, error) {
	if t.cfg.ClientID == "" {
		return nil, fmt.Errorf("%w %s: client credentials need Config.ClientID", ErrNoClientIdentity, as.Issuer)
	}
	ca := t.preRegistered(as)
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {resource}}
	return t.requestToken(ctx, as, withScope(form, scopes), &ca, scopes)
}

// jwtBearer runs the JWT bearer grant (RFC 7523) with Config.Assertion.
// A refusal is final: the grant is not retried and no other is tried.
func (t *Transport) jwtBearer(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (*Token, error) {
	if t.cfg.Assertion == nil {
		return nil, errors.New("auth: the JWT bearer grant needs Config.Assertion")
	}
	assertion, err := t.cfg.Assertion(ctx, as, resource, scopes)
	if err != nil {
		return nil, err
	}
	form := url.Values{"grant_type": {string(GrantJWTBearer)}, "assertion": {assertion}, "resource": {resource}}
	var ca *clientAuth
	if t.cfg.ClientID != "" {
		a := t.preRegistered(as)
		ca = &a
	}
	return t.requestToken(ctx, as, withScope(form, scopes), ca, scopes)
}

// refresh uses the refresh token of old at as.
func (t *Transport) refresh(ctx context.Context, as *AuthServerMetadata, resource string, old *Token) (*Token, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old.RefreshToken}, "resource": {resource}}
	var ca *clientAuth
	if ci, err := t.clientFor(ctx, as, old.Scopes); err == nil {
		a := chooseClientAuth(as, ci, t.cfg.PrivateKey)
		ca = &a
	}
	tok, err := t.requestToken(ctx, as, form, ca, old.Scopes)
	if err != nil {
		return nil, err
	}
	if tok.RefreshToken == "" {
		tok.RefreshToken = old.RefreshToken
	}
	return tok, nil
}

// preRegistered is the authentication at as of the client Config
// names.
func (t *Transport) preRegistered(as *AuthServerMetadata) clientAuth {
	return chooseClientAuth(as, &ClientInfo{ClientID: t.cfg.ClientID, ClientSecret: t.cfg.ClientSecret}, t.cfg.PrivateKey)
}

// requestToken sends a token request of form to as's token endpoint,
// authenticated as ca says (nil: not at all), and returns the token;
// requested are the scopes asked for.
func (t *Transport) requestToken(ctx context.Context, as *AuthServerMetadata, form url.Values, ca *clientAuth, requested []string) (*Token, error) {
	tr, err := postToken(ctx, t.tokenClient(as), as.TokenEndpoint, form, ca)
	if err != nil {
		return nil, err
	}
	return tr.token(as.Issuer, requested), nil
}

// withScope adds the scope parameter of scopes to form, when there are
// any, and returns form.
func withScope(form url.Values, scopes []string) url.Values {
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	return form
}
