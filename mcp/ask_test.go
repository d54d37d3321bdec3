package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// eras are the two ways a client talks to a server: the handshake of
// 2025-11-25 and the stateless 2026-07-28.
var eras = []string{mcp.Version20251125, mcp.Version20260728}

// tripServer has a tool "trip" written once against the Request's methods:
// it logs, asks for a person (elicitation), samples a slogan and lists the
// roots, one after the other, and reports what it learnt.
func tripServer(t *testing.T) *mcp.Server {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "trip", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if err := req.Log(ctx, "info", "trip", "planning"); err != nil {
				return nil, err
			}
			who, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "Who?", RequestedSchema: json.RawMessage(personForm)}})
			if err != nil {
				return nil, err
			}
			slogan, err := req.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 10})
			if err != nil {
				return nil, err
			}
			roots, err := req.ListRoots(ctx)
			if err != nil {
				return nil, err
			}
			text := fmt.Sprintf("%s %s|%s|%d roots", who.Action, mustJSON(t, who.Content["name"]), mustJSON(t, slogan.Content), len(roots.Roots))
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(text)}}, nil
		}))
	return s
}

// One handler asks the client the same way in both eras and gets the same
// answers; stateless, each question is one input_required round whose
// answer comes back at the same step of the next run.
func TestRequestAsksTheClientTheSameWayInBothEras(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			logs := make(chan string, 8)
			opts := handlersOptions(v)
			opts.OnLog = func(_ context.Context, p *mcp.LoggingMessageNotificationParams) {
				select {
				case logs <- string(p.Data):
				default:
				}
			}
			f := connect(t, tripServer(t), opts)
			require.NoError(t, f.session.SetLoggingLevel(bg(t), "info"))
			res, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "trip"})
			require.NoError(t, err)
			assert.Equal(t, `accept "Ada"|{"type":"text","text":"fly"}|2 roots`, toolText(t, res))
			select {
			case got := <-logs:
				assert.Equal(t, `"planning"`, got)
			case <-time.After(10 * time.Second):
				t.Fatal("the log message never arrived")
			}
			calls := f.wire.requests("tools/call")
			if v == mcp.Version20251125 {
				assert.Len(t, calls, 1)
				var asked []string
				for _, m := range f.wire.received() {
					if m["id"] != nil && m["method"] != nil {
						asked = append(asked, m["method"].(string))
					}
				}
				assert.Equal(t, []string{"elicitation/create", "sampling/createMessage", "roots/list"}, asked)
				return
			}
			require.Len(t, calls, 4, "one round per question, then the answer")
			for i, c := range calls[1:] {
				params := c["params"].(map[string]any)
				inputs := params["inputResponses"].(map[string]any)
				assert.Contains(t, inputs, fmt.Sprintf("ask%d", i+1), "round %d answers question %d", i+2, i+1)
				assert.NotEmpty(t, params["requestState"])
			}
		})
	}
}

// A stateless answer that is not a valid answer to the question of its
// step (here a roots listing offered for an elicitation) is no answer: the
// question is asked again.
func TestStatelessAskRefusesAnAnswerOfTheWrongKind(t *testing.T) {
	raw := rawStatelessCall(t, tripServer(t), map[string]any{"name": "trip", "inputResponses": map[string]any{"ask1": map[string]any{"roots": []any{}}}})
	var res struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
	}
	require.NoError(t, json.Unmarshal(raw, &res))
	assert.Equal(t, "input_required", res.ResultType)
	require.Contains(t, res.InputRequests, "ask1")
	assert.Contains(t, string(res.InputRequests["ask1"]), `"elicitation/create"`)
}

// rawStatelessCall sends one 2026-07-28 tools/call with params (plus the
// _meta a client adds) to s over a pipe and returns its raw result, input
// rounds left to the test.
func rawStatelessCall(t *testing.T, s *mcp.Server, params map[string]any) json.RawMessage {
	t.Helper()
	params["_meta"] = map[string]any{
		"io.modelcontextprotocol/protocolVersion":    mcp.Version20260728,
		"io.modelcontextprotocol/clientCapabilities": map[string]any{"elicitation": map[string]any{}, "sampling": map[string]any{}, "roots": map[string]any{}},
	}
	srvEnd, cliEnd := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go s.Serve(ctx, srvEnd)
	conn := rpc.NewConn(cliEnd)
	t.Cleanup(func() { conn.Close() })
	var out json.RawMessage
	require.NoError(t, conn.Call(bg(t), "tools/call", params, &out))
	return out
}

