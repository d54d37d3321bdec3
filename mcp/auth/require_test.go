package auth_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

const (
	testResource = "https://mcp.example.com/mcp"
	testPRM      = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
)

// testVerifier knows a few tokens by name.
func testVerifier(now time.Time) auth.Verifier {
	tokens := map[string]*auth.TokenInfo{
		"good":    {Subject: "alice", ClientID: "c1", Scopes: []string{"read", "write"}, Audience: []string{testResource}, Expiry: now.Add(time.Hour)},
		"reader":  {Subject: "bob", Scopes: []string{"read"}, Audience: []string{"https://MCP.example.com/mcp/"}},
		"expired": {Subject: "carol", Scopes: []string{"read"}, Audience: []string{testResource}, Expiry: now.Add(-time.Second)},
		"other":   {Subject: "dave", Scopes: []string{"read"}, Audience: []string{"https://other.example.com"}},
	}
	return auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
		if token == "boom" {
			return nil, errors.New("database down")
		}
		if info, ok := tokens[token]; ok {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	})
}

// rpcError is the JSON-RPC error body of a refusal.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int               `json:"code"`
		Message string            `json:"message"`
		Data    map[string]string `json:"data"`
	} `json:"error"`
}

func TestRequireRefusesAndAdmits(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var seen *auth.TokenInfo
	var seenAuthz []string
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = auth.TokenInfoFromContext(r.Context())
		seenAuthz = r.Header.Values("Authorization")
		w.WriteHeader(http.StatusNoContent)
	})
	h := auth.Require(auth.RequireOptions{
		Verifier:            testVerifier(now),
		Resource:            testResource,
		Scopes:              []string{"read"},
		ResourceMetadataURL: testPRM,
		Now:                 func() time.Time { return now },
		ScopesFor: func(r *http.Request) []string {
			if _, name := auth.PeekCall(r); name == "delete" {
				return []string{"write"}
			}
			return nil
		},
	})(inner)

	tests := []struct {
		name      string
		target    string
		headers   []string
		body      string
		status    int
		challenge string
		code      int
	}{
		{name: "no token: 401 naming metadata and scope", status: 401, code: auth.CodeUnauthorized,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read"`},
		{name: "another scheme counts as no token", headers: []string{"Authorization", "Basic YTpi"}, status: 401, code: auth.CodeUnauthorized,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read"`},
		{name: "unknown token: 401 invalid_token", headers: []string{"Authorization", "Bearer nope"}, status: 401, code: auth.CodeUnauthorized,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_token", error_description="the access token is not valid"`},
		{name: "expired token: 401", headers: []string{"Authorization", "Bearer expired"}, status: 401, code: auth.CodeUnauthorized,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_token", error_description="the access token has expired"`},
		{name: "token for another resource: 401", headers: []string{"Authorization", "Bearer other"}, status: 401, code: auth.CodeUnauthorized,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_token", error_description="the access token was not issued for this resource"`},
		{name: "missing scope for a tool: 403 insufficient_scope", headers: []string{"Authorization", "Bearer reader"},
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete"}}`, status: 403, code: auth.CodeForbidden,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read write", error="insufficient_scope", error_description="the access token lacks a scope this request needs"`},
		{name: "missing scope named by the 2026 headers", headers: []string{"Authorization", "Bearer reader", "Mcp-Method", "tools/call", "Mcp-Name", "delete"},
			status: 403, code: auth.CodeForbidden,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read write", error="insufficient_scope", error_description="the access token lacks a scope this request needs"`},
		{name: "bearer without a token: 400", headers: []string{"Authorization", "Bearer"}, status: 400, code: auth.CodeBadAuthorization,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_request", error_description="the Authorization header does not hold a bearer token"`},
		{name: "bearer with spaces in the token: 400", headers: []string{"Authorization", "Bearer a b"}, status: 400, code: auth.CodeBadAuthorization,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_request", error_description="the Authorization header does not hold a bearer token"`},
		{name: "two Authorization headers: 400", headers: []string{"Authorization", "Bearer good", "Authorization", "Bearer good"}, status: 400, code: auth.CodeBadAuthorization,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_request", error_description="more than one Authorization header"`},
		{name: "token in the query string is refused unread", target: "/mcp?access_token=good", status: 400, code: auth.CodeBadAuthorization,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_request", error_description="access tokens are accepted only in the Authorization header"`},
		{name: "query token refused even beside a header", target: "/mcp?access_token=good", headers: []string{"Authorization", "Bearer good"}, status: 400, code: auth.CodeBadAuthorization,
			challenge: `Bearer resource_metadata="` + testPRM + `", scope="read", error="invalid_request", error_description="access tokens are accepted only in the Authorization header"`},
		{name: "verifier failure: 500", headers: []string{"Authorization", "Bearer boom"}, status: 500, code: -32603},
		{name: "good token admitted", headers: []string{"Authorization", "Bearer good"},
			body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"delete"}}`, status: 204},
		{name: "audience compared canonically", headers: []string{"Authorization", "bearer reader"}, status: 204},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen, seenAuthz = nil, nil
			target := tt.target
			if target == "" {
				target = "/mcp"
			}
			body := tt.body
			if body == "" {
				body = `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
			}
			req := httptest.NewRequest(http.MethodPost, target, strings.NewReader(body))
			for i := 0; i+1 < len(tt.headers); i += 2 {
				req.Header.Add(tt.headers[i], tt.headers[i+1])
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			require.Equal(t, tt.status, rec.Code, rec.Body.String())
			if tt.status == 204 {
				require.NotNil(t, seen, "the handler sees the token")
				assert.Empty(t, seenAuthz, "the Authorization header never reaches the handler")
				return
			}
			assert.Nil(t, seen, "a refused request never reaches the handler")
			assert.Equal(t, tt.challenge, rec.Header().Get("WWW-Authenticate"))
			assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			var e rpcError
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &e))
			assert.Equal(t, "2.0", e.JSONRPC)
			assert.Equal(t, "null", string(e.ID))
			assert.Equal(t, tt.code, e.Error.Code)
			assert.NotEmpty(t, e.Error.Message)
			var oauthCode string
			if cs := auth.ParseChallenges(rec.Header()); len(cs) > 0 {
				oauthCode = cs[0].Params["error"]
			}
			assert.Equal(t, oauthCode, e.Error.Data["error"], "data.error repeats the challenge's OAuth error code")
		})
	}
}

func TestRequireKeepsTheBodyForTheHandlerAfterPeeking(t *testing.T) {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}`
	var got string
	h := auth.Require(auth.RequireOptions{
		Verifier: auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
			return &auth.TokenInfo{Scopes: []string{"a"}}, nil
		}),
		ScopesFor: func(r *http.Request) []string {
			m, n := auth.PeekCall(r)
			assert.Equal(t, "tools/call", m)
			assert.Equal(t, "x", n)
			return nil
		},
	})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = string(b)
	}))
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer t")
	h.ServeHTTP(httptest.NewRecorder(), req)
	assert.Equal(t, body, got)
}

func TestRequireLetsCORSPreflightThrough(t *testing.T) {
	called := false
	h := auth.Require(auth.RequireOptions{Verifier: testVerifier(time.Now())})(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		called = true
	}))
	req := httptest.NewRequest(http.MethodOptions, "/mcp", nil)
	req.Header.Set("Access-Control-Request-Method", "POST")
	h.ServeHTTP(httptest.NewRecorder(), req)
	assert.True(t, called)
}

func TestRequirePanicsWithoutVerifier(t *testing.T) {
	assert.Panics(t, func() { auth.Require(auth.RequireOptions{}) })
}

func TestPeekCall(t *testing.T) {
	tests := []struct {
		name, body   string
		method, want string
	}{
		{"tool call", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}`, "tools/call", "t"},
		{"resource read", `{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"file:///a"}}`, "resources/read", "file:///a"},
		{"no params", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, "ping", ""},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "", ""},
		{"not JSON", `{`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(tt.body))
			m, n := auth.PeekCall(r)
			assert.Equal(t, tt.method, m)
			assert.Equal(t, tt.want, n)
			rest, _ := io.ReadAll(r.Body)
			assert.Equal(t, tt.body, string(rest), "the body stays readable")
		})
	}
	t.Run("GET has no call", func(t *testing.T) {
		m, _ := auth.PeekCall(httptest.NewRequest(http.MethodGet, "/", nil))
		assert.Empty(t, m)
	})
}
