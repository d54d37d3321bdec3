package auth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

func headless() *auth.Config {
	return &auth.Config{Authorize: auth.HeadlessAuthorize(nil)}
}

func TestTransportRunsTheAuthorizationCodeFlow(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) { rs.prm.ScopesSupported = []string{"mcp:read"} })
	tr := auth.NewTransport(nil, headless())

	body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	resp, got, err := do(t, tr, rs.url(), body)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, body, got, "the request body is sent again after authorizing")

	auths, tokens, regs := as.counts()
	require.Equal(t, [3]int{1, 1, 1}, [3]int{auths, tokens, regs})
	q := as.authReqs[0]
	assert.Equal(t, "S256", q.Get("code_challenge_method"))
	assert.Equal(t, rs.url(), q.Get("resource"), "resource as the metadata publishes it")
	assert.Equal(t, "mcp:read", q.Get("scope"), "all scopes_supported when the challenge names none")
	assert.Equal(t, "client-1", q.Get("client_id"))
	assert.Equal(t, auth.DefaultRedirectURL, q.Get("redirect_uri"))
	form := as.tokenForms[0]
	assert.Equal(t, rs.url(), form.Get("resource"))
	assert.NotEmpty(t, form.Get("code_verifier"))
	id, secret, ok := as.tokenReqs[0].BasicAuth()
	assert.True(t, ok, "a registration with a secret and no method: client_secret_basic, RFC 7591's default")
	assert.Equal(t, [2]string{"client-1", "secret-client-1"}, [2]string{id, secret})
	reg := as.regs[0]
	assert.Equal(t, "native", reg["application_type"])
	assert.Equal(t, "none", reg["token_endpoint_auth_method"])
	assert.Equal(t, []any{auth.DefaultRedirectURL}, reg["redirect_uris"])

	// The token is reused.
	resp, _, err = do(t, tr, rs.url(), body)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	auths, tokens, _ = as.counts()
	assert.Equal(t, [2]int{1, 1}, [2]int{auths, tokens})
}

func TestTransportFindsAuthServerMetadataInSpecOrder(t *testing.T) {
	got, err := auth.AuthServerMetadataURLs("https://as.example.com/tenant1")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"https://as.example.com/.well-known/oauth-authorization-server/tenant1",
		"https://as.example.com/.well-known/openid-configuration/tenant1",
		"https://as.example.com/tenant1/.well-known/openid-configuration",
	}, got)
	got, err = auth.AuthServerMetadataURLs("https://as.example.com/")
	require.NoError(t, err)
	assert.Equal(t, []string{
		"https://as.example.com/.well-known/oauth-authorization-server",
		"https://as.example.com/.well-known/openid-configuration",
	}, got)
	_, err = auth.AuthServerMetadataURLs("not a url")
	assert.Error(t, err)

	prm, err := auth.ResourceMetadataURLs("http://h:1/a/mcp?x=1")
	require.NoError(t, err)
	assert.Equal(t, []string{"http://h:1/.well-known/oauth-protected-resource/a/mcp", "http://h:1/.well-known/oauth-protected-resource"}, prm)
	prm, err = auth.ResourceMetadataURLs("http://h:1")
	require.NoError(t, err)
	assert.Equal(t, []string{"http://h:1/.well-known/oauth-protected-resource"}, prm)
}

