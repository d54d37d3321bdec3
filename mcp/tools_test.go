package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type addIn struct {
	A float64 `json:"a"`
	B float64 `json:"b"`
}

type addOut struct {
	Sum float64 `json:"sum"`
}

func typedServer(t *testing.T, opts *mcp.ServerOptions) *mcp.Server {
	s := newServer(t, opts)
	require.NoError(t, mcp.AddTool(s, &mcp.Tool{Name: "add", Description: "Adds."},
		func(ctx context.Context, req *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
			return nil, addOut{Sum: in.A + in.B}, nil
		}))
	require.NoError(t, mcp.AddTool(s, &mcp.Tool{Name: "fails", Description: "Always fails."},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct{}) (*mcp.CallToolResult, any, error) {
			return nil, nil, errors.New("the disk is full")
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "noargs", Description: "Takes nothing."},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("args=" + string(req.Params.Arguments))}}, nil
		}))
	return s
}

func callTool(t *testing.T, c *client, name string, args any) (map[string]any, *rpc.Error) {
	t.Helper()
	p := map[string]any{"name": name}
	if args != nil {
		p["arguments"] = args
	}
	res, rerr := c.call(t, "tools/call", p)
	if rerr != nil {
		return nil, rerr
	}
	var out map[string]any
	require.NoError(t, json.Unmarshal(res, &out))
	return out, nil
}

func TestTypedToolDerivesSchemasAndReturnsStructuredContent(t *testing.T) {
	c := dial(t, typedServer(t, nil), clientOptions{})
	res, rerr := c.call(t, "tools/list", map[string]any{})
	require.Nil(t, rerr)
	var list mcp.ListToolsResult
	require.NoError(t, json.Unmarshal(res, &list))
	require.Len(t, list.Tools, 4)
	add := list.Tools[1]
	assert.Equal(t, "add", add.Name)
	assert.Contains(t, string(add.InputSchema), `"required":["a","b"]`)
	assert.Contains(t, string(add.OutputSchema), `"sum"`)

	out, rerr := callTool(t, c, "add", map[string]any{"a": 1, "b": 2.5})
	require.Nil(t, rerr)
	assert.Equal(t, map[string]any{"sum": 3.5}, out["structuredContent"])
	assert.Equal(t, `{"sum":3.5}`, out["content"].([]any)[0].(map[string]any)["text"], "structured output is also sent as text")
}

func TestBadArgumentsAreAToolErrorByDefault(t *testing.T) {
	c := dial(t, typedServer(t, nil), clientOptions{})
	out, rerr := callTool(t, c, "add", map[string]any{"a": "one"})
	require.Nil(t, rerr)
	assert.Equal(t, true, out["isError"])
	text := out["content"].([]any)[0].(map[string]any)["text"].(string)
	assert.Contains(t, text, "invalid arguments")
}

func TestBadArgumentsCanBeInvalidParams(t *testing.T) {
	c := dial(t, typedServer(t, &mcp.ServerOptions{InvalidArgumentsAsError: true}), clientOptions{})
	_, rerr := callTool(t, c, "add", map[string]any{"a": "one", "b": 2})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, string(rerr.Data), `"/a"`)
}

func TestUnknownToolIsInvalidParams(t *testing.T) {
	c := dial(t, typedServer(t, nil), clientOptions{})
	_, rerr := callTool(t, c, "nope", nil)
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, rerr.Message, `"nope"`)
}

func TestCallWithArgumentsOmittedWorks(t *testing.T) {
	c := dial(t, typedServer(t, nil), clientOptions{})
	out, rerr := callTool(t, c, "noargs", nil)
	require.Nil(t, rerr)
	assert.Equal(t, "args={}", out["content"].([]any)[0].(map[string]any)["text"])
	assert.Nil(t, out["isError"])
}

func TestHandlerErrorBecomesAToolResult(t *testing.T) {
	c := dial(t, typedServer(t, nil), clientOptions{})
	out, rerr := callTool(t, c, "fails", map[string]any{})
	require.Nil(t, rerr)
	assert.Equal(t, true, out["isError"])
	assert.Equal(t, "the disk is full", out["content"].([]any)[0].(map[string]any)["text"])
}

func TestHandlerRPCErrorIsSentAsIs(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "deny"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, rpc.NewError(4001, "not allowed")
	}))
	c := dial(t, s, clientOptions{})
	_, rerr := callTool(t, c, "deny", nil)
	require.NotNil(t, rerr)
	assert.Equal(t, 4001, rerr.Code)
}

