package auth

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// ErrNoClientIdentity: the client has no way to identify itself to an
// authorization server (no pre-registration for it, no client ID
// metadata document it accepts, no registration endpoint).
var ErrNoClientIdentity = errors.New("auth: no client identity for the authorization server")

// clientFor returns how the client is known to the authorization server
// as: a pre-registration for it, a registration made earlier, its client
// ID metadata document URL where as supports those, else a new dynamic
// registration (RFC 7591). What it learns is kept by issuer, so another
// server never sees it.
func (t *Transport) clientFor(ctx context.Context, as *AuthServerMetadata, scopes []string) (*ClientInfo, error) {
	cfg := t.cfg
	if cfg.ClientID != "" && (cfg.ClientIssuer == "" || cfg.ClientIssuer == as.Issuer) {
		return &ClientInfo{ClientID: cfg.ClientID, ClientSecret: cfg.ClientSecret}, nil
	}
	if ci, err := t.store.Client(ctx, as.Issuer); err != nil {
		return nil, err
	} else if ci != nil && (ci.SecretExpiry.IsZero() || time.Now().Before(ci.SecretExpiry)) {
		return ci, nil
	}
	if cfg.ClientMetadataURL != "" && as.ClientIDMetadataDocumentSupported {
		ci := &ClientInfo{ClientID: cfg.ClientMetadataURL, TokenEndpointAuthMethod: "none"}
		if cfg.PrivateKey != nil && slices.Contains(as.authMethods(), "private_key_jwt") {
			ci.TokenEndpointAuthMethod = "private_key_jwt"
		}
		return ci, nil
	}
	if as.RegistrationEndpoint == "" {
		return nil, fmt.Errorf("%w %s", ErrNoClientIdentity, as.Issuer)
	}
	ci, err := t.register(ctx, as, scopes)
	if err != nil {
		return nil, err
	}
	if err := t.store.SaveClient(ctx, as.Issuer, ci); err != nil {
		return nil, err
	}
	return ci, nil
}

// registration is an RFC 7591 registration request.
type registration struct {
	ClientName              string   `json:"client_name,omitempty"`
	RedirectURIs            []string `json:"redirect_uris,omitempty"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	ApplicationType         string   `json:"application_type,omitempty"`
	Scope                   string   `json:"scope,omitempty"`
}

// register registers the client at as (RFC 7591).
func (t *Transport) register(ctx context.Context, as *AuthServerMetadata, scopes []string) (*ClientInfo, error) {
	cfg := t.cfg
	name := cfg.ClientName
	if name == "" {
		name = "schemarpc MCP client"
	}
	reg := registration{
		ClientName:      name,
		RedirectURIs:    []string{cfg.redirectURL()},
		GrantTypes:      []string{"authorization_code", "refresh_token"},
		ResponseTypes:   []string{"code"},
		ApplicationType: applicationType(cfg.redirectURL()),
	}
	methods := as.authMethods()
	switch {
	case slices.Contains(methods, "none"):
		reg.TokenEndpointAuthMethod = "none"
	case slices.Contains(methods, "client_secret_basic"):
		reg.TokenEndpointAuthMethod = "client_secret_basic"
	case slices.Contains(methods, "client_secret_post"):
		reg.TokenEndpointAuthMethod = "client_secret_post"
	}
	body, err := json.Marshal(reg)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := t.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("auth: client registration: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes))
	if err != nil {
		return nil, fmt.Errorf("auth: client registration: %w", err)
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("auth: client registration: %w", oauthError(resp.StatusCode, b))
	}
	var out struct {
		ClientID                string `json:"client_id"`
		ClientSecret            string `json:"client_secret"`
		ClientSecretExpiresAt   int64  `json:"client_secret_expires_at"`
		TokenEndpointAuthMethod string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("auth: client registration response: %w", err)
	}
	if out.ClientID == "" {
		return nil, errors.New("auth: the client registration response has no client_id")
	}
	ci := &ClientInfo{ClientID: out.ClientID, ClientSecret: out.ClientSecret, TokenEndpointAuthMethod: out.TokenEndpointAuthMethod}
	if out.ClientSecretExpiresAt > 0 {
		ci.SecretExpiry = time.Unix(out.ClientSecretExpiresAt, 0)
	}
	return ci, nil
}

// applicationType is "native" for a redirect to the loopback interface or
// a private scheme, "web" otherwise (OpenID Connect registration).
func applicationType(redirect string) string {
	u, err := url.Parse(redirect)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "native"
	}
	host := u.Hostname()
	if host == "localhost" {
		return "native"
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return "native"
	}
	return "web"
}