func TestTransportWithATenantIssuer(t *testing.T) {
	as := newFakeAS(t, func(a *fakeAS) { a.path = "/tenant1" })
	rs := newFakeRS(t, as, nil)
	resp, _, err := do(t, auth.NewTransport(nil, headless()), rs.url(), `{}`)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestTransportRefuses(t *testing.T) {
	tests := []struct {
		name    string
		as      func(*fakeAS)
		rs      func(*fakeRS)
		cfg     func(*auth.Config)
		want    error
		message string
		asked   bool // the authorization endpoint was reached
		// the token endpoint was reached
		tokenAsked bool
	}{
		{name: "metadata for another resource", rs: func(rs *fakeRS) { rs.prm.Resource = "https://evil.example.com/mcp" },
			want: auth.ErrResourceMismatch},
		{name: "metadata for a sibling path", rs: func(rs *fakeRS) { rs.prm.Resource = rs.srv.URL + "/other" },
			want: auth.ErrResourceMismatch},
		{name: "metadata naming another issuer", as: func(a *fakeAS) { a.metadataIssuer = "https://attacker.example.com" },
			want: auth.ErrIssuerMismatch},
		{name: "iss advertised but missing", as: func(a *fakeAS) { a.issMode = "omit" }, want: auth.ErrMissingIssuer, asked: true},
		{name: "iss wrong", as: func(a *fakeAS) { a.issMode = "wrong" }, want: auth.ErrIssuerMismatch, asked: true},
		{name: "iss unexpected and wrong", as: func(a *fakeAS) { a.issMode = "wrong"; a.advertiseIss = false }, want: auth.ErrIssuerMismatch, asked: true},
		{name: "iss equal only after normalization", as: func(a *fakeAS) { a.issMode = "slash" }, want: auth.ErrIssuerMismatch, asked: true},
		{name: "no PKCE", as: func(a *fakeAS) { a.noPKCE = true }, want: auth.ErrNoPKCE},
		{name: "no way to register", as: func(a *fakeAS) { a.noRegistration = true }, want: auth.ErrNoClientIdentity},
		{name: "the user denies", as: func(a *fakeAS) { a.denyAuthorize = true }, message: "access_denied", asked: true},
		{name: "no user", cfg: func(c *auth.Config) { c.Authorize = nil }, message: "Config.Authorize is nil"},
		{name: "no authorization server named", rs: func(rs *fakeRS) { rs.prm.AuthorizationServers = nil }, message: "names no authorization server"},
		{name: "the code is refused", as: func(a *fakeAS) { a.tokenError = "invalid_grant" }, message: "invalid_grant", asked: true, tokenAsked: true},
		{name: "the state comes back changed", cfg: func(c *auth.Config) { c.Authorize = rewriteRedirect(c.Authorize, "state", "forged") },
			want: auth.ErrStateMismatch, asked: true},
		{name: "the response has no code", cfg: func(c *auth.Config) { c.Authorize = rewriteRedirect(c.Authorize, "code", "") },
			message: "has no code", asked: true},
		{name: "no authorization server metadata anywhere", rs: func(rs *fakeRS) { rs.prm.AuthorizationServers = []string{rs.srv.URL + "/nowhere"} },
			want: auth.ErrNoAuthServerMetadata},
		{name: "the registration is refused", as: func(a *fakeAS) { a.regError = "invalid_client_metadata" }, message: "invalid_client_metadata"},
		{name: "the registration names no client", as: func(a *fakeAS) { a.regNoID = true }, message: "has no client_id"},
		{name: "the token answer has no access token", as: func(a *fakeAS) { a.noAccessToken = true }, message: "no access_token",
			asked: true, tokenAsked: true},
		{name: "client credentials without a client", cfg: func(c *auth.Config) { c.Grant = auth.GrantClientCredentials }, want: auth.ErrNoClientIdentity},
		{name: "JWT bearer without an assertion", cfg: func(c *auth.Config) { c.Grant = auth.GrantJWTBearer }, message: "needs Config.Assertion"},
		{name: "an unknown grant", cfg: func(c *auth.Config) { c.Grant = "password" }, message: `unknown grant "password"`},
		{name: "private_key_jwt fixed by the registration, no key", as: func(a *fakeAS) { a.regMethod = "private_key_jwt" },
			message: "needs Config.PrivateKey"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, tt.rs)
			cfg := headless()
			if tt.cfg != nil {
				tt.cfg(cfg)
			}
			_, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
			require.Error(t, err)
			if tt.want != nil {
				assert.ErrorIs(t, err, tt.want)
			}
			if tt.message != "" {
				assert.ErrorContains(t, err, tt.message)
			}
			auths, tokens, _ := as.counts()
			assert.Equal(t, tt.asked, auths > 0, "authorization endpoint reached")
			assert.Equal(t, tt.tokenAsked, tokens > 0, "token endpoint reached")
		})
	}
}

