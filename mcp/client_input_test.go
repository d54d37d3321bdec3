package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// personForm asks for a name (required) and an age (default 42).
const personForm = `{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","default":42}},"required":["name"]}`

// askingServer has a tool "book" that asks, over two rounds, for a person
// (elicitation), then for a sampled slogan and the roots, carrying the
// person in its state; the result names what it learnt.
func askingServer(t *testing.T) *mcp.Server {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "book", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if slogan, ok := req.Sampled("slogan"); ok {
				roots, _ := req.Roots("roots")
				text := fmt.Sprintf("%s|%s|%d roots", req.State(), mustJSON(t, slogan.Content), len(roots.Roots))
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(text)}}, nil
			}
			if who, ok := req.Elicited("who"); ok {
				return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
					"slogan": mcp.SampleInput(&mcp.CreateMessageRequestParams{MaxTokens: 10}),
					"roots":  mcp.RootsInput(),
				}, State: fmt.Appendf(nil, "%s %s|%s", who.Action, mustJSON(t, who.Content["name"]), mustJSON(t, who.Content["age"]))}
			}
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"who": mcp.FormInput("Who?", json.RawMessage(personForm))}, State: []byte("round-1")}
		}))
	return s
}

// handlersOptions answer every kind of input.
func handlersOptions(versions ...string) *mcp.ClientOptions {
	return &mcp.ClientOptions{
		ProtocolVersions: versions,
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
				"name": {Value: mcp.ElicitResultContentValueString("Ada")}}}, nil
		},
		CreateMessage: func(ctx context.Context, p *mcp.CreateMessageRequestParams) (*mcp.CreateMessageResult, error) {
			return &mcp.CreateMessageResult{Role: mcp.RoleAssistant, Model: "m", Content: mcp.CreateMessageResultContent{Value: mcp.TextContent{Text: "fly"}}}, nil
		},
		ListRoots: func(ctx context.Context) (*mcp.ListRootsResult, error) {
			return &mcp.ListRootsResult{Roots: []mcp.Root{{URI: "file:///a"}, {URI: "file:///b"}}}, nil
		},
	}
}

// One handler set answers the server's questions in both eras: input
// requests of 2026-07-28 results, real requests in a handshake session.
// The elicitation answer gets the form's default for the omitted age.
func TestClientAnswersTheServersQuestionsInBothEras(t *testing.T) {
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(v, func(t *testing.T) {
			f := connect(t, askingServer(t), handlersOptions(v))
			res, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "book"})
			require.NoError(t, err)
			text := toolText(t, res)
			assert.Contains(t, text, `accept "Ada"|42|`)
			assert.Contains(t, text, `"text":"fly"`)
			assert.Contains(t, text, "2 roots")
			if v == mcp.Version20260728 {
				calls := f.wire.requests("tools/call")
				require.Len(t, calls, 3)
				ids := map[any]bool{}
				for _, c := range calls {
					ids[c["id"]] = true
				}
				assert.Len(t, ids, 3, "each round is a new request with a new id")
				first := calls[0]["params"].(map[string]any)
				assert.NotContains(t, first, "requestState")
				assert.NotContains(t, first, "inputResponses")
				second := calls[1]["params"].(map[string]any)
				assert.Contains(t, second["inputResponses"], "who")
				assert.NotEmpty(t, second["requestState"])
			} else {
				assert.Empty(t, f.wire.requests("tools/call")[1:], "one request in a session")
			}
		})
	}
}

// The state the server sends is echoed byte for byte; none is sent when
// none came; neither is attached to another call; a result without
// resultType is complete.
func TestRequestStateIsEchoedExactlyAndOnlyToItsCall(t *testing.T) {
	state := `"st\u00e9<&>\/x"`
	var calls []json.RawMessage
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		switch method {
		case "server/discover":
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private"}`), nil
		case "tools/call":
			calls = append(calls, params)
			var p struct{ Name string }
			require.NoError(t, json.Unmarshal(params, &p))
			switch {
			case p.Name == "echo_state" && !strings.Contains(string(params), "requestState"):
				return json.RawMessage(`{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"confirmed":{"type":"boolean"}}}}}},"requestState":` + state + `}`), nil
			case p.Name == "no_state" && !strings.Contains(string(params), "inputResponses"):
				return json.RawMessage(`{"resultType":"input_required","inputRequests":{"confirm":{"method":"elicitation/create","params":{"message":"ok?","requestedSchema":{"type":"object","properties":{"confirmed":{"type":"boolean"}}}}}}}`), nil
			case p.Name == "no_result_type":
				return json.RawMessage(`{"content":[{"type":"text","text":"plain"}]}`), nil
			}
			return json.RawMessage(`{"resultType":"complete","content":[]}`), nil
		}
		return nil, rpc.MethodNotFound(method)
	})
	c := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{"confirmed": {Value: mcp.ElicitResultContentValueBoolean(true)}}}, nil
		},
	})
	s, err := c.Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	for _, name := range []string{"echo_state", "no_state", "unrelated", "no_result_type"} {
		res, err := s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: name})
		require.NoError(t, err, name)
		if name == "no_result_type" {
			assert.Equal(t, "plain", toolText(t, res))
		}
	}
	require.Len(t, calls, 6)
	assert.Contains(t, string(calls[1]), `"requestState":`+state, "echoed byte for byte")
	assert.Contains(t, string(calls[1]), `"inputResponses":{"confirm":{"action":"accept","content":{"confirmed":true}}}`)
	assert.NotContains(t, string(calls[3]), "requestState")
	assert.Contains(t, string(calls[3]), "inputResponses")
	for _, i := range []int{0, 2, 4, 5} {
		assert.NotContains(t, string(calls[i]), "requestState")
		assert.NotContains(t, string(calls[i]), "inputResponses")
	}
}