// needy registers, on s, a tool, a prompt, a resource and a completion
// handler that each ask the client for a form; asked records the error the
// completion handler got.
func needy(t *testing.T, s *mcp.Server, asked chan<- error) {
	form := &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "Why?", RequestedSchema: json.RawMessage(personForm)}}
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "needy", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if _, err := req.Elicit(ctx, form); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{}, nil
		}))
	require.NoError(t, s.AddPrompt(&mcp.Prompt{Name: "needy"}, func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		if _, err := req.Elicit(ctx, form); err != nil {
			return nil, err
		}
		return &mcp.GetPromptResult{}, nil
	}))
	require.NoError(t, s.AddResource(&mcp.Resource{URI: "test://needy", Name: "needy"}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		if _, err := req.ListRoots(ctx); err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{}, nil
	}))
	s.SetCompletionHandler(func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
		_, err := req.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 1})
		asked <- err
		return nil, err
	})
}

// A handler that asks a client for what it did not declare fails with an
// error that names what is missing, whatever it serves and in both eras:
// -32021 with data.requiredCapabilities, or, for a tool in a handshake
// session, a tool error saying it.
func TestAskingForAnUndeclaredCapabilitySaysWhatIsMissing(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, nil)
			asked := make(chan error, 1)
			needy(t, s, asked)
			f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{v}})
			ctx := bg(t)

			form, formCaps := "elicitation.form", `{"elicitation":{"form":{}}}`
			res, err := f.session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "needy"})
			if v == mcp.Version20251125 {
				require.NoError(t, err)
				assert.True(t, res.IsError != nil && *res.IsError)
				assert.Equal(t, "mcp: the client did not declare this capability: elicitation.form", toolText(t, res))
			} else {
				assertMissing(t, err, form, formCaps)
			}
			_, err = f.session.GetPrompt(ctx, &mcp.GetPromptRequestParams{Name: "needy"})
			assertMissing(t, err, form, formCaps)
			_, err = f.session.ReadResource(ctx, &mcp.ReadResourceRequestParams{URI: "test://needy"})
			assertMissing(t, err, "roots", `{"roots":{}}`)
			_, err = f.session.Complete(ctx, &mcp.CompleteRequestParams{Ref: mcp.CompleteRequestParamsRef{Value: mcp.PromptReference{Type: "ref/prompt", Name: "needy"}}, Argument: mcp.CompleteRequestParamsArgument{Name: "a", Value: "x"}})
			if v == mcp.Version20251125 {
				assertMissing(t, err, "sampling", `{"sampling":{}}`)
				assert.ErrorIs(t, <-asked, mcp.ErrNotDeclared)
			} else {
				// completion/complete cannot answer input_required: the
				// handler learns it, whatever the client declared.
				require.Error(t, err)
				var unsupported *mcp.UnsupportedError
				got := <-asked
				require.ErrorAs(t, got, &unsupported)
				assert.ErrorIs(t, got, mcp.ErrNotInVersion)
				assert.Equal(t, "sampling/createMessage", unsupported.Method)
				assert.Equal(t, mcp.Version20260728, unsupported.Version)
				assert.Equal(t, "mcp: sampling/createMessage is not possible in protocol version 2026-07-28: completion/complete cannot answer input_required", got.Error())
			}
		})
	}
}

// assertMissing checks that err is the -32021 error naming what in its
// message and required in data.requiredCapabilities.
func assertMissing(t *testing.T, err error, what, required string) {
	t.Helper()
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, mcp.CodeMissingCapability, rerr.Code)
	assert.True(t, strings.HasSuffix(rerr.Message, ": "+what), rerr.Message)
	var data struct {
		Required json.RawMessage `json:"requiredCapabilities"`
	}
	require.NoError(t, json.Unmarshal(rerr.Data, &data))
	assert.JSONEq(t, required, string(data.Required))
}

// A handler that swallows the error of its pending question still gets
// the question sent, alone: a later question of the same run waits for the
// next round, and what the handler returned instead is discarded.
func TestStatelessQuestionIsSentEvenWhenTheHandlerSwallowsItsError(t *testing.T) {
	s := newServer(t, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "stubborn", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			text := "no roots"
			if roots, err := req.ListRoots(ctx); err == nil {
				text = fmt.Sprintf("%d roots", len(roots.Roots))
			}
			if slogan, err := req.CreateMessage(ctx, &mcp.CreateMessageRequestParams{MaxTokens: 5}); err == nil {
				text += ", " + string(mustJSON(t, slogan.Content))
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(text)}}, nil
		}))
	f := connect(t, s, handlersOptions(mcp.Version20260728))
	res, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "stubborn"})
	require.NoError(t, err)
	assert.Equal(t, `2 roots, {"type":"text","text":"fly"}`, toolText(t, res))
	var asked []string
	for _, m := range f.wire.received() {
		r, ok := m["result"].(map[string]any)
		if !ok || r["resultType"] != "input_required" {
			continue
		}
		for k := range r["inputRequests"].(map[string]any) {
			asked = append(asked, k)
		}
	}
	assert.Equal(t, []string{"ask1", "ask2"}, asked, "one question per round")
}