// rewriteRedirect wraps authorize so that the redirect it returns has
// param set to value ("" removes it).
func rewriteRedirect(authorize auth.AuthorizeFunc, param, value string) auth.AuthorizeFunc {
	return func(ctx context.Context, authURL string) (*url.URL, error) {
		back, err := authorize(ctx, authURL)
		if err != nil {
			return nil, err
		}
		q := back.Query()
		if value == "" {
			q.Del(param)
		} else {
			q.Set(param, value)
		}
		back.RawQuery = q.Encode()
		return back, nil
	}
}

func TestTransportAcceptsAbsentIssWhenNotAdvertised(t *testing.T) {
	as := newFakeAS(t, func(a *fakeAS) { a.issMode = "omit"; a.advertiseIss = false })
	rs := newFakeRS(t, as, nil)
	resp, _, err := do(t, auth.NewTransport(nil, headless()), rs.url(), `{}`)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestTransportStepsUpScopes(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, func(rs *fakeRS) {
		rs.opts.Scopes = []string{"mcp:basic"}
		rs.opts.ScopesFor = func(r *http.Request) []string {
			if m, _ := auth.PeekCall(r); m == "tools/call" {
				return []string{"mcp:write"}
			}
			return nil
		}
	})
	tr := auth.NewTransport(nil, headless())
	resp, _, err := do(t, tr, rs.url(), `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	resp, _, err = do(t, tr, rs.url(), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"x"}}`)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.Len(t, as.authReqs, 2)
	assert.Equal(t, "mcp:basic", as.authReqs[0].Get("scope"), "the 401 challenge's scope")
	assert.Equal(t, "mcp:basic mcp:write", as.authReqs[1].Get("scope"), "the union on step-up")
	_, _, regs := as.counts()
	assert.Equal(t, 1, regs, "the registration is reused")
}

func TestTransportLimitsStepUps(t *testing.T) {
	// A server that always wants one more scope.
	grow := func(w http.ResponseWriter, r *http.Request, n *int) bool {
		if r.Header.Get("Authorization") == "" {
			return false
		}
		*n++
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="s%d"`, *n))
		w.WriteHeader(http.StatusForbidden)
		return true
	}
	for _, tt := range []struct {
		name  string
		max   int
		auths int
	}{
		{"default: two step-ups", 0, 3},
		{"one step-up", 1, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, nil)
			rs := newFakeRS(t, as, nil)
			n := 0
			rs.hook = func(w http.ResponseWriter, r *http.Request) bool { return grow(w, r, &n) }
			cfg := headless()
			cfg.MaxStepUps = tt.max
			resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
			require.NoError(t, err)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode, "the last refusal is the answer")
			auths, _, _ := as.counts()
			assert.Equal(t, tt.auths, auths)
		})
	}
	t.Run("not for scopes the token has", func(t *testing.T) {
		as := newFakeAS(t, nil)
		rs := newFakeRS(t, as, func(rs *fakeRS) { rs.opts.Scopes = []string{"mcp:admin"} })
		rs.hook = func(w http.ResponseWriter, r *http.Request) bool {
			if r.Header.Get("Authorization") == "" {
				return false
			}
			w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="mcp:admin"`)
			w.WriteHeader(http.StatusForbidden)
			return true
		}
		tr := auth.NewTransport(nil, headless())
		for range 2 {
			resp, _, err := do(t, tr, rs.url(), `{}`)
			require.NoError(t, err)
			assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		}
		auths, _, _ := as.counts()
		assert.Equal(t, 1, auths, "only the first 401 led to an authorization")
	})
}

