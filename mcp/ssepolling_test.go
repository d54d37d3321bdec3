package mcp_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// streamingVersions are the handshake versions with Streamable HTTP.
var streamingVersions = []string{mcp.Version20250326, mcp.Version20250618, mcp.Version20251125}

// pollsSSE reports whether a version has SSE polling (SEP-1699): the
// priming event, the retry field, and a stream ended before its response.
func pollsSSE(v string) bool { return v == mcp.Version20251125 }

// A POST's stream starts with a priming event (an id, empty data, the
// retry delay) only in versions that define one: an older client would
// read its empty data as a message.
func TestAPOSTStreamIsPrimedOnlyWhereTheVersionDefinesIt(t *testing.T) {
	for _, v := range streamingVersions {
		t.Run(v, func(t *testing.T) {
			f := newFixture(t, &mcp.HTTPOptions{RetryInterval: 250 * time.Millisecond})
			session := f.initialize(v)
			resp := f.post(session, `{"jsonrpc":"2.0","id":7,"method":"ping"}`, mcp.HeaderProtocolVersion, v)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			r := newSSE(t, resp)
			events := r.all(t)
			if pollsSSE(v) {
				require.Len(t, events, 2)
				assert.True(t, events[0].HasID)
				assert.NotEmpty(t, events[0].ID)
				assert.Empty(t, events[0].Data, "the priming event has empty data")
				assert.Equal(t, "250", events[0].Retry)
			} else {
				require.Len(t, events, 1, "no priming event")
				assert.Empty(t, events[0].Retry, "no retry field")
				assert.Empty(t, r.retry, "no retry field")
			}
			last := events[len(events)-1]
			assert.NotEmpty(t, last.ID, "every version's events carry ids, for resumption")
			assert.Equal(t, "7", string(decode(t, last.Data).ID))
		})
	}
}

// The initialize request's own stream follows the version it negotiates.
func TestTheInitializeStreamIsPrimedByTheVersionItNegotiates(t *testing.T) {
	for _, tc := range []struct {
		requested string
		primed    bool
	}{
		{mcp.Version20250326, false},
		{mcp.Version20250618, false},
		{mcp.Version20251125, true},
		{"2099-01-01", true}, // answered with the latest handshake version
	} {
		t.Run(tc.requested, func(t *testing.T) {
			f := newFixture(t, nil)
			resp := f.post("", fmt.Sprintf(initMessage, tc.requested))
			require.Equal(t, http.StatusOK, resp.StatusCode)
			events := newSSE(t, resp).all(t)
			require.NotEmpty(t, events)
			assert.Equal(t, tc.primed, events[0].Data == "", "priming event first")
			result := decode(t, events[len(events)-1].Data)
			require.NotNil(t, result.Result)
			if tc.primed {
				assert.Len(t, events, 2)
			} else {
				assert.Len(t, events, 1)
			}
		})
	}
}

