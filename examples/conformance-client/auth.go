package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

// cimdURL is the client ID metadata document URL the auth scenarios
// expect a client to use where the authorization server accepts one.
const cimdURL = "https://conformance-test.local/client-metadata.json"

// authContext is MCP_CONFORMANCE_CONTEXT of the auth scenarios.
type authContext struct {
	ClientID         string `json:"client_id"`
	ClientSecret     string `json:"client_secret"`
	Issuer           string `json:"issuer"`
	PrivateKeyPEM    string `json:"private_key_pem"`
	SigningAlgorithm string `json:"signing_algorithm"`
	IdPClientID      string `json:"idp_client_id"`
	IdPIDToken       string `json:"idp_id_token"`
	IdPIssuer        string `json:"idp_issuer"`
	IdPTokenEndpoint string `json:"idp_token_endpoint"`
	ValidJWT         string `json:"valid_jwt"`
}

// authScenarios lists the auth/* scenarios of both suites: every one
// connects through an auth.Transport configured as the scenario needs,
// lists the tools and calls the first.
func authScenarios() map[string]scenarioFunc {
	plain := authScenario(nil)
	out := map[string]scenarioFunc{}
	for _, name := range []string{
		// 0.1.16 core and both 0.2.0 requirement sets
		"auth/metadata-default", "auth/metadata-var1", "auth/metadata-var2", "auth/metadata-var3",
		"auth/basic-cimd",
		"auth/scope-from-www-authenticate", "auth/scope-from-scopes-supported", "auth/scope-omitted-when-undefined",
		"auth/scope-step-up", "auth/scope-retry-limit",
		"auth/token-endpoint-auth-basic", "auth/token-endpoint-auth-post", "auth/token-endpoint-auth-none",
		// 2025-03-26 back-compat
		"auth/2025-03-26-oauth-metadata-backcompat", "auth/2025-03-26-oauth-endpoint-fallback",
		// draft in 0.1.16, 2026-07-28 in 0.2.0
		"auth/resource-mismatch", "auth/offline-access-scope", "auth/offline-access-not-supported",
		"auth/authorization-server-migration", "auth/metadata-issuer-mismatch",
		"auth/iss-supported", "auth/iss-not-advertised", "auth/iss-supported-missing",
		"auth/iss-wrong-issuer", "auth/iss-unexpected", "auth/iss-normalized",
	} {
		out[name] = plain
	}
	out["auth/pre-registration"] = authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.ClientID, cfg.ClientSecret, cfg.ClientIssuer = c.ClientID, c.ClientSecret, c.Issuer
		return needs(c.ClientID != "", "client_id")
	})
	out["auth/client-credentials-basic"] = authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.Grant = auth.GrantClientCredentials
		cfg.ClientID, cfg.ClientSecret = c.ClientID, c.ClientSecret
		return needs(c.ClientID != "" && c.ClientSecret != "", "client_id and client_secret")
	})
	out["auth/client-credentials-jwt"] = authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.Grant = auth.GrantClientCredentials
		cfg.ClientID = c.ClientID
		key, err := auth.ParsePrivateKeyPEM([]byte(c.PrivateKeyPEM))
		cfg.PrivateKey = key
		return err
	})
	enterprise := authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.Grant = auth.GrantJWTBearer
		cfg.ClientID, cfg.ClientSecret = c.ClientID, c.ClientSecret
		cfg.Assertion = auth.EnterpriseAssertion(auth.EnterpriseConfig{
			TokenEndpoint: c.IdPTokenEndpoint,
			ClientID:      c.IdPClientID,
			IDToken:       func(context.Context) (string, error) { return c.IdPIDToken, nil },
		})
		return needs(c.IdPTokenEndpoint != "" && c.IdPIDToken != "", "idp_token_endpoint and idp_id_token")
	})
	out["auth/cross-app-access-complete-flow"] = enterprise
	out["auth/enterprise-managed-authorization"] = enterprise
	out["auth/wif-jwt-bearer"] = authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.Grant = auth.GrantJWTBearer
		cfg.ClientID = c.ClientID
		cfg.Assertion = auth.StaticAssertion(c.ValidJWT)
		return needs(c.ValidJWT != "", "valid_jwt")
	})
	dpop := authScenario(func(c *authContext, cfg *auth.Config) error {
		cfg.DPoP = true
		return nil
	})
	out["auth/dpop"] = dpop
	out["auth/dpop-nonce"] = dpop
	return out
}

// authScenario returns a scenario that configures an auth.Transport for
// authorization code with a headless user, lets setup adapt it to the
// scenario's context, and runs an MCP session through it.
func authScenario(setup func(*authContext, *auth.Config) error) scenarioFunc {
	return func(ctx context.Context, env *scenarioEnv) error {
		var c authContext
		if len(env.Context) > 0 {
			if err := json.Unmarshal(env.Context, &c); err != nil {
				return fmt.Errorf("context: %w", err)
			}
		}
		cfg := &auth.Config{
			ClientName:        "schemarpc conformance client",
			ClientMetadataURL: cimdURL,
			Authorize:         auth.HeadlessAuthorize(nil),
		}
		if setup != nil {
			if err := setup(&c, cfg); err != nil {
				return err
			}
		}
		client := &http.Client{Transport: auth.NewTransport(nil, cfg)}
		return runToolsSession(ctx, env, client)
	}
}

func needs(ok bool, what string) error {
	if !ok {
		return fmt.Errorf("the scenario context lacks %s", what)
	}
	return nil
}