func TestTransportRefreshes(t *testing.T) {
	t.Run("ahead of expiry", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.refresh = true; a.expiresIn = 10 })
		rs := newFakeRS(t, as, nil)
		tr := auth.NewTransport(nil, headless())
		for range 2 {
			resp, _, err := do(t, tr, rs.url(), `{}`)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode)
		}
		// A token with less than 30 s left is refreshed before it is sent:
		// right after it was issued, and again for the second request.
		require.Len(t, as.tokenForms, 3)
		assert.Equal(t, "refresh_token", as.tokenForms[1].Get("grant_type"))
		assert.Equal(t, "rt-at-2", as.tokenForms[1].Get("refresh_token"))
		assert.Equal(t, rs.url(), as.tokenForms[1].Get("resource"))
		assert.Equal(t, "rt-at-3", as.tokenForms[2].Get("refresh_token"))
		assert.Len(t, as.authReqs, 1, "no user is asked again")
	})
	t.Run("authenticated as the registration says", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.refresh = true; a.expiresIn = 10; a.regMethod = "client_secret_post" })
		rs := newFakeRS(t, as, nil)
		_, _, err := do(t, auth.NewTransport(nil, headless()), rs.url(), `{}`)
		require.NoError(t, err)
		require.Len(t, as.tokenForms, 2)
		assert.Equal(t, "refresh_token", as.tokenForms[1].Get("grant_type"))
		assert.Equal(t, "secret-client-1", as.tokenForms[1].Get("client_secret"))
	})
	t.Run("a refused refresh leaves the token to the server's 401", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.refresh = true; a.expiresIn = 10 })
		rs := newFakeRS(t, as, nil)
		tr := auth.NewTransport(nil, headless())
		_, _, err := do(t, tr, rs.url(), `{}`)
		require.NoError(t, err)
		as.tokenError = "invalid_grant"
		resp, _, err := do(t, tr, rs.url(), `{}`)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode, "the old token is still good")
	})
	t.Run("after the server refuses the token", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.refresh = true })
		rs := newFakeRS(t, as, nil)
		tr := auth.NewTransport(nil, headless())
		_, _, err := do(t, tr, rs.url(), `{}`)
		require.NoError(t, err)
		as.mu.Lock()
		for k := range as.issued {
			delete(as.issued, k) // revoked
		}
		as.mu.Unlock()
		resp, _, err := do(t, tr, rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Len(t, as.tokenForms, 2)
		assert.Equal(t, "refresh_token", as.tokenForms[1].Get("grant_type"))
	})
}

func TestTransportAsksForOfflineAccessOnlyWhereOffered(t *testing.T) {
	for _, tt := range []struct {
		name   string
		as     func(*fakeAS)
		cfg    func(*auth.Config)
		scopes string
	}{
		{"offered", func(a *fakeAS) { a.scopes = []string{"mcp", "offline_access"} }, nil, "mcp offline_access"},
		{"not listed", func(a *fakeAS) { a.scopes = []string{"mcp"} }, nil, "mcp"},
		{"no refresh grant", func(a *fakeAS) {
			a.scopes = []string{"mcp", "offline_access"}
			a.grants = []string{"authorization_code"}
		}, nil, "mcp"},
		{"turned off", func(a *fakeAS) { a.scopes = []string{"mcp", "offline_access"} }, func(c *auth.Config) { c.NoOfflineAccess = true }, "mcp"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, func(rs *fakeRS) { rs.prm.ScopesSupported = []string{"mcp"} })
			cfg := headless()
			if tt.cfg != nil {
				tt.cfg(cfg)
			}
			_, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
			require.NoError(t, err)
			assert.Equal(t, tt.scopes, as.authReqs[0].Get("scope"))
		})
	}
}

