package auth

import (
	"context"
	"errors"
	"net/http"
	"net/url"
)

// Token types of the enterprise-managed authorization flow.
const (
	tokenExchangeGrant = "urn:ietf:params:oauth:grant-type:token-exchange"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
)

// EnterpriseConfig is the enterprise identity provider side of
// enterprise-managed authorization (cross-app access): the client
// exchanges the user's ID token at the IdP (RFC 8693) for an identity
// assertion grant (ID-JAG) addressed to the MCP server's authorization
// server.
type EnterpriseConfig struct {
	// TokenEndpoint is the IdP's token endpoint.
	TokenEndpoint string
	// ClientID and ClientSecret identify the client at the IdP; with a
	// secret it authenticates with client_secret_basic, else it sends
	// client_id alone.
	ClientID     string
	ClientSecret string
	// IDToken returns the user's ID token from the IdP's sign-in.
	IDToken func(ctx context.Context) (string, error)
	// HTTPClient makes the exchange; nil means http.DefaultClient.
	HTTPClient *http.Client
}

// EnterpriseAssertion returns an [AssertionFunc] for [GrantJWTBearer] that
// obtains the assertion by token exchange at the enterprise IdP: the ID
// token becomes an ID-JAG for the authorization server's issuer and the
// resource.
func EnterpriseAssertion(ec EnterpriseConfig) AssertionFunc {
	return func(ctx context.Context, as *AuthServerMetadata, resource string, scopes []string) (string, error) {
		if ec.IDToken == nil || ec.TokenEndpoint == "" {
			return "", errors.New("auth: EnterpriseConfig needs TokenEndpoint and IDToken")
		}
		idToken, err := ec.IDToken(ctx)
		if err != nil {
			return "", err
		}
		form := url.Values{
			"grant_type":           {tokenExchangeGrant},
			"requested_token_type": {tokenTypeIDJAG},
			"subject_token":        {idToken},
			"subject_token_type":   {tokenTypeIDToken},
			"audience":             {as.Issuer},
			"resource":             {resource},
		}
		ca := &clientAuth{method: "none", id: ec.ClientID}
		if ec.ClientSecret != "" {
			ca = &clientAuth{method: "client_secret_basic", id: ec.ClientID, secret: ec.ClientSecret}
		}
		client := ec.HTTPClient
		if client == nil {
			client = http.DefaultClient
		}
		tr, err := postToken(ctx, client, ec.TokenEndpoint, withScope(form, scopes), ca)
		if err != nil {
			return "", err
		}
		if tr.IssuedTokenType != "" && tr.IssuedTokenType != tokenTypeIDJAG {
			return "", errors.New("auth: the IdP issued " + tr.IssuedTokenType + ", not an identity assertion grant")
		}
		return tr.AccessToken, nil
	}
}

// StaticAssertion returns an [AssertionFunc] that always presents jwt (a
// workload identity token, say).
func StaticAssertion(jwt string) AssertionFunc {
	return func(context.Context, *AuthServerMetadata, string, []string) (string, error) { return jwt, nil }
}
