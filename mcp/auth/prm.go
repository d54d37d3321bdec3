package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
)

// ProtectedResourceMetadata is the RFC 9728 document an MCP server
// publishes so that clients find its authorization servers.
type ProtectedResourceMetadata struct {
	// Resource is the server's resource identifier: its canonical URI.
	Resource string `json:"resource"`
	// AuthorizationServers are the issuer identifiers of the
	// authorization servers that issue tokens for the resource (MCP
	// requires at least one).
	AuthorizationServers []string `json:"authorization_servers,omitempty"`
	// JWKSURI is where the resource's public keys are published.
	JWKSURI string `json:"jwks_uri,omitempty"`
	// ScopesSupported are the scopes a client needs for basic use (MCP:
	// not offline_access).
	ScopesSupported []string `json:"scopes_supported,omitempty"`
	// BearerMethodsSupported says how tokens may be sent; MCP allows only
	// "header".
	BearerMethodsSupported []string `json:"bearer_methods_supported,omitempty"`
	// ResourceSigningAlgValuesSupported lists the algorithms the resource
	// signs responses with.
	ResourceSigningAlgValuesSupported []string `json:"resource_signing_alg_values_supported,omitempty"`
	// ResourceName is a name for people.
	ResourceName string `json:"resource_name,omitempty"`
	// ResourceDocumentation is a page for developers.
	ResourceDocumentation string `json:"resource_documentation,omitempty"`
	// ResourcePolicyURI is the data-use policy.
	ResourcePolicyURI string `json:"resource_policy_uri,omitempty"`
	// ResourceTOSURI is the terms of service.
	ResourceTOSURI string `json:"resource_tos_uri,omitempty"`
	// TLSClientCertificateBoundAccessTokens says the resource supports
	// mutual-TLS bound tokens (RFC 8705).
	TLSClientCertificateBoundAccessTokens bool `json:"tls_client_certificate_bound_access_tokens,omitempty"`
	// AuthorizationDetailsTypesSupported lists RFC 9396 types.
	AuthorizationDetailsTypesSupported []string `json:"authorization_details_types_supported,omitempty"`
	// DPoPSigningAlgValuesSupported lists the DPoP proof algorithms the
	// resource accepts (RFC 9449).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	// DPoPBoundAccessTokensRequired says only DPoP-bound tokens are
	// accepted.
	DPoPBoundAccessTokensRequired bool `json:"dpop_bound_access_tokens_required,omitempty"`
}

// ProtectedResourceHandler serves md as JSON to GET and HEAD, with a CORS
// header so that browser-based clients can read it, and answers a CORS
// preflight. Mount it at [ProtectedResourceMetadataPath] of the MCP
// endpoint's path.
func ProtectedResourceHandler(md *ProtectedResourceMetadata) http.Handler {
	body, err := json.Marshal(md)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		switch r.Method {
		case http.MethodGet, http.MethodHead:
		case http.MethodOptions:
			w.Header().Set("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS")
			w.Header().Set("Access-Control-Allow-Headers", "MCP-Protocol-Version")
			w.WriteHeader(http.StatusNoContent)
			return
		default:
			w.Header().Set("Allow", "GET, HEAD, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if err != nil {
			http.Error(w, "protected resource metadata: "+err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "max-age=3600")
		w.WriteHeader(http.StatusOK)
		if r.Method == http.MethodGet {
			w.Write(body)
		}
	})
}

// wellKnownPRM is the RFC 9728 well-known path segment.
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// ProtectedResourceMetadataPath returns where RFC 9728 puts the metadata
// of a resource whose URL path is endpointPath: "/mcp" gives
// "/.well-known/oauth-protected-resource/mcp", "" or "/" the root
// "/.well-known/oauth-protected-resource".
func ProtectedResourceMetadataPath(endpointPath string) string {
	p := strings.TrimSuffix(endpointPath, "/")
	if p == "" {
		return wellKnownPRM
	}
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return wellKnownPRM + p
}

// ProtectedResourceMetadataURL returns the metadata URL of the resource
// identified by resource (an absolute http or https URL without query or
// fragment), as [ProtectedResourceMetadataPath] places it.
func ProtectedResourceMetadataURL(resource string) (string, error) {
	u, err := url.Parse(resource)
	if err != nil {
		return "", err
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", errors.New("auth: the resource must be an absolute http(s) URL")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", errors.New("auth: a resource identifier has no query or fragment")
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: ProtectedResourceMetadataPath(u.Path)}).String(), nil
}