func TestTransportIdentifiesTheClient(t *testing.T) {
	tests := []struct {
		name  string
		as    func(*fakeAS)
		cfg   func(*auth.Config)
		regs  int
		id    string
		check func(t *testing.T, r *http.Request, form url.Values)
	}{
		{name: "pre-registered, basic", as: func(a *fakeAS) { a.noRegistration = true; a.authMethods = []string{"client_secret_basic"} },
			cfg: func(c *auth.Config) { c.ClientID, c.ClientSecret = "pre", "s3cret" }, id: "pre",
			check: func(t *testing.T, r *http.Request, form url.Values) {
				id, secret, ok := r.BasicAuth()
				assert.True(t, ok)
				assert.Equal(t, [2]string{"pre", "s3cret"}, [2]string{id, secret})
			}},
		{name: "pre-registered for another issuer is not offered", as: func(a *fakeAS) { a.authMethods = []string{"none"} },
			cfg: func(c *auth.Config) { c.ClientID, c.ClientIssuer = "pre", "https://other.example.com" }, regs: 1, id: "client-1"},
		{name: "client ID metadata document", as: func(a *fakeAS) { a.cimd = true },
			cfg: func(c *auth.Config) { c.ClientMetadataURL = "https://app.example.com/client.json" }, id: "https://app.example.com/client.json"},
		{name: "metadata document unsupported: registration", cfg: func(c *auth.Config) { c.ClientMetadataURL = "https://app.example.com/client.json" },
			regs: 1, id: "client-1"},
		{name: "registration fixes client_secret_post", as: func(a *fakeAS) { a.regMethod = "client_secret_post" }, regs: 1, id: "client-1",
			check: func(t *testing.T, r *http.Request, form url.Values) {
				assert.Equal(t, "secret-client-1", form.Get("client_secret"))
				assert.Empty(t, r.Header.Get("Authorization"))
			}},
		{name: "secret with basic preferred", as: func(a *fakeAS) { a.authMethods = []string{"client_secret_post", "client_secret_basic"} },
			regs: 1, id: "client-1",
			check: func(t *testing.T, r *http.Request, form url.Values) {
				_, _, ok := r.BasicAuth()
				assert.True(t, ok)
				assert.Empty(t, form.Get("client_secret"))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, tt.as)
			rs := newFakeRS(t, as, nil)
			cfg := headless()
			if tt.cfg != nil {
				tt.cfg(cfg)
			}
			resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			_, _, regs := as.counts()
			assert.Equal(t, tt.regs, regs)
			assert.Equal(t, tt.id, as.authReqs[0].Get("client_id"))
			if tt.check != nil {
				tt.check(t, as.tokenReqs[0], as.tokenForms[0])
			}
		})
	}
}

func TestTransportRegistersAgainWhenTheAuthServerChanges(t *testing.T) {
	as1 := newFakeAS(t, nil)
	as2 := newFakeAS(t, nil)
	rs := newFakeRS(t, as1, nil)
	store := auth.NewMemoryStore()
	cfg := headless()
	cfg.Store = store
	tr := auth.NewTransport(nil, cfg)
	_, _, err := do(t, tr, rs.url(), `{}`)
	require.NoError(t, err)
	ci1, err := store.Client(context.Background(), as1.issuer())
	require.NoError(t, err)
	require.NotNil(t, ci1)

	// The resource moves to as2; as1's tokens stop working.
	rs.mu.Lock()
	rs.prm.AuthorizationServers = []string{as2.issuer()}
	rs.as = []*fakeAS{as2}
	rs.mu.Unlock()
	as2.mu.Lock()
	as2.n = 100 // its client ids differ from as1's
	as2.mu.Unlock()
	resp, _, err := do(t, tr, rs.url(), `{}`)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	_, _, regs := as2.counts()
	assert.Equal(t, 1, regs, "registered at the new server")
	for _, q := range as2.authReqs {
		assert.NotEqual(t, ci1.ClientID, q.Get("client_id"))
	}
	for _, f := range as2.tokenForms {
		assert.NotEqual(t, ci1.ClientID, f.Get("client_id"))
	}
}

func TestTransportFallsBackFor20250326Servers(t *testing.T) {
	t.Run("metadata at the server's root", func(t *testing.T) {
		as := newFakeAS(t, nil)
		rs := newFakeRS(t, as, nil)
		// The resource server is its own authorization server and
		// publishes no protected resource metadata.
		rs.hook = func(w http.ResponseWriter, r *http.Request) bool { return false }
		srv := server20250326(t, as, true)
		resp, _, err := do(t, auth.NewTransport(nil, headless()), srv+"/mcp", `{}`)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		auths, tokens, regs := as.counts()
		assert.Equal(t, [3]int{1, 1, 1}, [3]int{auths, tokens, regs})
	})
	t.Run("default endpoints", func(t *testing.T) {
		as := newFakeAS(t, nil)
		srv := server20250326(t, as, false)
		resp, _, err := do(t, auth.NewTransport(nil, headless()), srv+"/mcp", `{}`)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		auths, tokens, regs := as.counts()
		assert.Equal(t, [3]int{1, 1, 1}, [3]int{auths, tokens, regs})
	})
}

