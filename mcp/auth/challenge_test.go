package auth_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

func TestParseChallenges(t *testing.T) {
	tests := []struct {
		name    string
		headers []string
		want    []auth.Challenge
	}{
		{"bearer with quoted params", []string{`Bearer resource_metadata="https://x/.well-known/oauth-protected-resource", scope="a b"`},
			[]auth.Challenge{{Scheme: "Bearer", Params: map[string]string{"resource_metadata": "https://x/.well-known/oauth-protected-resource", "scope": "a b"}}}},
		{"token values and odd spacing", []string{`Bearer   error=invalid_token ,scope="x"`},
			[]auth.Challenge{{Scheme: "Bearer", Params: map[string]string{"error": "invalid_token", "scope": "x"}}}},
		{"escapes in quoted strings", []string{`Bearer error_description="say \"hi\" \\ ok"`},
			[]auth.Challenge{{Scheme: "Bearer", Params: map[string]string{"error_description": `say "hi" \ ok`}}}},
		{"two challenges in one header", []string{`DPoP algs="ES256", error="use_dpop_nonce", Bearer realm="r"`},
			[]auth.Challenge{{Scheme: "DPoP", Params: map[string]string{"algs": "ES256", "error": "use_dpop_nonce"}},
				{Scheme: "Bearer", Params: map[string]string{"realm": "r"}}}},
		{"two headers", []string{`Basic realm="x"`, `Bearer scope="s"`},
			[]auth.Challenge{{Scheme: "Basic", Params: map[string]string{"realm": "x"}}, {Scheme: "Bearer", Params: map[string]string{"scope": "s"}}}},
		{"parameter names without case", []string{`Bearer Scope="s"`},
			[]auth.Challenge{{Scheme: "Bearer", Params: map[string]string{"scope": "s"}}}},
		{"scheme alone", []string{`Bearer`}, []auth.Challenge{{Scheme: "Bearer", Params: map[string]string{}}}},
		{"token68", []string{`Negotiate abc==, Bearer`},
			[]auth.Challenge{{Scheme: "Negotiate", Params: map[string]string{}}, {Scheme: "Bearer", Params: map[string]string{}}}},
		{"unterminated quote keeps what was read", []string{`Bearer scope="a`},
			[]auth.Challenge{{Scheme: "Bearer", Params: map[string]string{}}}},
		{"nothing", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := http.Header{}
			for _, v := range tt.headers {
				h.Add("WWW-Authenticate", v)
			}
			assert.Equal(t, tt.want, auth.ParseChallenges(h))
		})
	}
}

func TestChallengeStringRoundTrips(t *testing.T) {
	c := auth.Challenge{Scheme: "Bearer", Params: map[string]string{"zeta": "1", "error": "insufficient_scope", "scope": `a "b"`, "resource_metadata": "https://x"}}
	assert.Equal(t, `Bearer resource_metadata="https://x", scope="a \"b\"", error="insufficient_scope", zeta="1"`, c.String())
	h := http.Header{"Www-Authenticate": {c.String()}}
	got, ok := auth.FindChallenge(auth.ParseChallenges(h), "BEARER")
	assert.True(t, ok)
	assert.Equal(t, c, got)
	_, ok = auth.FindChallenge(auth.ParseChallenges(h), "DPoP")
	assert.False(t, ok)
}
