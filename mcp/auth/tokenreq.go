package auth

import (
	"context"
	"crypto"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TokenError is an error answer of a token or registration endpoint.
type TokenError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Code is the OAuth error code ("invalid_grant"), "" when the body
	// had none.
	Code string
	// Description is error_description.
	Description string
}

// Error describes the refusal.
func (e *TokenError) Error() string {
	msg := fmt.Sprintf("auth: the authorization server refused (%d)", e.StatusCode)
	if e.Code != "" {
		msg += ": " + e.Code
	}
	if e.Description != "" {
		msg += ": " + e.Description
	}
	return msg
}

// clientAssertionType is the client_assertion_type of private_key_jwt
// (RFC 7523 §2.2).
const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

// errNoPrivateKey: the client is to authenticate with private_key_jwt
// and has no key.
var errNoPrivateKey = errors.New("auth: private_key_jwt needs Config.PrivateKey")

// clientAuth is how the client authenticates at a token endpoint.
type clientAuth struct {
	method   string // client_secret_basic, client_secret_post, private_key_jwt, none
	id       string
	secret   string
	key      crypto.Signer
	audience string // of a private_key_jwt assertion: the issuer
}

// chooseClientAuth picks the method: the one the registration fixed,
// else private_key_jwt with a key, else a secret in the way the server
// prefers, else none.
func chooseClientAuth(as *AuthServerMetadata, ci *ClientInfo, key crypto.Signer) clientAuth {
	a := clientAuth{id: ci.ClientID, secret: ci.ClientSecret, key: key, audience: as.Issuer}
	if a.audience == "" {
		a.audience = as.TokenEndpoint
	}
	if ci.TokenEndpointAuthMethod != "" {
		a.method = ci.TokenEndpointAuthMethod
		return a
	}
	methods := as.authMethods()
	has := func(m string) bool { return slices.Contains(methods, m) }
	switch {
	case key != nil && has("private_key_jwt"):
		a.method = "private_key_jwt"
	case a.secret != "" && has("client_secret_basic"):
		a.method = "client_secret_basic"
	case a.secret != "" && has("client_secret_post"):
		a.method = "client_secret_post"
	case has("none") || a.secret == "":
		a.method = "none"
	default:
		a.method = "client_secret_basic"
	}
	return a
}

// assertion returns a private_key_jwt client assertion (RFC 7523 §2.2).
func (a clientAuth) assertion() (string, error) {
	now := time.Now()
	return signJWT(a.key, map[string]any{"typ": "JWT"}, map[string]any{
		"iss": a.id, "sub": a.id, "aud": a.audience, "jti": randomString(16),
		"iat": now.Unix(), "exp": now.Add(5 * time.Minute).Unix(),
	})
}

// apply puts the client's authentication on a token request.
func (a clientAuth) apply(form url.Values, h http.Header) error {
	switch a.method {
	case "client_secret_basic":
		h.Set("Authorization", "Basic "+basicCredentials(a.id, a.secret))
	case "client_secret_post":
		form.Set("client_id", a.id)
		form.Set("client_secret", a.secret)
	case "private_key_jwt":
		if a.key == nil {
			return errNoPrivateKey
		}
		jwt, err := a.assertion()
		if err != nil {
			return err
		}
		form.Set("client_id", a.id)
		form.Set("client_assertion_type", clientAssertionType)
		form.Set("client_assertion", jwt)
	default:
		form.Set("client_id", a.id)
	}
	return nil
}

// basicCredentials encodes id and secret for HTTP Basic as RFC 6749
// §2.3.1 wants: each form-encoded first.
func basicCredentials(id, secret string) string {
	return b64std(url.QueryEscape(id) + ":" + url.QueryEscape(secret))
}

// tokenResponse is a token endpoint's success answer.
type tokenResponse struct {
	AccessToken     string          `json:"access_token"`
	TokenType       string          `json:"token_type"`
	ExpiresIn       json.RawMessage `json:"expires_in"`
	RefreshToken    string          `json:"refresh_token"`
	Scope           string          `json:"scope"`
	IssuedTokenType string          `json:"issued_token_type"`
}

// postToken sends a token request with form and the client's
// authentication (none when auth is nil), and reads the answer.
func postToken(ctx context.Context, client *http.Client, endpoint string, form url.Values, auth *clientAuth) (*tokenResponse, error) {
	h := http.Header{}
	if auth != nil {
		if err := auth.apply(form, h); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: token request: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if err != nil {
		return nil, fmt.Errorf("auth: token response: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, oauthError(resp.StatusCode, body)
	}
	var tr tokenResponse
	if err := json.Unmarshal(body, &tr); err != nil {
		return nil, fmt.Errorf("auth: token response: %w", err)
	}
	if tr.AccessToken == "" {
		return nil, fmt.Errorf("auth: the token response has no access_token")
	}
	return &tr, nil
}

// oauthError reads an OAuth error body.
func oauthError(status int, body []byte) *TokenError {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	json.Unmarshal(body, &e)
	return &TokenError{StatusCode: status, Code: e.Error, Description: e.Description}
}

// token turns the answer into a Token; requested are the scopes asked
// for, kept when the server does not say which it granted.
func (tr *tokenResponse) token(issuer string, requested []string) *Token {
	t := &Token{AccessToken: tr.AccessToken, TokenType: tr.TokenType, RefreshToken: tr.RefreshToken, Issuer: issuer, Scopes: requested}
	if t.TokenType == "" {
		t.TokenType = "Bearer"
	}
	if s := strings.Trim(string(tr.ExpiresIn), `"`); s != "" && s != "null" {
		if n, err := strconv.ParseFloat(s, 64); err == nil && n > 0 {
			t.Expiry = time.Now().Add(time.Duration(n * float64(time.Second)))
		}
	}
	if tr.Scope != "" {
		t.Scopes = strings.Fields(tr.Scope)
	}
	return t
}
