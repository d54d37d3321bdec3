package mcp_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// One convention for the whole package: protocol structs are passed and
// returned by pointer. The declarations fail to compile if a signature
// drifts from it.
var (
	_ func(*mcp.Implementation, *mcp.ServerOptions) *mcp.Server = mcp.NewServer
	_ func(*mcp.Implementation, *mcp.ClientOptions) *mcp.Client = mcp.NewClient
	_ func(string) *mcp.CallToolResult                          = mcp.ToolError
	_ func(*mcp.Resource) mcp.ContentBlock                      = mcp.Link
	_ func(*mcp.ClientCapabilities) *rpc.Error                  = mcp.MissingCapability
	_ func(*mcp.CallToolRequest) *mcp.ClientCapabilities        = (*mcp.CallToolRequest).ClientCapabilities
)

func TestToolErrorIsWhatAToolHandlerReturns(t *testing.T) {
	var h mcp.ToolHandler = func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.ToolError("no such city"), nil
	}
	res, err := h(context.Background(), nil)
	require.NoError(t, err)
	require.NotNil(t, res.IsError)
	assert.True(t, *res.IsError)
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].AsText()
	require.True(t, ok)
	assert.Equal(t, "no such city", text.Text)
}

func TestRequestClientCapabilitiesIsACopy(t *testing.T) {
	s := newServer(t, nil)
	seen := make(chan *mcp.ClientCapabilities, 2)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "caps"}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		caps := req.ClientCapabilities()
		seen <- caps
		caps.Roots = nil // the handler's own copy: the session keeps what the client declared
		seen <- req.ClientCapabilities()
		return &mcp.CallToolResult{}, nil
	}))
	f := connect(t, s, &mcp.ClientOptions{
		ProtocolVersions: []string{mcp.Version20251125},
		ListRoots:        func(context.Context) (*mcp.ListRootsResult, error) { return &mcp.ListRootsResult{}, nil },
	})
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "caps"})
	require.NoError(t, err)
	first, second := <-seen, <-seen
	assert.Nil(t, first.Roots)
	assert.NotNil(t, second.Roots, "changing one copy changes nothing else")
}
