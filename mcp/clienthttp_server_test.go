package mcp_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// chOurs is our own server behind our own handler, with tools for the
// transport tests.
type chOurs struct {
	s       *mcp.Server
	h       *mcp.StreamableHTTPHandler
	ts      *httptest.Server
	rec     *chRecorder
	started chan struct{} // a "block" call started
	ended   chan struct{} // a "block" call saw its context end
}

// chOurServer serves a server with the tools echo {text}, roots (asks the
// client for its roots), block (waits for its context to end) and geo
// {region} (region mirrored in the Mcp-Param-Region header) and poll
// (closes its own SSE stream before answering).
func chOurServer(t *testing.T, opts *mcp.HTTPOptions) *chOurs {
	t.Helper()
	o := &chOurs{s: mcp.NewServer(&mcp.Implementation{Name: "chttp", Version: "1"}, nil),
		started: make(chan struct{}, 4), ended: make(chan struct{}, 4)}
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(s)}}
	}
	require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Text string }
			json.Unmarshal(req.Params.Arguments, &in)
			return text(in.Text), nil
		}))
	require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "roots", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := req.Session.ListRoots(ctx)
			if err != nil {
				return nil, err
			}
			return text(fmt.Sprintf("%d roots, first %s", len(res.Roots), res.Roots[0].URI)), nil
		}))
	require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "block", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			o.started <- struct{}{}
			<-ctx.Done()
			o.ended <- struct{}{}
			return nil, ctx.Err()
		}))
	require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "geo",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct{ Region string }
			json.Unmarshal(req.Params.Arguments, &in)
			return text("region " + in.Region), nil
		}))
	require.NoError(t, o.s.AddTool(&mcp.Tool{Name: "poll", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			// The server ends the call's stream; the client must resume
			// it to get the result.
			if !mcp.CloseSSEStream(ctx) {
				return text("not closed"), nil
			}
			time.Sleep(20 * time.Millisecond)
			return text("polled"), nil
		}))
	o.h = mcp.NewStreamableHTTPHandler(o.s, opts)
	o.ts, o.rec = chServe(t, o.h)
	t.Cleanup(func() { o.h.Close() })
	return o
}

// chClientHandler answers roots/list and ping, and passes notifications'
// methods to notes.
func chClientHandler(notes chan<- string) rpc.Handler {
	return rpc.HandlerFunc(func(ctx context.Context, req *rpc.Request) (any, error) {
		if req.IsNotification() {
			select {
			case notes <- req.Method:
			default:
			}
			return nil, nil
		}
		switch req.Method {
		case "roots/list":
			return map[string]any{"roots": []any{map[string]any{"uri": "file:///work", "name": "work"}}}, nil
		case "ping":
			return map[string]any{}, nil
		}
		return nil, rpc.MethodNotFound(req.Method)
	})
}

// chToolText returns the first text block of a tools/call result.
func chToolText(t *testing.T, res json.RawMessage) string {
	t.Helper()
	var r struct {
		Content []struct{ Text string }
		IsError bool
	}
	require.NoError(t, json.Unmarshal(res, &r), string(res))
	require.False(t, r.IsError, string(res))
	require.NotEmpty(t, r.Content, string(res))
	return r.Content[0].Text
}

func TestStreamableHTTPClientRunsAHandshakeSessionWithOurServer(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		for _, v := range []string{mcp.Version20250326, mcp.Version20250618, mcp.Version20251125} {
			t.Run(fmt.Sprintf("%s json=%v", v, jsonResponse), func(t *testing.T) {
				o := chOurServer(t, &mcp.HTTPOptions{JSONResponse: jsonResponse})
				notes := make(chan string, 16)
				c := chConnect(t, &mcp.StreamableHTTPTransport{URL: o.ts.URL}, chClientHandler(notes))
				c.handshake(t, v)

				res, err := c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}})
				require.NoError(t, err)
				assert.Equal(t, "hi", chToolText(t, res))

				// The server asks the client while serving a call: on the
				// call's stream, or on the GET stream in JSON mode.
				res, err = c.call(t, "tools/call", map[string]any{"name": "roots"})
				require.NoError(t, err)
				assert.Equal(t, "1 roots, first file:///work", chToolText(t, res))

				seen := o.rec.last(t, "tools/call")
				sid := seen.Header.Get(mcp.HeaderSessionID)
				assert.NotEmpty(t, sid, "later requests carry the session id")
				if v >= mcp.Version20250618 {
					assert.Equal(t, v, seen.Header.Get(mcp.HeaderProtocolVersion))
				} else {
					assert.Empty(t, seen.Header.Values(mcp.HeaderProtocolVersion), "2025-03-26 sends no version header")
				}
				init := o.rec.last(t, "initialize")
				assert.Empty(t, init.Header.Values(mcp.HeaderSessionID))
				assert.Equal(t, "application/json, text/event-stream", init.Header.Get("Accept"))
				assert.Equal(t, "application/json", init.Header.Get("Content-Type"))

				// What the server sends outside any request travels on
				// the GET stream opened after initialized.
				require.Eventually(t, func() bool { return o.rec.count(http.MethodGet) > 0 }, chTimeout, 5*time.Millisecond)
				ss := o.s.Sessions()
				require.Len(t, ss, 1)
				require.NoError(t, mcp.NotifyForTest(ss[0], "notifications/tools/list_changed", map[string]any{}))
				select {
				case m := <-notes:
					assert.Equal(t, "notifications/tools/list_changed", m)
				case <-time.After(chTimeout):
					t.Fatal("the notification did not arrive")
				}

				// Close ends the session with DELETE.
				require.NoError(t, c.conn.Close())
				require.Eventually(t, func() bool { return mcp.SessionCountForTest(o.h) == 0 }, chTimeout, 5*time.Millisecond)
				var del []chSeen
				for _, s := range o.rec.all() {
					if s.Method == http.MethodDelete {
						del = append(del, s)
					}
				}
				require.Len(t, del, 1)
				assert.Equal(t, sid, del[0].Header.Get(mcp.HeaderSessionID))
			})
		}
	}
}

