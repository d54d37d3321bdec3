package mcp_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newServer(t *testing.T, opts *mcp.ServerOptions) *mcp.Server {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "0.1.0"}, opts)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "echo", Description: "Echoes text.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			require.NoError(t, json.Unmarshal(req.Params.Arguments, &in))
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(in.Text)}}, nil
		}))
	return s
}

func TestInitializeEchoesASupportedVersion(t *testing.T) {
	for _, v := range mcp.SupportedVersions() {
		t.Run(v, func(t *testing.T) {
			dial(t, newServer(t, nil), clientOptions{version: v})
		})
	}
}

func TestInitializeOffersTheLatestForAnUnknownVersion(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{noInit: true})
	res, rerr := c.call(t, "initialize", map[string]any{"protocolVersion": "2099-01-01", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "x", "version": "1"}})
	require.Nil(t, rerr)
	var r mcp.InitializeResult
	require.NoError(t, json.Unmarshal(res, &r))
	assert.Equal(t, mcp.LatestVersion, r.ProtocolVersion)
	assert.Equal(t, "test-server", r.ServerInfo.Name)
}

func TestCapabilitiesFollowRegistrations(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{noInit: true})
	res, rerr := c.call(t, "initialize", map[string]any{"protocolVersion": mcp.LatestVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "x", "version": "1"}})
	require.Nil(t, rerr)
	var r struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	require.NoError(t, json.Unmarshal(res, &r))
	assert.Contains(t, r.Capabilities, "tools")
	assert.Contains(t, r.Capabilities, "logging")
	assert.NotContains(t, r.Capabilities, "prompts")
	assert.NotContains(t, r.Capabilities, "resources")
	assert.NotContains(t, r.Capabilities, "completions")

	_, rerr = c.call(t, "prompts/list", map[string]any{})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code, "a method behind an unadvertised capability is -32601")
}

func TestOnlyPingBeforeInitialize(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{noInit: true})
	res, rerr := c.call(t, "ping", nil)
	require.Nil(t, rerr)
	assert.JSONEq(t, `{}`, string(res))
	_, rerr = c.call(t, "tools/list", map[string]any{})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidRequest, rerr.Code)
	assert.Contains(t, rerr.Message, "initialize")
}

func TestInitializeTwiceIsRefused(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	_, rerr := c.call(t, "initialize", map[string]any{"protocolVersion": mcp.LatestVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "x", "version": "1"}})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidRequest, rerr.Code)
}

func TestPingAndSetLevelResultsAreExactlyEmpty(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	res, rerr := c.call(t, "ping", nil)
	require.Nil(t, rerr)
	assert.Equal(t, `{}`, string(res))
	res, rerr = c.call(t, "logging/setLevel", map[string]any{"level": "info"})
	require.Nil(t, rerr)
	assert.Equal(t, `{}`, string(res))
}

func TestSetLevelRefusesAnUnknownLevel(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	_, rerr := c.call(t, "logging/setLevel", map[string]any{"level": "loud"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestMethodsOfALaterVersionAreNotFound(t *testing.T) {
	c := dial(t, newServer(t, &mcp.ServerOptions{Tasks: true}), clientOptions{version: mcp.Version20250618})
	_, rerr := c.call(t, "tasks/list", map[string]any{})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
}

func TestParamsFailingTheSchemaAreInvalidParams(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	_, rerr := c.call(t, "tools/call", map[string]any{"name": 42})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.NotEmpty(t, rerr.Data)
}

func TestUnknownMethodIsMethodNotFound(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	_, rerr := c.call(t, "tools/frobnicate", map[string]any{})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
}

func TestClientInfoAndCapabilitiesAreKept(t *testing.T) {
	s := newServer(t, nil)
	dial(t, s, clientOptions{caps: json.RawMessage(`{"sampling":{}}`)})
	ss := s.Sessions()
	require.Len(t, ss, 1)
	assert.Equal(t, mcp.LatestVersion, ss[0].ProtocolVersion())
	assert.JSONEq(t, `{"sampling":{}}`, string(ss[0].ClientCapabilities()))
	assert.Contains(t, string(ss[0].ClientInfo()), `"test"`)
	assert.Equal(t, "", ss[0].ID())
}

var _ = v20251125.MethodPing
