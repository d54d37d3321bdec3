package auth_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/auth"
)

func TestProtectedResourceMetadataPath(t *testing.T) {
	for in, want := range map[string]string{
		"/mcp":         "/.well-known/oauth-protected-resource/mcp",
		"/a/b/":        "/.well-known/oauth-protected-resource/a/b",
		"mcp":          "/.well-known/oauth-protected-resource/mcp",
		"/":            "/.well-known/oauth-protected-resource",
		"":             "/.well-known/oauth-protected-resource",
		"/tenant/mcp1": "/.well-known/oauth-protected-resource/tenant/mcp1",
	} {
		assert.Equal(t, want, auth.ProtectedResourceMetadataPath(in), in)
	}
}

func TestProtectedResourceMetadataURL(t *testing.T) {
	got, err := auth.ProtectedResourceMetadataURL("https://mcp.example.com:8443/v1/mcp")
	require.NoError(t, err)
	assert.Equal(t, "https://mcp.example.com:8443/.well-known/oauth-protected-resource/v1/mcp", got)
	got, err = auth.ProtectedResourceMetadataURL("http://127.0.0.1:3000")
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:3000/.well-known/oauth-protected-resource", got)
	for _, bad := range []string{"/mcp", "ftp://x/y", "https://x/mcp?a=1", "https://x/mcp#f", "http://[::1"} {
		_, err := auth.ProtectedResourceMetadataURL(bad)
		assert.Error(t, err, bad)
	}
}

func TestProtectedResourceHandlerMethods(t *testing.T) {
	h := auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{Resource: "https://x/mcp", AuthorizationServers: []string{"https://as"}})
	tests := []struct {
		method string
		status int
		body   string
	}{
		{http.MethodGet, 200, `{"resource":"https://x/mcp","authorization_servers":["https://as"]}`},
		{http.MethodHead, 200, ""},
		{http.MethodOptions, 204, ""},
		{http.MethodPost, 405, "method not allowed\n"},
	}
	for _, tt := range tests {
		t.Run(tt.method, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tt.method, "/.well-known/oauth-protected-resource/mcp", nil))
			assert.Equal(t, tt.status, rec.Code)
			assert.Equal(t, tt.body, rec.Body.String())
			assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
		})
	}
}