// server20250326 is a 2025-03-26 MCP server that is its own authorization
// server: it forwards /authorize, /token, /register (and, with metadata,
// the RFC 8414 document) to as, and has no protected resource metadata.
func server20250326(t *testing.T, as *fakeAS, metadata bool) string {
	t.Helper()
	mux := http.NewServeMux()
	srv := newServer(t, mux)
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{Verifier: auth.VerifierFunc(as.verify)})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{}`))
	})))
	for _, p := range []string{"/authorize", "/token", "/register"} {
		mux.Handle(p, as.srv.Config.Handler)
	}
	if metadata {
		mux.Handle("/.well-known/oauth-authorization-server", as.srv.Config.Handler)
	}
	return srv.URL
}

func TestTransportClientCredentials(t *testing.T) {
	t.Run("client_secret_basic", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) {
			a.grants = []string{"client_credentials"}
			a.authMethods = []string{"client_secret_basic"}
		})
		rs := newFakeRS(t, as, nil)
		cfg := &auth.Config{Grant: auth.GrantClientCredentials, ClientID: "svc", ClientSecret: "pw"}
		resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Len(t, as.tokenReqs, 1)
		id, secret, ok := as.tokenReqs[0].BasicAuth()
		assert.True(t, ok)
		assert.Equal(t, [2]string{"svc", "pw"}, [2]string{id, secret})
		assert.Equal(t, "client_credentials", as.tokenForms[0].Get("grant_type"))
		assert.Equal(t, rs.url(), as.tokenForms[0].Get("resource"))
		assert.Empty(t, as.authReqs)
	})
	t.Run("private_key_jwt", func(t *testing.T) {
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		require.NoError(t, err)
		der, err := x509.MarshalPKCS8PrivateKey(key)
		require.NoError(t, err)
		signer, err := auth.ParsePrivateKeyPEM(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
		require.NoError(t, err)
		as := newFakeAS(t, func(a *fakeAS) {
			a.grants = []string{"client_credentials"}
			a.authMethods = []string{"private_key_jwt"}
			a.clientKey = &key.PublicKey
		})
		rs := newFakeRS(t, as, nil)
		cfg := &auth.Config{Grant: auth.GrantClientCredentials, ClientID: "svc", PrivateKey: signer}
		resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		f := as.tokenForms[0]
		assert.Equal(t, "urn:ietf:params:oauth:client-assertion-type:jwt-bearer", f.Get("client_assertion_type"))
		claims := jwtPart(t, f.Get("client_assertion"), 1)
		assert.Equal(t, "svc", claims["iss"])
		assert.Equal(t, "svc", claims["sub"])
		assert.Equal(t, as.issuer(), claims["aud"])
		assert.Equal(t, "ES256", jwtPart(t, f.Get("client_assertion"), 0)["alg"])
	})
	t.Run("without a client id", func(t *testing.T) {
		as := newFakeAS(t, nil)
		rs := newFakeRS(t, as, nil)
		_, _, err := do(t, auth.NewTransport(nil, &auth.Config{Grant: auth.GrantClientCredentials}), rs.url(), `{}`)
		assert.ErrorIs(t, err, auth.ErrNoClientIdentity)
	})
}

func TestTransportJWTBearer(t *testing.T) {
	t.Run("a workload token", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.noRegistration = true; a.authMethods = []string{"none"} })
		rs := newFakeRS(t, as, nil)
		cfg := &auth.Config{Grant: auth.GrantJWTBearer, ClientID: "workload", Assertion: auth.StaticAssertion("header.claims.sig")}
		resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		f := as.tokenForms[0]
		assert.Equal(t, "urn:ietf:params:oauth:grant-type:jwt-bearer", f.Get("grant_type"))
		assert.Equal(t, "header.claims.sig", f.Get("assertion"))
		assert.Equal(t, "workload", f.Get("client_id"))
	})
	t.Run("an enterprise identity assertion", func(t *testing.T) {
		as := newFakeAS(t, func(a *fakeAS) { a.authMethods = []string{"client_secret_basic"} })
		rs := newFakeRS(t, as, nil)
		var exchange url.Values
		idp := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			require.NoError(t, r.ParseForm())
			exchange = r.PostForm
			writeJSON(w, 200, map[string]string{"access_token": "id-jag", "issued_token_type": "urn:ietf:params:oauth:token-type:id-jag", "token_type": "N_A"})
		}))
		cfg := &auth.Config{Grant: auth.GrantJWTBearer, ClientID: "app", ClientSecret: "pw",
			Assertion: auth.EnterpriseAssertion(auth.EnterpriseConfig{TokenEndpoint: idp.URL, ClientID: "idp-app",
				IDToken: func(context.Context) (string, error) { return "id-token", nil }})}
		resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "urn:ietf:params:oauth:grant-type:token-exchange", exchange.Get("grant_type"))
		assert.Equal(t, "id-token", exchange.Get("subject_token"))
		assert.Equal(t, "urn:ietf:params:oauth:token-type:id_token", exchange.Get("subject_token_type"))
		assert.Equal(t, "urn:ietf:params:oauth:token-type:id-jag", exchange.Get("requested_token_type"))
		assert.Equal(t, as.issuer(), exchange.Get("audience"))
		assert.Equal(t, rs.url(), exchange.Get("resource"))
		assert.Equal(t, "idp-app", exchange.Get("client_id"))
		assert.Equal(t, "id-jag", as.tokenForms[0].Get("assertion"))
		_, _, ok := as.tokenReqs[0].BasicAuth()
		assert.True(t, ok)
	})
	t.Run("a refusal is final", func(t *testing.T) {
		as := newFakeAS(t, nil)
		rs := newFakeRS(t, as, nil)
		idp := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "expired"})
		}))
		cfg := &auth.Config{Grant: auth.GrantJWTBearer, Assertion: auth.EnterpriseAssertion(auth.EnterpriseConfig{TokenEndpoint: idp.URL,
			IDToken: func(context.Context) (string, error) { return "x", nil }})}
		_, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
		var te *auth.TokenError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, "invalid_grant", te.Code)
		assert.Empty(t, as.tokenForms)
	})
}

func TestTransportDPoP(t *testing.T) {
	as := newFakeAS(t, func(a *fakeAS) { a.dpopAlgs = []string{"ES256"}; a.dpopNonce = "as-nonce" })
	var mu sync.Mutex
	var proofs []map[string]any
	nonceAsked := false
	rs := newFakeRS(t, as, nil)
	rs.hook = func(w http.ResponseWriter, r *http.Request) bool {
		authz := r.Header.Get("Authorization")
		if !strings.HasPrefix(authz, "DPoP ") {
			return false // the bearer path: 401 first
		}
		proof := r.Header.Get("DPoP")
		header := jwtPart(t, proof, 0)
		claims := jwtPart(t, proof, 1)
		assert.Equal(t, "dpop+jwt", header["typ"])
		assert.NoError(t, verifyES256(proof, ecKeyFromJWK(t, header["jwk"].(map[string]any))))
		mu.Lock()
		defer mu.Unlock()
		proofs = append(proofs, claims)
		if claims["nonce"] != "n1" {
			nonceAsked = true
			w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
			w.Header().Set("DPoP-Nonce", "n1")
			w.WriteHeader(http.StatusUnauthorized)
			return true
		}
		w.Write([]byte(`{}`))
		return true
	}
	cfg := headless()
	cfg.DPoP = true
	tr := auth.NewTransport(nil, cfg)
	for range 2 {
		resp, _, err := do(t, tr, rs.url(), `{}`)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	require.Len(t, as.tokenReqs, 2, "the token request is repeated with the authorization server's nonce")
	assert.Nil(t, jwtPart(t, as.tokenReqs[0].Header.Get("DPoP"), 1)["nonce"])
	tokenProof := jwtPart(t, as.tokenReqs[1].Header.Get("DPoP"), 1)
	assert.Equal(t, "as-nonce", tokenProof["nonce"])
	assert.Equal(t, "POST", tokenProof["htm"])
	assert.Equal(t, as.issuer()+"/token", tokenProof["htu"])
	assert.Nil(t, tokenProof["ath"])
	assert.True(t, nonceAsked)
	require.Len(t, proofs, 3, "one nonce retry, then the nonce is remembered")
	assert.Equal(t, rs.url(), proofs[0]["htu"])
	assert.NotEmpty(t, proofs[0]["ath"])
	assert.NotEqual(t, proofs[1]["jti"], proofs[2]["jti"], "a fresh proof per request")
}

func TestTransportAuthorizesConcurrentRequestsOnce(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	tr := auth.NewTransport(nil, headless())
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, _, err := do(t, tr, rs.url(), `{}`)
			if assert.NoError(t, err) {
				assert.Equal(t, http.StatusOK, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	auths, _, regs := as.counts()
	assert.Equal(t, 1, auths)
	assert.Equal(t, 1, regs)
}

func TestTransportGivesUpAfterOneNewToken(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	rs.as = nil // no token is accepted
	resp, _, err := do(t, auth.NewTransport(nil, headless()), rs.url(), `{}`)
	require.NoError(t, err)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	auths, _, _ := as.counts()
	assert.Equal(t, 1, auths)
}

func TestTransportUsesAStoredTokenAfterARestart(t *testing.T) {
	as := newFakeAS(t, nil)
	rs := newFakeRS(t, as, nil)
	store := auth.NewMemoryStore()
	cfg := headless()
	cfg.Store = store
	_, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`)
	require.NoError(t, err)

	resp, _, err := do(t, auth.NewTransport(nil, cfg), rs.url(), `{}`) // a new process, the same store
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	auths, tokens, regs := as.counts()
	assert.Equal(t, [3]int{1, 1, 1}, [3]int{auths, tokens, regs})
}

