package auth_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/auth"
)

// TestTheMCPClientAuthorizesThroughTheTransport runs our MCP client, over
// Streamable HTTP with an auth.Transport, against our MCP server behind
// Require, in each era: the client is authorized on its first request and
// the tool sees the user.
func TestTheMCPClientAuthorizesThroughTheTransport(t *testing.T) {
	for _, tt := range []struct {
		name     string
		versions []string
	}{
		{"every version (probe first)", nil},
		{"handshake 2025-11-25", []string{mcp.Version20251125}},
		{"stateless 2026-07-28", []string{mcp.Version20260728}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			as := newFakeAS(t, nil)
			sessions := auth.NewSessionTokens(0)
			s := mcp.NewServer(&mcp.Implementation{Name: "protected", Version: "1"}, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "whoami", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					who := "nobody"
					if info := sessions.For(ctx, req.Session); info != nil {
						who = info.Subject
					}
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(who)}}, nil
				}))
			mux := http.NewServeMux()
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			resource := srv.URL + "/mcp"
			prm, err := auth.ProtectedResourceMetadataURL(resource)
			require.NoError(t, err)
			mux.Handle(auth.ProtectedResourceMetadataPath("/mcp"), auth.ProtectedResourceHandler(&auth.ProtectedResourceMetadata{
				Resource: resource, AuthorizationServers: []string{as.issuer()},
			}))
			mux.Handle("/mcp", auth.Require(auth.RequireOptions{Verifier: auth.VerifierFunc(as.verify), Resource: resource,
				ResourceMetadataURL: prm, Sessions: sessions})(mcp.NewStreamableHTTPHandler(s, nil)))

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			c := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, &mcp.ClientOptions{ProtocolVersions: tt.versions})
			hc := &http.Client{Transport: auth.NewTransport(nil, headless())}
			cs, err := c.Connect(ctx, &mcp.StreamableHTTPTransport{URL: resource, HTTPClient: hc})
			require.NoError(t, err)
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolRequestParams{Name: "whoami"})
			require.NoError(t, err)
			require.Len(t, res.Content, 1)
			b, err := json.Marshal(res.Content[0])
			require.NoError(t, err)
			assert.Contains(t, string(b), `"user"`)
			auths, _, regs := as.counts()
			assert.Equal(t, [2]int{1, 1}, [2]int{auths, regs}, "one authorization for the whole session")
		})
	}
}