// A server that keeps asking is given up on after MaxInputRounds rounds.
func TestInputRoundsAreBounded(t *testing.T) {
	s := newServer(t, nil)
	var rounds atomic.Int32
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "nag", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rounds.Add(1)
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"again": mcp.RootsInput()}}
		}))
	opts := handlersOptions()
	opts.MaxInputRounds = 3
	f := connect(t, s, opts)
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "nag"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "after 3 rounds")
	assert.Contains(t, err.Error(), "MaxInputRounds")
	assert.Equal(t, int32(4), rounds.Load())
}

// A question the client has no handler for fails the call with
// ErrNoHandler, naming the option.
func TestAQuestionWithoutAHandlerFailsTheCall(t *testing.T) {
	tr, _ := fakeServer(t, func(method string, params json.RawMessage) (any, error) {
		if method == "server/discover" {
			return json.RawMessage(`{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private"}`), nil
		}
		return json.RawMessage(`{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}}}`), nil
	})
	s, err := mcp.NewClient(nil, nil).Connect(bg(t), tr)
	require.NoError(t, err)
	defer s.Close()
	_, err = s.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "x"})
	assert.ErrorIs(t, err, mcp.ErrNoHandler)
	assert.Contains(t, err.Error(), "ClientOptions.ListRoots")
}

// An accepted answer that breaks the requested schema is never sent: in a
// session the server gets a JSON-RPC error; statelessly the call fails.
func TestAnInvalidElicitationAnswerIsRefused(t *testing.T) {
	bad := func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]mcp.ElicitResultContentValue{
			"name": {Value: mcp.ElicitResultContentValueString("")}}}, nil // minLength 1
	}
	for _, v := range []string{mcp.Version20260728, mcp.Version20251125} {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, nil)
			var serverSaw error
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					if req.Session != nil {
						_, serverSaw = req.Session.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "?", RequestedSchema: json.RawMessage(personForm)}})
						return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("asked")}}, nil
					}
					return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"who": mcp.FormInput("Who?", json.RawMessage(personForm))}}
				}))
			f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{v}, Elicit: bad})
			_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "ask"})
			if v == mcp.Version20260728 {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "does not match the requested schema")
				return
			}
			require.NoError(t, err)
			var rerr *rpc.Error
			require.True(t, errors.As(serverSaw, &rerr), "the server got %v", serverSaw)
			assert.Contains(t, rerr.Message, "does not match the requested schema")
		})
	}
}

// Declined and cancelled answers pass unchanged, without content checks;
// the capability follows the handlers.
func TestElicitationDeclineIsPassedOn(t *testing.T) {
	s := newServer(t, nil)
	var got *mcp.ElicitResult
	var caps *mcp.ClientCapabilities
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			caps = req.ClientCapabilities()
			got, _ = req.Session.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "?", RequestedSchema: json.RawMessage(personForm)}})
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}, ElicitURL: true,
		Elicit: func(ctx context.Context, p *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
			return &mcp.ElicitResult{Action: "decline"}, nil
		}})
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "ask"})
	require.NoError(t, err)
	require.NotNil(t, got)
	assert.Equal(t, mcp.ElicitResultAction("decline"), got.Action)
	require.NotNil(t, caps)
	require.NotNil(t, caps.Elicitation)
	assert.NotNil(t, caps.Elicitation.Form)
	assert.NotNil(t, caps.Elicitation.URL)
	assert.Nil(t, caps.Sampling)
	assert.Nil(t, caps.Roots)
}

// Sampling and roots in a handshake session; roots changes are announced.
func TestSamplingAndRootsInASession(t *testing.T) {
	changed := make(chan struct{}, 1)
	s2 := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, &mcp.ServerOptions{
		RootsListChanged: func(ctx context.Context, ss *mcp.ServerSession) { changed <- struct{}{} },
	})
	var sampled, roots string
	require.NoError(t, s2.AddTool(&mcp.Tool{Name: "ask", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			m, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 5})
			require.NoError(t, err)
			sampled = string(mustJSON(t, m.Content))
			r, err := req.Session.ListRoots(ctx)
			require.NoError(t, err)
			roots = string(mustJSON(t, r.Roots))
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	f := connect(t, s2, handlersOptions(mcp.Version20251125))
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "ask"})
	require.NoError(t, err)
	assert.Contains(t, sampled, `"fly"`)
	assert.Contains(t, roots, "file:///b")
	require.NoError(t, f.session.NotifyRootsListChanged(bg(t)))
	receive(t, changed)
}

// A server asking for something the client did not declare gets -32601.
func TestUndeclaredRequestsAreMethodNotFound(t *testing.T) {
	s := newServer(t, nil)
	var ss *mcp.ServerSession
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "grab", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			ss = req.Session
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{}}, nil
		}))
	f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{mcp.Version20251125}})
	_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "grab"})
	require.NoError(t, err)
	// The server's own checks refuse undeclared requests before sending;
	// ping always works.
	require.NoError(t, ss.Ping(bg(t)))
	_, err = ss.ListRoots(bg(t))
	assert.ErrorIs(t, err, mcp.ErrNotDeclared)
}