func TestMemoryStoreKeepsCopies(t *testing.T) {
	ctx := context.Background()
	s := auth.NewMemoryStore()
	tok := &auth.Token{AccessToken: "a", Scopes: []string{"x"}}
	require.NoError(t, s.SaveToken(ctx, "https://H.example.com/mcp/", tok))
	tok.Scopes[0] = "changed"
	got, err := s.Token(ctx, "https://h.example.com/mcp")
	require.NoError(t, err)
	assert.Equal(t, []string{"x"}, got.Scopes, "saved by value, found by canonical resource")
	got.Scopes[0] = "changed"
	again, _ := s.Token(ctx, "https://h.example.com/mcp")
	assert.Equal(t, []string{"x"}, again.Scopes)
	require.NoError(t, s.SaveToken(ctx, "https://h.example.com/mcp", nil))
	got, err = s.Token(ctx, "https://h.example.com/mcp")
	assert.NoError(t, err)
	assert.Nil(t, got)

	require.NoError(t, s.SaveClient(ctx, "https://as", &auth.ClientInfo{ClientID: "c"}))
	ci, _ := s.Client(ctx, "https://as")
	assert.Equal(t, "c", ci.ClientID)
	ci, _ = s.Client(ctx, "https://other")
	assert.Nil(t, ci)
	require.NoError(t, s.SaveClient(ctx, "https://as", nil))
	ci, _ = s.Client(ctx, "https://as")
	assert.Nil(t, ci)
}

func TestEnterpriseAssertionRefuses(t *testing.T) {
	idp := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]string{"access_token": "not-a-grant", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token"})
	}))
	idToken := func(context.Context) (string, error) { return "id-token", nil }
	tests := []struct {
		name    string
		ec      auth.EnterpriseConfig
		message string
	}{
		{"no token endpoint", auth.EnterpriseConfig{IDToken: idToken}, "needs TokenEndpoint and IDToken"},
		{"no ID token source", auth.EnterpriseConfig{TokenEndpoint: idp.URL}, "needs TokenEndpoint and IDToken"},
		{"the ID token is unavailable", auth.EnterpriseConfig{TokenEndpoint: idp.URL,
			IDToken: func(context.Context) (string, error) { return "", errors.New("signed out") }}, "signed out"},
		{"the IdP issues something else", auth.EnterpriseConfig{TokenEndpoint: idp.URL, IDToken: idToken}, "not an identity assertion grant"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := auth.EnterpriseAssertion(tt.ec)(context.Background(), &auth.AuthServerMetadata{Issuer: "https://as"}, "https://rs/mcp", nil)
			assert.ErrorContains(t, err, tt.message)
		})
	}
}