// A Request the server did not make (a handler called directly, in a unit
// test) has no client to ask: a typed error, never a nil pointer.
func TestARequestWithoutAServerCannotAsk(t *testing.T) {
	req := &mcp.CallToolRequest{}
	_, err := req.Elicit(context.Background(), &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: "?"}})
	assert.ErrorIs(t, err, mcp.ErrNotInVersion)
	_, err = req.CreateMessage(context.Background(), &mcp.CreateMessageRequestParams{})
	var unsupported *mcp.UnsupportedError
	require.ErrorAs(t, err, &unsupported)
	assert.Equal(t, "sampling/createMessage", unsupported.Method)
	assert.Equal(t, "mcp: sampling/createMessage is not possible: the request was not made by a server", err.Error())
	_, err = req.ListRoots(context.Background())
	assert.ErrorIs(t, err, mcp.ErrNotInVersion)
	assert.NoError(t, req.Log(context.Background(), "info", "", "nobody hears this"))
}

// When the client cancels a call while the server waits for the answer to
// a question it asked for that call, the server tells the client to stop
// with notifications/cancelled naming its own request: the client's
// handler sees its context end. Over a stream and Streamable HTTP, in a
// handshake session (a stateless request asks nothing of the client while
// it runs).
func TestServerCancelsItsQuestionWhenTheCallIsCancelled(t *testing.T) {
	for _, transport := range []string{"stream", "http"} {
		t.Run(transport, func(t *testing.T) {
			s := tripServer(t)
			asking := make(chan struct{})
			stopped := make(chan error, 1)
			opts := handlersOptions(mcp.Version20251125)
			opts.Elicit = func(ctx context.Context, _ *mcp.ElicitRequestParams) (*mcp.ElicitResult, error) {
				close(asking)
				select {
				case <-ctx.Done():
					stopped <- ctx.Err()
				case <-time.After(30 * time.Second):
					stopped <- errors.New("the elicitation was never cancelled")
				}
				return nil, ctx.Err()
			}
			var session *mcp.ClientSession
			if transport == "stream" {
				session = connect(t, s, opts).session
			} else {
				var err error
				session, err = mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, opts).Connect(bg(t), &mcp.StreamableHTTPTransport{URL: httpServer(t, s)})
				require.NoError(t, err)
				t.Cleanup(func() { session.Close() })
			}
			ctx, cancel := context.WithCancel(bg(t))
			called := make(chan error, 1)
			go func() {
				_, err := session.CallTool(ctx, &mcp.CallToolRequestParams{Name: "trip"})
				called <- err
			}()
			select {
			case <-asking:
			case <-time.After(10 * time.Second):
				t.Fatal("the server never asked")
			}
			cancel()
			assert.ErrorIs(t, <-called, context.Canceled)
			select {
			case err := <-stopped:
				assert.ErrorIs(t, err, context.Canceled)
			case <-time.After(30 * time.Second):
				t.Fatal("the client's handler never stopped")
			}
		})
	}
}

// A handler's slog records reach the client as log messages in both eras,
// at or above the level the client asked for.
func TestRequestLoggerLogsToTheClientInBothEras(t *testing.T) {
	for _, v := range eras {
		t.Run(v, func(t *testing.T) {
			s := newServer(t, nil)
			require.NoError(t, s.AddTool(&mcp.Tool{Name: "chatty", InputSchema: json.RawMessage(`{"type":"object"}`)},
				func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					log := req.Logger("chatty")
					log.DebugContext(ctx, "too quiet to send")
					log.WarnContext(ctx, "heard", "n", 1)
					return &mcp.CallToolResult{}, nil
				}))
			got := make(chan *mcp.LoggingMessageNotificationParams, 4)
			f := connect(t, s, &mcp.ClientOptions{ProtocolVersions: []string{v},
				OnLog: func(_ context.Context, p *mcp.LoggingMessageNotificationParams) { got <- p }})
			require.NoError(t, f.session.SetLoggingLevel(bg(t), "info"))
			_, err := f.session.CallTool(bg(t), &mcp.CallToolRequestParams{Name: "chatty"})
			require.NoError(t, err)
			select {
			case p := <-got:
				assert.Equal(t, mcp.LoggingLevel("warning"), p.Level)
				assert.Equal(t, "chatty", p.Logger)
				assert.JSONEq(t, `{"message":"heard","n":1}`, string(p.Data))
			case <-time.After(10 * time.Second):
				t.Fatal("no log message arrived")
			}
			assert.Len(t, got, 0, "the debug record is below the level")
		})
	}
}
