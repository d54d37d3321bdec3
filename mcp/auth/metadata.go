package auth

// AuthServerMetadata is an authorization server's metadata (RFC 8414, or
// the OpenID Connect discovery document), the fields an MCP client uses.
type AuthServerMetadata struct {
	Issuer                                     string   `json:"issuer"`
	AuthorizationEndpoint                      string   `json:"authorization_endpoint,omitempty"`
	TokenEndpoint                              string   `json:"token_endpoint,omitempty"`
	RegistrationEndpoint                       string   `json:"registration_endpoint,omitempty"`
	JWKSURI                                    string   `json:"jwks_uri,omitempty"`
	ScopesSupported                            []string `json:"scopes_supported,omitempty"`
	ResponseTypesSupported                     []string `json:"response_types_supported,omitempty"`
	GrantTypesSupported                        []string `json:"grant_types_supported,omitempty"`
	TokenEndpointAuthMethodsSupported          []string `json:"token_endpoint_auth_methods_supported,omitempty"`
	TokenEndpointAuthSigningAlgValuesSupported []string `json:"token_endpoint_auth_signing_alg_values_supported,omitempty"`
	CodeChallengeMethodsSupported              []string `json:"code_challenge_methods_supported,omitempty"`
	RevocationEndpoint                         string   `json:"revocation_endpoint,omitempty"`
	// ClientIDMetadataDocumentSupported: the server accepts a URL as
	// client_id, naming a client ID metadata document.
	ClientIDMetadataDocumentSupported bool `json:"client_id_metadata_document_supported,omitempty"`
	// AuthorizationResponseIssParameterSupported: the server puts iss in
	// its authorization responses (RFC 9207).
	AuthorizationResponseIssParameterSupported bool `json:"authorization_response_iss_parameter_supported,omitempty"`
	// DPoPSigningAlgValuesSupported lists the DPoP proof algorithms the
	// server accepts (RFC 9449).
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`

	// from20250326 marks metadata of a 2025-03-26 server found without
	// protected resource metadata, or made up from the default paths.
	from20250326 bool
}

// authMethods returns the token endpoint authentication methods the
// server accepts, RFC 8414's default client_secret_basic when it lists
// none.
func (m *AuthServerMetadata) authMethods() []string {
	if len(m.TokenEndpointAuthMethodsSupported) == 0 {
		return []string{"client_secret_basic"}
	}
	return m.TokenEndpointAuthMethodsSupported
}
