package auth

import (
	"context"
	"crypto"
	"net/http"
	"net/url"
)

// Grant names the OAuth grant a [Transport] obtains tokens with.
type Grant string

// The grants a Transport uses.
const (
	// GrantAuthorizationCode: authorization code with PKCE, a user at
	// Config.Authorize (the default).
	GrantAuthorizationCode Grant = "authorization_code"
	// GrantClientCredentials: the client acts for itself with its own
	// credentials (pre-registered id and secret, or private_key_jwt).
	GrantClientCredentials Grant = "client_credentials"
	// GrantJWTBearer: the client presents a JWT assertion from
	// Config.Assertion (RFC 7523): a workload identity token, or an
	// identity assertion grant from an enterprise IdP ([EnterpriseAssertion]).
	GrantJWTBearer Grant = "urn:ietf:params:oauth:grant-type:jwt-bearer"
)

// AssertionFunc returns the JWT a [GrantJWTBearer] token request
// presents to the authorization server as, for the resource.
type AssertionFunc func(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (string, error)

// AuthorizeFunc shows the user authURL (a browser, a printed link) and
// returns the URL the authorization server redirected back to, with its
// code, state and iss parameters.
type AuthorizeFunc func(ctx context.Context, authURL string) (redirectedTo *url.URL, err error)

// DefaultRedirectURL is the redirect URI a Transport registers and uses
// when Config.RedirectURL is empty.
const DefaultRedirectURL = "http://127.0.0.1:33418/callback"

// Config is what a [Transport] knows about the client and how it may get
// tokens.
type Config struct {
	// Grant is how tokens are obtained; "" means GrantAuthorizationCode.
	Grant Grant

	// ClientID and ClientSecret are a pre-registered client. They are
	// offered to the authorization server ClientIssuer names, or to any
	// when ClientIssuer is empty.
	ClientID     string
	ClientSecret string
	ClientIssuer string
	// ClientMetadataURL is the URL of the client's ID metadata document,
	// used as its client_id where the authorization server supports such
	// documents; elsewhere the client registers dynamically (RFC 7591).
	ClientMetadataURL string
	// ClientName is the name given at dynamic registration.
	ClientName string
	// PrivateKey authenticates the client with private_key_jwt (an
	// ECDSA or RSA key; [ParsePrivateKeyPEM] reads one) where the server
	// accepts it.
	PrivateKey crypto.Signer

	// RedirectURL is the redirect URI of the authorization code grant;
	// "" means DefaultRedirectURL.
	RedirectURL string
	// Authorize is the user's part of the authorization code grant.
	// [HeadlessAuthorize] completes it without a user, for tests.
	Authorize AuthorizeFunc

	// Scopes are requested in addition to those the server asks for.
	Scopes []string
	// NoOfflineAccess stops the client asking for offline_access (a
	// refresh token) where the authorization server offers it.
	NoOfflineAccess bool
	// MaxStepUps bounds the re-authorizations for a larger scope one
	// request may cause (403 insufficient_scope); 0 means 2.
	MaxStepUps int
	// PreferredIssuer picks the authorization server when the resource
	// names several; the first listed is used otherwise.
	PreferredIssuer string

	// Assertion supplies the JWT of GrantJWTBearer.
	Assertion AssertionFunc

	// DPoP binds tokens to a key of the client (RFC 9449) where the
	// authorization server supports it: token requests and every request
	// with the token carry a fresh proof.
	DPoP bool
	// DPoPKey is the DPoP key; nil means a new P-256 key per Transport.
	DPoPKey crypto.Signer

	// Store keeps tokens and registrations; nil means a new MemoryStore.
	Store TokenStore
	// HTTPClient makes the discovery, registration and token requests;
	// nil means a client over the Transport's base RoundTripper.
	HTTPClient *http.Client
}

// redirectURL returns the redirect URI in use.
func (c *Config) redirectURL() string {
	if c.RedirectURL != "" {
		return c.RedirectURL
	}
	return DefaultRedirectURL
}

// grant returns the grant in use.
func (c *Config) grant() Grant {
	if c.Grant == "" {
		return GrantAuthorizationCode
	}
	return c.Grant
}

// maxStepUps returns the step-up bound.
func (c *Config) maxStepUps() int {
	if c.MaxStepUps > 0 {
		return c.MaxStepUps
	}
	return 2
}