func TestOutputNotMatchingItsSchemaIsAnInternalError(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "liar", OutputSchema: json.RawMessage(`{"type":"object","required":["n"]}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"m":1}`)}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "mute", OutputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		}))
	// A repeated name hides a wrong value from a reader that keeps the
	// first one: the library, which keeps the last, decides.
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "twice", OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{StructuredContent: json.RawMessage(`{"n":1,"n":"x"}`)}, nil
		}))
	c := dial(t, s, clientOptions{})
	for _, name := range []string{"liar", "mute", "twice"} {
		_, rerr := callTool(t, c, name, nil)
		require.NotNil(t, rerr, name)
		assert.Equal(t, rpc.CodeInternalError, rerr.Code, name)
	}
}

func TestAddToolRejectsBadDefinitions(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	cases := map[string]struct {
		tool *mcp.Tool
		h    mcp.ToolHandler
		want string
	}{
		"bad name":              {&mcp.Tool{Name: "a/b"}, h, "tool name"},
		"empty name":            {&mcp.Tool{Name: ""}, h, "tool name"},
		"name too long":         {&mcp.Tool{Name: strings.Repeat("a", 129)}, h, "tool name"},
		"non-ASCII name":        {&mcp.Tool{Name: "caf\u00e9"}, h, "tool name"},
		"space in name":         {&mcp.Tool{Name: "a b"}, h, "tool name"},
		"not an object":         {&mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"string"}`)}, h, `"type": "object"`},
		"not JSON":              {&mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{`)}, h, "not JSON"},
		"data after the schema": {&mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"object"} {}`)}, h, "data after the JSON value"},
		"remote ref":            {&mcp.Tool{Name: "x", InputSchema: json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`)}, h, "does not compile"},
		"bad output":            {&mcp.Tool{Name: "x", OutputSchema: json.RawMessage(`[]`)}, h, "outputSchema must be a JSON object"},
		"nil handler":           {&mcp.Tool{Name: "x"}, nil, "nil handler"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			err := s.AddTool(tc.tool, tc.h)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestAToolsInputSchemaTypeIsReadAsADecoderReadsIt pins the checks made
// on a schema's text before it compiles: its "type" is read as a JSON
// decoder reads it, escapes decoded and the last of a repeated name kept.
func TestAToolsInputSchemaTypeIsReadAsADecoderReadsIt(t *testing.T) {
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	for name, tc := range map[string]struct {
		schema string
		ok     bool
	}{
		"escaped name and value":  {`{"typ\u0065":"obj\u0065ct"}`, true},
		"the last type is object": {`{"type":"string","type":"object"}`, true},
		"the last type is string": {`{"type":"object","type":"string"}`, false},
		"type in a property only": {`{"properties":{"type":{"type":"object"}}}`, false},
		"type not a string":       {`{"type":["object"]}`, false},
		"whitespace around":       {" \n{ \"type\" : \"object\" }\t", true},
	} {
		t.Run(name, func(t *testing.T) {
			s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
			err := s.AddTool(&mcp.Tool{Name: "x", InputSchema: json.RawMessage(tc.schema)}, h)
			if tc.ok {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), `"type": "object"`)
		})
	}
}

func TestAToolNameOfEveryAllowedCharacterAndTheLongestLengthIsAccepted(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	h := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }
	for _, name := range []string{"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz", "0123456789_.-", strings.Repeat("z", 128), "a"} {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: name}, h), name)
	}
}

func TestToolsListPagesWithACursor(t *testing.T) {
	s := typedServer(t, &mcp.ServerOptions{PageSize: 3})
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "tools/list", map[string]any{})
	require.Nil(t, rerr)
	var p1 mcp.ListToolsResult
	require.NoError(t, json.Unmarshal(res, &p1))
	require.Len(t, p1.Tools, 3)
	require.NotEmpty(t, p1.NextCursor)
	res, rerr = c.call(t, "tools/list", map[string]any{"cursor": p1.NextCursor})
	require.Nil(t, rerr)
	var p2 mcp.ListToolsResult
	require.NoError(t, json.Unmarshal(res, &p2))
	require.Len(t, p2.Tools, 1)
	assert.Empty(t, p2.NextCursor)
	assert.Equal(t, "noargs", p2.Tools[0].Name)

	_, rerr = c.call(t, "tools/list", map[string]any{"cursor": "!!not a cursor"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestAddingAToolTellsSessions(t *testing.T) {
	s := newServer(t, nil)
	c := dial(t, s, clientOptions{})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "late"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, nil
	}))
	c.note(t, "notifications/tools/list_changed")
	s.RemoveTools("late")
	c.note(t, "notifications/tools/list_changed")
}

// A typed tool with its own, looser input schema: arguments that pass the
// schema but do not decode into In are -32602.
func TestTypedToolArgumentsThatDoNotDecodeAreInvalidParams(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, mcp.AddTool(s, &mcp.Tool{Name: "count", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest, in struct {
			N int `json:"n"`
		}) (*mcp.CallToolResult, any, error) {
			return nil, nil, nil
		}))
	c := dial(t, s, clientOptions{})
	_, rerr := callTool(t, c, "count", map[string]any{"n": "many"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, rerr.Message, "invalid arguments")
}
