package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// Discovery errors.
var (
	// ErrNoResourceMetadata: the server publishes no protected resource
	// metadata where RFC 9728 puts it.
	ErrNoResourceMetadata = errors.New("auth: no protected resource metadata")
	// ErrResourceMismatch: the protected resource metadata names another
	// resource than the server the client talks to.
	ErrResourceMismatch = errors.New("auth: the protected resource metadata is for another resource")
	// ErrIssuerMismatch: authorization server metadata names another
	// issuer than the one it was fetched for, or an authorization
	// response carries another issuer (RFC 9207).
	ErrIssuerMismatch = errors.New("auth: issuer mismatch")
	// ErrNoAuthServerMetadata: no metadata at any well-known URL of the
	// issuer.
	ErrNoAuthServerMetadata = errors.New("auth: no authorization server metadata")
)

// maxMetadataBytes bounds a metadata document.
const maxMetadataBytes = 1 << 20

// ResourceMetadataURLs returns where a client looks for the protected
// resource metadata of the server at serverURL, in order: the
// path-based well-known URL, then the root one (RFC 9728 §3.1, the MCP
// authorization spec). A URL from a WWW-Authenticate resource_metadata
// parameter comes before both.
func ResourceMetadataURLs(serverURL string) ([]string, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("auth: %q is not an absolute URL", serverURL)
	}
	root := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: wellKnownPRM}).String()
	path := (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: ProtectedResourceMetadataPath(u.Path)}).String()
	if path == root {
		return []string{root}, nil
	}
	return []string{path, root}, nil
}

// AuthServerMetadataURLs returns the well-known URLs of an issuer's
// metadata in the order the MCP authorization spec tries them: for an
// issuer with a path, RFC 8414 with the path inserted, OpenID Connect
// with the path inserted, OpenID Connect with the path appended; for one
// without, RFC 8414 then OpenID Connect at the root.
func AuthServerMetadataURLs(issuer string) ([]string, error) {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil, err
	}
	if u.Scheme == "" || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("auth: %q is no issuer identifier", issuer)
	}
	at := func(p string) string { return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p}).String() }
	p := strings.TrimSuffix(u.Path, "/")
	if p == "" {
		return []string{at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")}, nil
	}
	return []string{
		at("/.well-known/oauth-authorization-server" + p),
		at("/.well-known/openid-configuration" + p),
		at(p + "/.well-known/openid-configuration"),
	}, nil
}

// FetchResourceMetadata fetches the protected resource metadata of the
// server at serverURL: from hint (the resource_metadata of a challenge)
// when given, then from the well-known URLs of [ResourceMetadataURLs]. It
// returns [ErrNoResourceMetadata] when none answers with a document, and
// [ErrResourceMismatch] when the document's resource does not cover
// serverURL (same origin, and its path equal to or a parent of the
// server's).
func FetchResourceMetadata(ctx context.Context, client *http.Client, serverURL, hint string) (*ProtectedResourceMetadata, error) {
	urls, err := ResourceMetadataURLs(serverURL)
	if err != nil {
		return nil, err
	}
	if hint != "" {
		ref, err := url.Parse(serverURL)
		if err != nil {
			return nil, err
		}
		h, err := ref.Parse(hint)
		if err != nil {
			return nil, fmt.Errorf("auth: resource_metadata %q: %w", hint, err)
		}
		urls = append([]string{h.String()}, urls...)
	}
	var md ProtectedResourceMetadata
	var found bool
	for _, u := range urls {
		ok, err := getJSON(ctx, client, u, &md)
		if err != nil {
			return nil, err
		}
		if ok {
			found = true
			break
		}
	}
	if !found {
		return nil, ErrNoResourceMetadata
	}
	if md.Resource == "" || !resourceCovers(md.Resource, serverURL) {
		return nil, fmt.Errorf("%w: %q does not cover %q", ErrResourceMismatch, md.Resource, serverURL)
	}
	return &md, nil
}

// FetchAuthServerMetadata fetches the metadata of issuer from the
// well-known URLs of [AuthServerMetadataURLs], in order, and checks that
// the document names issuer ([ErrIssuerMismatch] otherwise).
func FetchAuthServerMetadata(ctx context.Context, client *http.Client, issuer string) (*AuthServerMetadata, error) {
	urls, err := AuthServerMetadataURLs(issuer)
	if err != nil {
		return nil, err
	}
	for _, u := range urls {
		var md AuthServerMetadata
		ok, err := getJSON(ctx, client, u, &md)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if !sameIssuer(md.Issuer, issuer) {
			return nil, fmt.Errorf("%w: the metadata at %s names %q, not %q", ErrIssuerMismatch, u, md.Issuer, issuer)
		}
		return &md, nil
	}
	return nil, fmt.Errorf("%w for %s", ErrNoAuthServerMetadata, issuer)
}

// sameIssuer compares issuer identifiers as strings, except that an
// issuer without a path equals itself with a lone trailing slash.
func sameIssuer(got, want string) bool {
	if got == want {
		return true
	}
	g, w := strings.TrimSuffix(got, "/"), strings.TrimSuffix(want, "/")
	return g == w && !strings.Contains(strings.TrimPrefix(strings.TrimPrefix(g, "https://"), "http://"), "/")
}

// authServer20250326 finds the authorization server of a 2025-03-26 server
// that publishes no protected resource metadata: RFC 8414 metadata at the
// root of the server's origin, else the default endpoints /authorize,
// /token and /register there.
func authServer20250326(ctx context.Context, client *http.Client, serverURL string) (*AuthServerMetadata, error) {
	u, err := url.Parse(serverURL)
	if err != nil {
		return nil, err
	}
	at := func(p string) string { return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: p}).String() }
	var md AuthServerMetadata
	ok, err := getJSON(ctx, client, at("/.well-known/oauth-authorization-server"), &md)
	if err != nil {
		return nil, err
	}
	if !ok || md.AuthorizationEndpoint == "" || md.TokenEndpoint == "" {
		md = AuthServerMetadata{
			AuthorizationEndpoint: at("/authorize"),
			TokenEndpoint:         at("/token"),
			RegistrationEndpoint:  at("/register"),
		}
	}
	if md.Issuer == "" {
		md.Issuer = at("")
	}
	md.from20250326 = true
	return &md, nil
}

// getJSON GETs u into v. An answer other than 200 with a JSON object (of
// whatever Content-Type) is "not here" (false, nil); only a transport
// failure is an error.
func getJSON(ctx context.Context, client *http.Client, u string, v any) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, err
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("auth: GET %s: %w", u, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadataBytes))
		return false, nil
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxMetadataBytes)).Decode(v); err != nil {
		return false, nil
	}
	return true, nil
}
