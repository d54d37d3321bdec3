package v20251125_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/mcpcheck"
	mcp "github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// checked is the server's end of a pipe: every message it writes or reads
// goes through the session checker, and the written ones are recorded.
type checked struct {
	rpc.Transport
	t       *testing.T
	c       *mcpcheck.Checker
	mu      sync.Mutex
	written []string
	bad     []error // what the checker found in the messages read
}

func (x *checked) Write(ctx context.Context, msg []byte) error {
	assert.NoError(x.t, x.c.Check(mcpcheck.ServerToClient, msg))
	x.mu.Lock()
	x.written = append(x.written, string(msg))
	x.mu.Unlock()
	return x.Transport.Write(ctx, msg)
}

func (x *checked) Read(ctx context.Context) ([]byte, error) {
	msg, err := x.Transport.Read(ctx)
	if err == nil {
		if cerr := x.c.Check(mcpcheck.ClientToServer, msg); cerr != nil {
			x.mu.Lock()
			x.bad = append(x.bad, cerr)
			x.mu.Unlock()
		}
	}
	return msg, err
}

// server is a small MCP server built on the generated interface only.
type server struct{ mcp.UnimplementedMCPServer }

func (server) Initialize(_ context.Context, p *mcp.InitializeRequestParams) (*mcp.InitializeResult, error) {
	return &mcp.InitializeResult{
		ProtocolVersion: p.ProtocolVersion,
		Capabilities:    mcp.ServerCapabilities{Tools: &mcp.ServerCapabilitiesTools{}},
		ServerInfo:      mcp.Implementation{Name: "bindings-test", Version: "0"},
	}, nil
}

func (server) Ping(context.Context, *mcp.RequestParams) (*mcp.EmptyResult, error) {
	return &mcp.EmptyResult{}, nil
}

func (server) ToolsCall(ctx context.Context, p *mcp.CallToolRequestParams) (*mcp.CallToolOutcome, error) {
	text := "arguments: " + string(p.Arguments)
	if p.Arguments == nil {
		text = "no arguments"
	}
	if p.Name == "ask" {
		answer, err := mcp.NewMCPCallbacksClient(rpc.ConnFromContext(ctx)).ElicitationCreate(ctx, &mcp.ElicitRequestParams{
			Value: mcp.ElicitRequestURLParams{Message: "Sign in", ElicitationID: "e1", URL: "https://auth.example/e1"},
		})
		if err != nil {
			return nil, err
		}
		text = "the user chose " + string(answer.Action)
	}
	return &mcp.CallToolOutcome{Value: mcp.CallToolResult{
		Content: []mcp.ContentBlock{{Value: mcp.TextContent{Text: text}}},
	}}, nil
}

// client answers elicitation requests by accepting them.
type client struct{ mcp.UnimplementedMCPCallbacks }

func (client) ElicitationCreate(_ context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
	if _, ok := p.AsURL(); !ok {
		return nil, rpc.InvalidParams("only URL mode is expected")
	}
	return &mcp.ElicitResult{Action: mcp.ElicitResultActionAccept}, nil
}

func TestGeneratedBindingsSpeakValidMCP(t *testing.T) {
	checker, err := mcpcheck.New(mcpcheck.OurVersion)
	require.NoError(t, err)
	st, ct := rpc.NewPipe()
	wire := &checked{Transport: st, t: t, c: checker}
	sr, cr := rpc.NewRouter(), rpc.NewRouter()
	mcp.RegisterMCPServer(sr, server{})
	mcp.RegisterMCPCallbacks(cr, client{})
	sc := rpc.NewConn(wire, rpc.WithHandler(sr))
	cc := rpc.NewConn(ct, rpc.WithHandler(cr))
	t.Cleanup(func() { cc.Close(); sc.Close() })
	ctx := context.Background()
	c := mcp.NewMCPClient(cc)

	init, err := c.Initialize(ctx, &mcp.InitializeRequestParams{
		ProtocolVersion: mcpcheck.OurVersion,
		ClientInfo:      mcp.Implementation{Name: "t", Version: "0"},
		Capabilities:    mcp.ClientCapabilities{Elicitation: &mcp.ClientCapabilitiesElicitation{URL: map[string]json.RawMessage{}}},
	})
	require.NoError(t, err)
	assert.Equal(t, mcpcheck.OurVersion, init.ProtocolVersion)
	require.NoError(t, c.NotificationsInitialized(ctx, nil))

	cases := []struct {
		name   string
		params *mcp.CallToolRequestParams
		want   string
	}{
		{"arguments may be left out", &mcp.CallToolRequestParams{Name: "echo"}, "no arguments"},
		{"arguments arrive as sent", &mcp.CallToolRequestParams{Name: "echo", Arguments: json.RawMessage(`{"a":1}`)}, `arguments: {"a":1}`},
		{"a handler can ask the client", &mcp.CallToolRequestParams{Name: "ask"}, "the user chose accept"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := c.ToolsCall(ctx, tc.params)
			require.NoError(t, err)
			res, ok := out.AsCallToolResult()
			require.True(t, ok, "%T", out.Value)
			require.Len(t, res.Content, 1)
			text, ok := res.Content[0].AsText()
			require.True(t, ok)
			assert.Equal(t, tc.want, text.Text)
		})
	}

	t.Run("a call without a tool name is invalid params", func(t *testing.T) {
		err := cc.Call(ctx, mcp.MethodToolsCall, map[string]any{"arguments": map[string]any{}}, nil)
		var rerr *rpc.Error
		require.True(t, errors.As(err, &rerr), "%v", err)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
		wire.mu.Lock()
		defer wire.mu.Unlock()
		require.Len(t, wire.bad, 1, "the checker reports the bad call, and only it")
		assert.ErrorContains(t, wire.bad[0], "missing property 'name'")
		wire.bad = nil
	})

	t.Run("ping answers exactly {}", func(t *testing.T) {
		_, err := c.Ping(ctx, nil)
		require.NoError(t, err)
		wire.mu.Lock()
		last := wire.written[len(wire.written)-1]
		wire.mu.Unlock()
		var msg struct{ Result json.RawMessage }
		require.NoError(t, json.Unmarshal([]byte(last), &msg))
		assert.JSONEq(t, `{}`, string(msg.Result))
	})
	wire.mu.Lock()
	defer wire.mu.Unlock()
	assert.Empty(t, wire.bad, "the client sent messages the checker rejects")
}
