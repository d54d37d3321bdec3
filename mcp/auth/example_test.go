package auth_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
)

// A protected MCP server: the MCP handler behind Require, and the
// protected resource metadata that tells clients where to get a token.
func ExampleRequire() {
	s := mcp.NewServer(&mcp.Implementation{Name: "notes", Version: "1.0.0"}, nil)
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux) // in production: the server's public origin
	defer srv.Close()
	resource := srv.URL + "/mcp" // the canonical URI tokens must be issued for
	prm, _ := auth.ProtectedResourceMetadataURL(resource)

	mux.Handle(auth.ProtectedResourceMetadataPath("/mcp"), auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{
		Resource:             resource,
		AuthorizationServers: []string{"https://login.example.com"},
		ScopesSupported:      []string{"notes:read"},
	}))
	verify := auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
		// Introspect the token, or check a JWT's signature and claims.
		if token != "valid-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Subject: "alice", Scopes: []string{"notes:read"},
			Audience: []string{resource}, Expiry: time.Now().Add(time.Hour)}, nil
	})
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{
		Verifier:            verify,
		Resource:            resource,
		Scopes:              []string{"notes:read"},
		ResourceMetadataURL: prm,
	})(mcp.NewStreamableHTTPHandler(s, nil)))

	resp, _ := http.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	resp.Body.Close()
	fmt.Println(resp.StatusCode)
	fmt.Println(strings.Replace(resp.Header.Get("WWW-Authenticate"), srv.URL, "http://server", 1))
	// Output:
	// 401
	// Bearer resource_metadata="http://server/.well-known/oauth-protected-resource/mcp", scope="notes:read"
}

// A client: the Transport authorizes the requests of the Streamable HTTP
// transport. The example runs a toy authorization server that approves at
// once, so HeadlessAuthorize stands in for the user's browser.
func ExampleNewTransport() {
	asMux := http.NewServeMux()
	as := httptest.NewServer(asMux)
	defer as.Close()
	asMux.HandleFunc("/.well-known/oauth-authorization-server", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"authorization_endpoint":%q,"token_endpoint":%q,
			"code_challenge_methods_supported":["S256"],"authorization_response_iss_parameter_supported":true}`,
			as.URL, as.URL+"/authorize", as.URL+"/token")
	})
	asMux.HandleFunc("/authorize", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		back := q.Get("redirect_uri") + "?" + url.Values{"code": {"c1"}, "state": {q.Get("state")}, "iss": {as.URL}}.Encode()
		http.Redirect(w, r, back, http.StatusFound)
	})
	asMux.HandleFunc("/token", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"access_token":"valid-token","token_type":"Bearer","expires_in":3600}`)
	})

	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	defer srv.Close()
	mux.Handle(auth.ProtectedResourceMetadataPath("/mcp"), auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{
		Resource: srv.URL + "/mcp", AuthorizationServers: []string{as.URL},
	}))
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{
		Verifier: auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
			if token != "valid-token" {
				return nil, auth.ErrInvalidToken
			}
			return &auth.TokenInfo{Subject: "alice"}, nil
		}),
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello %s", auth.TokenInfoFromContext(r.Context()).Subject)
	})))

	client := &http.Client{Transport: auth.NewTransport(nil, &auth.Config{
		ClientID: "notes-app", // pre-registered; without it the client registers itself
		// A real application opens authURL in a browser and waits for
		// the redirect to its RedirectURL.
		Authorize: auth.HeadlessAuthorize(nil),
	})}
	// With the MCP client: mcp.StreamableHTTPTransport{URL: u, HTTPClient: client}.
	resp, err := client.Post(srv.URL+"/mcp", "application/json", strings.NewReader(`{}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Println(resp.StatusCode, string(body))
	// Output:
	// 200 hello alice
}

// A service that acts for itself uses the client credentials grant.
func ExampleConfig_clientCredentials() {
	cfg := &auth.Config{
		Grant:        auth.GrantClientCredentials,
		ClientID:     "reporting-service",
		ClientSecret: "s3cret",
		Scopes:       []string{"notes:read"},
	}
	client := &http.Client{Transport: auth.NewTransport(nil, cfg)}
	_ = client // hand it to mcp.StreamableHTTPTransport
}
