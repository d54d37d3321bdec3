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
	"golang.org/x/oauth2/clientcredentials"
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

// oauth2Config returns the x/oauth2 view of the client at as.
func (t *Transport) oauth2Config(as *AuthServerMetadata, ca clientAuth, scopes []string) (*oauth2.Config, []oauth2.AuthCodeOption, error) {
	style, secret, extra, err := ca.oauth2Style()
	if err != nil {
		return nil, nil, err
	}
	return &oauth2.Config{
		ClientID:     ca.id,
		ClientSecret: secret,
		Endpoint:     oauth2.Endpoint{AuthURL: as.AuthorizationEndpoint, TokenURL: as.TokenEndpoint, AuthStyle: style},
		RedirectURL:  t.cfg.redirectURL(),
		Scopes:       scopes,
	}, extra, nil
}

// authorizationCode runs the authorization code grant with PKCE (S256),
// the resource parameter and state, checks the response's state and iss
// (RFC 9207), and exchanges the code.
func (t *Transport) authorizationCode(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (*Token, error) {
	if t.cfg.Authorize == nil {
		return nil, errors.New("auth: authorization needs a user, and Config.Authorize is nil")
	}
	if !as.legacy && !slices.Contains(as.CodeChallengeMethodsSupported, "S256") {
		return nil, ErrNoPKCE
	}
	ci, err := t.clientFor(ctx, as, scopes)
	if err != nil {
		return nil, err
	}
	ca := chooseClientAuth(as, ci, t.cfg.PrivateKey)
	conf, extra, err := t.oauth2Config(as, ca, scopes)
	if err != nil {
		return nil, err
	}
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
	opts := append([]oauth2.AuthCodeOption{oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", resource)}, extra...)
	tok, err := conf.Exchange(t.tokenContext(ctx, as), code, opts...)
	if err != nil {
		return nil, tokenErr(err)
	}
	return fromOAuth2(tok, as.Issuer, scopes), nil
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
	if as.legacy && !as.AuthorizationResponseIssParameterSupported {
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
	ca := chooseClientAuth(as, &ClientInfo{ClientID: t.cfg.ClientID, ClientSecret: t.cfg.ClientSecret}, t.cfg.PrivateKey)
	style, secret, _, err := ca.oauth2Style()
	if err != nil {
		return nil, err
	}
	params := url.Values{"resource": {resource}}
	if ca.method == "private_key_jwt" {
		jwt, err := ca.assertion()
		if err != nil {
			return nil, err
		}
		params.Set("client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer")
		params.Set("client_assertion", jwt)
	}
	cc := clientcredentials.Config{ClientID: ca.id, ClientSecret: secret, TokenURL: as.TokenEndpoint,
		Scopes: scopes, EndpointParams: params, AuthStyle: style}
	tok, err := cc.Token(t.tokenContext(ctx, as))
	if err != nil {
		return nil, tokenErr(err)
	}
	return fromOAuth2(tok, as.Issuer, scopes), nil
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
	if len(scopes) > 0 {
		form.Set("scope", strings.Join(scopes, " "))
	}
	var ca *clientAuth
	if t.cfg.ClientID != "" {
		a := chooseClientAuth(as, &ClientInfo{ClientID: t.cfg.ClientID, ClientSecret: t.cfg.ClientSecret}, t.cfg.PrivateKey)
		ca = &a
	}
	tr, err := postToken(ctx, t.tokenClient(as), as.TokenEndpoint, form, ca)
	if err != nil {
		return nil, err
	}
	return tr.token(as.Issuer, scopes), nil
}

// refresh uses the refresh token of old at as.
func (t *Transport) refresh(ctx context.Context, as *AuthServerMetadata, resource string, old *Token) (*Token, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old.RefreshToken}, "resource": {resource}}
	var ca *clientAuth
	if ci, err := t.clientFor(ctx, as, old.Scopes); err == nil {
		a := chooseClientAuth(as, ci, t.cfg.PrivateKey)
		ca = &a
	}
	tr, err := postToken(ctx, t.tokenClient(as), as.TokenEndpoint, form, ca)
	if err != nil {
		return nil, err
	}
	tok := tr.token(as.Issuer, old.Scopes)
	if tok.RefreshToken == "" {
		tok.RefreshToken = old.RefreshToken
	}
	return tok, nil
}

// tokenErr turns an x/oauth2 token error into a TokenError.
func tokenErr(err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		te := &TokenError{Code: re.ErrorCode, Description: re.ErrorDescription}
		if re.Response != nil {
			te.StatusCode = re.Response.StatusCode
		}
		return te
	}
	return err
}