func TestStreamableHTTPClientLeavesHandshakeCancellationToTheCore(t *testing.T) {
	o := chOurServer(t, nil)
	c := chConnect(t, &mcp.StreamableHTTPTransport{URL: o.ts.URL}, chClientHandler(nil))
	c.handshake(t, mcp.Version20251125)
	ctx, cancel := context.WithCancel(chCtx(t))
	go func() {
		<-o.started
		cancel()
	}()
	err := c.conn.Call(ctx, "tools/call", map[string]any{"name": "block"}, nil)
	require.ErrorIs(t, err, context.Canceled)
	assert.False(t, <-c.cancelled, "a handshake-era request is not cancelled by closing its stream")
	select {
	case <-o.ended:
		t.Fatal("the server saw the call end without notifications/cancelled")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestStreamableHTTPClientSpeaks20260728WithOurServer(t *testing.T) {
	for _, jsonResponse := range []bool{false, true} {
		t.Run(fmt.Sprintf("json=%v", jsonResponse), func(t *testing.T) {
			o := chOurServer(t, &mcp.HTTPOptions{JSONResponse: jsonResponse})
			c := chConnect(t, &mcp.StreamableHTTPTransport{URL: o.ts.URL}, nil)

			res, err := c.call(t, "server/discover", chStateless(nil))
			require.NoError(t, err)
			assert.Contains(t, string(res), mcp.Version20260728)

			_, err = c.call(t, "tools/list", chStateless(nil))
			require.NoError(t, err)
			// The server checks every mirrored header against the body: a
			// result means the client's headers were right.
			res, err = c.call(t, "tools/call", chStateless(map[string]any{"name": "geo", "arguments": map[string]any{"region": "Zürich "}}))
			require.NoError(t, err)
			assert.Equal(t, "region Zürich ", chToolText(t, res))

			seen := o.rec.last(t, "tools/call")
			assert.Equal(t, mcp.Version20260728, seen.Header.Get(mcp.HeaderProtocolVersion))
			assert.Equal(t, "tools/call", seen.Header.Get(mcp.HeaderMethod))
			assert.Equal(t, "geo", seen.Header.Get(mcp.HeaderName))
			assert.Equal(t, "=?base64?"+base64.StdEncoding.EncodeToString([]byte("Zürich "))+"?=", seen.Header.Get("Mcp-Param-Region"))
			assert.Empty(t, seen.Header.Values(mcp.HeaderSessionID))

			// Ending a call's context closes its stream: the server's
			// handler sees its own context end.
			ctx, cancel := context.WithCancel(chCtx(t))
			go func() {
				<-o.started
				cancel()
			}()
			err = c.conn.Call(ctx, "tools/call", chStateless(map[string]any{"name": "block"}), nil)
			require.ErrorIs(t, err, context.Canceled)
			assert.True(t, <-c.cancelled, "the link cancels a 2026-07-28 request")
			select {
			case <-o.ended:
			case <-time.After(chTimeout):
				t.Fatal("the server did not see the request cancelled")
			}

			require.NoError(t, c.conn.Close())
			assert.Zero(t, o.rec.count(http.MethodGet), "2026-07-28 has no GET stream")
			assert.Zero(t, o.rec.count(http.MethodDelete), "nor sessions to delete")
		})
	}
}
