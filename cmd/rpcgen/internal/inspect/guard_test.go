package inspect_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/cmd/rpcgen/internal/inspect"
)

func TestInspectorListensOnLoopbackWithARandomToken(t *testing.T) {
	a, b := start(t, greeter()), start(t, greeter())
	for _, in := range []*inspect.Inspector{a, b} {
		u, err := url.Parse(in.URL())
		require.NoError(t, err)
		assert.Equal(t, "127.0.0.1", u.Hostname())
		assert.NotEqual(t, "0", u.Port())
		assert.Len(t, u.Query().Get("token"), 43, "32 random bytes")
	}
	assert.NotEqual(t, pageClient(t, a).token, pageClient(t, b).token)
}

func TestPageAndAPIServeTheirOwnOriginWithTheToken(t *testing.T) {
	c := pageClient(t, start(t, greeter()))
	// The page itself is opened from the printed URL: token in the query,
	// no Origin.
	req, err := http.NewRequest("GET", c.base+"/?token="+c.token, nil)
	require.NoError(t, err)
	req.Header.Set("Sec-Fetch-Site", "none")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "no-referrer", resp.Header.Get("Referrer-Policy"))
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'")

	var s inspect.Session
	c.json("GET", "/api/session", "", http.StatusOK, &s)
	assert.Equal(t, "greeter", s.ServerInfo.Name)
}

func TestRequestsWithoutTheTokenFromAnotherOriginOrForAnotherHostAreRefused(t *testing.T) {
	c := pageClient(t, start(t, greeter()))
	host := strings.TrimPrefix(c.base, "http://")
	tests := []struct {
		name   string
		edit   func(r *http.Request)
		status int
		reason string
	}{
		{"no token", func(r *http.Request) { r.Header.Del(inspect.TokenHeader) }, http.StatusUnauthorized, "token"},
		{"a wrong token", func(r *http.Request) { r.Header.Set(inspect.TokenHeader, strings.Repeat("A", 43)) }, http.StatusUnauthorized, "token"},
		{"a wrong token in the query", func(r *http.Request) {
			r.Header.Del(inspect.TokenHeader)
			r.URL.RawQuery = "token=" + strings.Repeat("A", 43)
		}, http.StatusUnauthorized, "token"},
		{"a page of another site", func(r *http.Request) { r.Header.Set("Origin", "http://attacker.example") }, http.StatusForbidden, "origin"},
		{"a page on another loopback port", func(r *http.Request) { r.Header.Set("Origin", "http://127.0.0.1:1") }, http.StatusForbidden, "origin"},
		{"an opaque origin", func(r *http.Request) { r.Header.Set("Origin", "null") }, http.StatusForbidden, "origin"},
		{"a cross-site fetch without Origin", func(r *http.Request) {
			r.Header.Del("Origin")
			r.Header.Set("Sec-Fetch-Site", "cross-site")
		}, http.StatusForbidden, "origin"},
		{"a name rebound to loopback", func(r *http.Request) { r.Host = "attacker.example:" + strings.Split(host, ":")[1] }, http.StatusForbidden, "Host"},
		{"localhost for 127.0.0.1", func(r *http.Request) { r.Host = "localhost:" + strings.Split(host, ":")[1] }, http.StatusForbidden, "Host"},
	}
	paths := []struct{ method, path, body string }{
		{"GET", "/", ""},
		{"GET", "/ui/app.js", ""},
		{"GET", "/api/session", ""},
		{"GET", "/api/events", ""},
		{"GET", "/api/export", ""},
		{"POST", "/api/tools/call", `{"name":"greet","arguments":{"name":"x"}}`},
	}
	for _, tt := range tests {
		for _, p := range paths {
			t.Run(tt.name+" "+p.method+" "+p.path, func(t *testing.T) {
				req, err := http.NewRequest(p.method, c.base+p.path, strings.NewReader(p.body))
				require.NoError(t, err)
				req.Header.Set(inspect.TokenHeader, c.token)
				req.Header.Set("Origin", c.base)
				req.Header.Set("Content-Type", "application/json")
				tt.edit(req)
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				defer resp.Body.Close()
				body, _ := io.ReadAll(resp.Body)
				assert.Equal(t, tt.status, resp.StatusCode)
				assert.Contains(t, string(body), tt.reason)
			})
		}
	}
}

func TestAPIRefusesAPostThatIsNotJSON(t *testing.T) {
	c := pageClient(t, start(t, greeter()))
	req, err := http.NewRequest("POST", c.base+"/api/tools/call", strings.NewReader("name=greet"))
	require.NoError(t, err)
	req.Header.Set(inspect.TokenHeader, c.token)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
}
