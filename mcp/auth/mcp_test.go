package auth_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
)

// protectedMCP serves an MCP server with a whoami tool behind Require,
// and its protected resource metadata, on a test server.
func protectedMCP(t *testing.T) *httptest.Server {
	return protectedMCPWith(t, nil)
}

// protectedMCPWith is protectedMCP whose Require keeps sessions' tokens
// in sessions (when not nil); then answers are SSE streams, so that
// streaming through SessionTokens' response writer is exercised.
func protectedMCPWith(t *testing.T, sessions *auth.SessionTokens) *httptest.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			who := "nobody"
			if info := sessions.For(ctx, req.Session); info != nil {
				who = info.Subject
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(who)}}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "confirm", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if st := req.State(); st != nil {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("resumed " + string(st))}}, nil
			}
			return nil, &mcp.InputRequired{
				Requests: map[string]mcp.InputRequest{"ok": mcp.FormInput("Sure?", json.RawMessage(`{"type":"object","properties":{"ok":{"type":"boolean"}}}`))},
				State:    []byte("pending"),
			}
		}))
	mux := http.NewServeMux()
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	resource := srv.URL + "/mcp"
	prmURL, err := auth.ProtectedResourceMetadataURL(resource)
	require.NoError(t, err)
	mux.Handle(auth.ProtectedResourceMetadataPath("/mcp"), auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{
		Resource: resource, AuthorizationServers: []string{"https://as.example.com"}, ScopesSupported: []string{"mcp"},
	}))
	verify := auth.VerifierFunc(func(ctx context.Context, token string) (*auth.TokenInfo, error) {
		if strings.HasPrefix(token, "anon-") { // a token that identifies no one
			return &auth.TokenInfo{Scopes: []string{"mcp"}, Audience: []string{resource}}, nil
		}
		who, ok := strings.CutSuffix(token, "-token")
		if !ok {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{Subject: who, Scopes: []string{"mcp"}, Audience: []string{resource}, Expiry: time.Now().Add(time.Hour)}, nil
	})
	mux.Handle("/mcp", auth.Require(auth.RequireOptions{
		Verifier: verify, Resource: resource, Scopes: []string{"mcp"}, ResourceMetadataURL: prmURL, Sessions: sessions,
	})(mcp.NewStreamableHTTPHandler(s, &mcp.HTTPOptions{JSONResponse: sessions == nil})))
	return srv
}

func postJSON(t *testing.T, url, token, body string, headers ...string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestRequireInFrontOfTheHandshakeEra(t *testing.T) {
	srv := protectedMCP(t)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

	resp := postJSON(t, srv.URL+"/mcp", "", init)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
	c, ok := auth.FindChallenge(auth.ParseChallenges(resp.Header), "bearer")
	require.True(t, ok)
	assert.Equal(t, srv.URL+"/.well-known/oauth-protected-resource/mcp", c.Params["resource_metadata"])
	assert.Equal(t, "mcp", c.Params["scope"])

	resp = postJSON(t, srv.URL+"/mcp", "alice-token", init)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	sid := resp.Header.Get(mcp.HeaderSessionID)
	require.NotEmpty(t, sid)

	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`
	resp = postJSON(t, srv.URL+"/mcp", "wrong", call, mcp.HeaderSessionID, sid, mcp.HeaderProtocolVersion, "2025-11-25")
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "every request of a session is checked")

	resp = postJSON(t, srv.URL+"/mcp", "alice-token", call, mcp.HeaderSessionID, sid, mcp.HeaderProtocolVersion, "2025-11-25")
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, _ := io.ReadAll(resp.Body)
	// A session's handlers see the values of the POST that carried their
	// message, so the token reaches them in this era too.
	assert.Contains(t, string(b), `"alice"`)
}

func TestRequireInFrontOfTheStatelessEraGivesHandlersTheToken(t *testing.T) {
	srv := protectedMCP(t)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
	hdr := []string{mcp.HeaderProtocolVersion, mcp.Version20260728, mcp.HeaderMethod, "tools/call", mcp.HeaderName, "whoami"}

	resp := postJSON(t, srv.URL+"/mcp", "", call, hdr...)
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)

	resp = postJSON(t, srv.URL+"/mcp", "alice-token", call, hdr...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	var m struct {
		Result mcp.CallToolResult `json:"result"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
	require.Len(t, m.Result.Content, 1)
	b, _ := json.Marshal(m.Result.Content[0])
	assert.Contains(t, string(b), `"alice"`)
}

func TestRequestStateIssuedToOneUserOpensForNoOther(t *testing.T) {
	srv := protectedMCP(t)
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}}}}`
	hdr := []string{mcp.HeaderProtocolVersion, mcp.Version20260728, mcp.HeaderMethod, "tools/call", mcp.HeaderName, "confirm"}
	call := func(token, state string) (result, errMsg string) {
		params := `{"name":"confirm","arguments":{},` + meta
		if state != "" {
			params += `,"inputResponses":{"ok":{"action":"accept","content":{"ok":true}}},"requestState":"` + state + `"`
		}
		resp := postJSON(t, srv.URL+"/mcp", token, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":`+params+`}}`, hdr...)
		var m struct {
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&m))
		if m.Error != nil {
			return "", m.Error.Message
		}
		return string(m.Result), ""
	}
	for _, tt := range []struct{ issuedTo, other string }{
		{"alice-token", "bob-token"},
		{"anon-1", "anon-2"}, // two tokens that identify no one
		{"anon-1", "alice-token"},
	} {
		first, msg := call(tt.issuedTo, "")
		require.Empty(t, msg)
		var r struct {
			RequestState string `json:"requestState"`
		}
		require.NoError(t, json.Unmarshal([]byte(first), &r))
		require.NotEmpty(t, r.RequestState)

		_, msg = call(tt.other, r.RequestState)
		assert.Equal(t, "invalid params: requestState was not issued for this request or has expired", msg, "%s retries %s's call", tt.other, tt.issuedTo)
		res, msg := call(tt.issuedTo, r.RequestState)
		require.Empty(t, msg)
		assert.Contains(t, res, "resumed pending", "the token it was issued to")
	}
}