// CloseSSEStream ends a call's stream before its response only in
// 2025-11-25 sessions, whose clients resume it after the retry delay. In
// older versions it does nothing: the response arrives on the stream the
// client is reading.
func TestCloseSSEStreamEndsTheStreamOnlyIn20251125(t *testing.T) {
	for _, v := range streamingVersions {
		t.Run(v, func(t *testing.T) {
			f := newFixture(t, &mcp.HTTPOptions{RetryInterval: 100 * time.Millisecond})
			mcp.RegisterForTest(f.srv, "test/poll", func(ctx context.Context, _ *rpc.Request) (any, error) {
				conn := rpc.ConnFromContext(ctx)
				conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "before"})
				closed := mcp.CloseSSEStream(ctx)
				conn.Notify(ctx, "notifications/message", map[string]any{"level": "info", "data": "after"})
				return map[string]any{"closed": closed}, nil
			})
			session := f.initialize(v)
			resp := f.post(session, `{"jsonrpc":"2.0","id":"p","method":"test/poll"}`, mcp.HeaderProtocolVersion, v)
			require.Equal(t, http.StatusOK, resp.StatusCode)
			r := newSSE(t, resp)
			var got []message
			var lastID string
			for _, ev := range r.all(t) {
				lastID = ev.ID
				if ev.Data != "" {
					got = append(got, decode(t, ev.Data))
				}
			}
			if !pollsSSE(v) {
				require.Len(t, got, 3, "the whole call on the POST stream")
				assert.Equal(t, "before", got[0].Params["data"])
				assert.Equal(t, "after", got[1].Params["data"])
				assert.Equal(t, `"p"`, string(got[2].ID))
				assert.Equal(t, false, got[2].Result["closed"], "CloseSSEStream does nothing")
				assert.Empty(t, r.retry, "no retry field")
				return
			}
			require.Len(t, got, 1, "the stream ends before the response")
			assert.Equal(t, "before", got[0].Params["data"])
			assert.Equal(t, "100", r.retry, "the delay is announced before the stream ends")
			get := f.request(http.MethodGet, "", map[string]string{"Accept": "text/event-stream", mcp.HeaderSessionID: session,
				"Last-Event-ID": lastID, mcp.HeaderProtocolVersion: v})
			require.Equal(t, http.StatusOK, get.StatusCode)
			var rest []message
			for _, ev := range newSSE(t, get).all(t) {
				rest = append(rest, decode(t, ev.Data))
			}
			require.Len(t, rest, 2, "the rest of the call on the resumed stream")
			assert.Equal(t, "after", rest[0].Params["data"])
			assert.Equal(t, true, rest[1].Result["closed"])
		})
	}
}

// Our client, pinned to each version, gets the result of a call whose
// handler closes its stream: on the resumed stream in 2025-11-25, on the
// POST stream before.
func TestAPinnedClientGetsTheResultOfACallThatClosesItsStream(t *testing.T) {
	for _, v := range streamingVersions {
		t.Run(v, func(t *testing.T) {
			o := chOurServer(t, &mcp.HTTPOptions{RetryInterval: 20 * time.Millisecond})
			c := mcp.NewClient(&mcp.Implementation{Name: "pinned", Version: "1"}, versionOptions(v))
			s, err := c.Connect(chCtx(t), &mcp.StreamableHTTPTransport{URL: o.ts.URL})
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			require.Equal(t, v, s.ProtocolVersion())
			res, err := s.CallTool(chCtx(t), &mcp.CallToolRequestParams{Name: "poll"})
			require.NoError(t, err)
			resumed := 0
			for _, seen := range o.rec.all() {
				if seen.Method == http.MethodGet && seen.Header.Get("Last-Event-ID") != "" {
					resumed++
				}
			}
			if pollsSSE(v) {
				assert.Equal(t, "polled", chClientText(t, res))
				assert.Positive(t, resumed, "the client resumed the closed stream")
			} else {
				assert.Equal(t, "not closed", chClientText(t, res))
				assert.Zero(t, resumed, "nothing to resume")
			}
		})
	}
}

// CloseSSEStream has nothing to close outside a handshake session's SSE
// stream: over stdio, and on a stateless request's stream, it reports
// false and the call answers as usual.
func TestCloseSSEStreamDoesNothingOverStdioNorStateless(t *testing.T) {
	tool := func(s *mcp.Server) {
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "poll"}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if mcp.CloseSSEStream(ctx) {
				return mcp.ToolError("closed"), nil
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("open")}}, nil
		}))
	}
	t.Run("stdio", func(t *testing.T) {
		s := mcp.NewServer(&mcp.Implementation{Name: "n", Version: "1"}, nil)
		tool(s)
		for _, v := range mcp.SupportedVersions() {
			c := dial(t, s, clientOptions{version: v})
			out, rerr := callTool(t, c, "poll", nil)
			require.Nil(t, rerr)
			assert.Equal(t, "open", out["content"].([]any)[0].(map[string]any)["text"], v)
		}
	})
	t.Run("stateless HTTP", func(t *testing.T) {
		f := newFixture(t, nil)
		tool(f.srv)
		resp := f.post("", statelessBody(t, 1, "tools/call", map[string]any{"name": "poll"}, nil), mirrored("tools/call", "poll")...)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		msgs := messages(t, resp)
		require.Len(t, msgs, 1)
		assert.Equal(t, "open", msgs[0].Result["content"].([]any)[0].(map[string]any)["text"])
	})
}