func TestProtectedResourceMetadataIsServed(t *testing.T) {
	srv := protectedMCP(t)
	resp, err := http.Get(srv.URL + "/.well-known/oauth-protected-resource/mcp")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	assert.Equal(t, "*", resp.Header.Get("Access-Control-Allow-Origin"))
	var md map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&md))
	assert.Equal(t, map[string]any{"resource": srv.URL + "/mcp", "authorization_servers": []any{"https://as.example.com"},
		"scopes_supported": []any{"mcp"}}, md)
}

func TestSessionTokensGiveSessionHandlersTheToken(t *testing.T) {
	sessions := auth.NewSessionTokens(0)
	srv := protectedMCPWith(t, sessions)
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	resp := postJSON(t, srv.URL+"/mcp", "alice-token", init)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	sid := resp.Header.Get(mcp.HeaderSessionID)
	require.NotEmpty(t, sid)
	assert.Equal(t, "alice", sessions.Get(sid).Subject)

	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami","arguments":{}}}`
	hdr := []string{mcp.HeaderSessionID, sid, mcp.HeaderProtocolVersion, "2025-11-25"}
	resp = postJSON(t, srv.URL+"/mcp", "alice-token", call, hdr...)
	require.Equal(t, http.StatusOK, resp.StatusCode)
	b, _ := io.ReadAll(resp.Body)
	assert.Contains(t, string(b), `"alice"`, "the session's handler sees the token")

	resp = postJSON(t, srv.URL+"/mcp", "mallory-token", call, hdr...)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "another user's token cannot use the session")
	var e rpcError
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&e))
	assert.Equal(t, auth.CodeForbidden, e.Error.Code)
	assert.Equal(t, `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/mcp"`, resp.Header.Get("WWW-Authenticate"),
		"the refusal names the resource metadata and no OAuth error")

	req, err := http.NewRequest(http.MethodDelete, srv.URL+"/mcp", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer alice-token")
	req.Header.Set(mcp.HeaderSessionID, sid)
	req.Header.Set(mcp.HeaderProtocolVersion, "2025-11-25")
	dresp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	dresp.Body.Close()
	require.Equal(t, 2, dresp.StatusCode/100)
	assert.Nil(t, sessions.Get(sid), "a closed session is forgotten")
}

func TestSessionTokensForAStatelessRequestReadTheContext(t *testing.T) {
	var s *auth.SessionTokens
	info := &auth.TokenInfo{Subject: "x"}
	assert.Same(t, info, s.For(auth.WithTokenInfo(context.Background(), info), nil))
	assert.Nil(t, s.For(context.Background(), nil))
}
