package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// answerOver sends one body over a transport and returns the HTTP status
// (0 off HTTP) and the single JSON-RPC message that answers it.
type answerOver func(t *testing.T, body string) (status int, reply message)

// badInputTransports are every transport a server of this module serves:
// MCP's Streamable HTTP in a session and stateless, MCP's stdio, and rpc's
// HTTP, WebSocket and stream.
func badInputTransports(t *testing.T) map[string]answerOver {
	router := rpc.NewRouter()
	router.Register("ping", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) { return struct{}{}, nil }})
	rpcHTTP := httptest.NewServer(rpc.NewHTTPHandler(router))
	rpcWS := httptest.NewServer(rpc.NewWebSocketHandler(router, nil))
	t.Cleanup(func() {
		rpcHTTP.Close()
		rpcWS.Close()
	})
	session := newFixture(t, nil)
	sessionID := session.initialize(mcp.Version20251125)
	stateless := newFixture(t, nil)
	one := func(t *testing.T, msgs []message) message {
		t.Helper()
		require.Len(t, msgs, 1)
		return msgs[0]
	}
	overStream := func(serve func(rpc.Transport) error) answerOver {
		return func(t *testing.T, body string) (int, message) {
			var out bytes.Buffer
			require.NoError(t, serve(rpc.NewStreamTransport(strings.NewReader(body+"\n"), &out)))
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			require.Len(t, lines, 1, out.String())
			return 0, decode(t, lines[0])
		}
	}
	return map[string]answerOver{
		"mcp session HTTP": func(t *testing.T, body string) (int, message) {
			resp := session.post(sessionID, body)
			return resp.StatusCode, one(t, messages(t, resp))
		},
		"mcp stateless HTTP": func(t *testing.T, body string) (int, message) {
			resp := stateless.post("", body, mcp.HeaderProtocolVersion, mcp.Version20260728)
			return resp.StatusCode, one(t, messages(t, resp))
		},
		"mcp stdio": overStream(func(tr rpc.Transport) error {
			return mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil).Serve(context.Background(), tr)
		}),
		"rpc stream": overStream(func(tr rpc.Transport) error {
			return rpc.Serve(context.Background(), tr, router)
		}),
		"rpc HTTP": func(t *testing.T, body string) (int, message) {
			resp, err := http.Post(rpcHTTP.URL, "application/json", strings.NewReader(body))
			require.NoError(t, err)
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			return resp.StatusCode, decode(t, string(b))
		},
		"rpc WebSocket": func(t *testing.T, body string) (int, message) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(rpcWS.URL, "http"), nil)
			require.NoError(t, err)
			defer ws.CloseNow()
			require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(body)))
			_, b, err := ws.Read(ctx)
			require.NoError(t, err)
			return 0, decode(t, string(b))
		},
	}
}

// Every transport reads a body the same way, so each bad input gets the
// same code, id and message everywhere: -32700 with id null for bytes that
// are not one JSON text under the strict rules, -32600 under the request's
// own id when that id can be read. No message names the decoder.
func TestBadInputGetsTheSameAnswerOnEveryTransport(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		code       int
		id         string
		message    string
	}{
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"x\":\"\xff\"}}", rpc.CodeParseError, "null",
			"parse error: invalid UTF-8 in a string at byte 55"},
		{"lone surrogate", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\ud800"}}`, rpc.CodeParseError, "null",
			"parse error: lone surrogate escape in a string at byte 61"},
		{"duplicate member", `{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}`, rpc.CodeParseError, "null",
			`parse error: duplicate member name "id" at byte 24`},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"pi`, rpc.CodeParseError, "null",
			"parse error: unexpected end of input in a string at byte 36"},
		{"Method in capitals", `{"jsonrpc":"2.0","id":7,"Method":"ping"}`, rpc.CodeInvalidRequest, "7",
			"invalid request: member \"Method\" is not allowed here (and 1 more)"},
		{"method with a NUL", `{"jsonrpc":"2.0","id":"k","method\u0000":"ping"}`, rpc.CodeInvalidRequest, `"k"`,
			`invalid request: member "method\x00" is not allowed here (and 1 more)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for name, send := range badInputTransports(t) {
				t.Run(name, func(t *testing.T) {
					status, reply := send(t, tc.body)
					if status != 0 {
						assert.Equal(t, wantStatus(name, tc.code), status)
					}
					require.NotNil(t, reply.Error)
					assert.Equal(t, tc.code, reply.Error.Code)
					assert.Equal(t, tc.id, string(reply.ID))
					assert.Equal(t, tc.message, reply.Error.Message)
					assert.NotContains(t, reply.Error.Message, "json")
				})
			}
		})
	}
}

// wantStatus is the HTTP status a transport answers an error with:
// rpc's HTTP always 200 (the body is the answer); a stateless MCP request
// 400; a session's POST 400 when the body cannot be read, and 200 (the
// error answered on the request's stream) when its id can.
func wantStatus(transport string, code int) int {
	switch {
	case transport == "rpc HTTP":
		return http.StatusOK
	case transport == "mcp session HTTP" && code != rpc.CodeParseError:
		return http.StatusOK
	}
	return http.StatusBadRequest
}

// No handler decompresses a body, so a POST with any Content-Encoding
// other than identity gets 415, saying that identity is the one accepted,
// before the body is read.
func TestAnEncodedBodyIs415OnEveryHTTPHandler(t *testing.T) {
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	rpcHTTP := httptest.NewServer(rpc.NewHTTPHandler(rpc.NewRouter()))
	defer rpcHTTP.Close()
	session := newFixture(t, nil)
	sessionID := session.initialize(mcp.Version20251125)
	post := func(url, body string, hdr map[string]string) *http.Response {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		t.Cleanup(cancel)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", acceptBoth)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	for _, enc := range []struct {
		value   string
		refused bool
	}{
		{"gzip", true},
		{"br", true},
		{"x-anything", true},
		{"identity, gzip", true},
		{"identity", false},
	} {
		for _, tc := range []struct {
			name, url, body string
			hdr             map[string]string
		}{
			{"rpc HTTP", rpcHTTP.URL, ping, nil},
			{"mcp session POST", session.ts.URL, ping, map[string]string{mcp.HeaderSessionID: sessionID}},
			{"mcp initialize", session.ts.URL, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, nil},
			{"mcp stateless POST", session.ts.URL, `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{` + statelessMeta + `}}`,
				map[string]string{mcp.HeaderProtocolVersion: mcp.Version20260728, "Mcp-Method": "server/discover"}},
		} {
			t.Run(enc.value+"/"+tc.name, func(t *testing.T) {
				hdr := map[string]string{"Content-Encoding": enc.value}
				for k, v := range tc.hdr {
					hdr[k] = v
				}
				resp := post(tc.url, tc.body, hdr)
				if !enc.refused {
					assert.Less(t, resp.StatusCode, 300, "identity is no encoding")
					return
				}
				assert.Equal(t, http.StatusUnsupportedMediaType, resp.StatusCode)
				assert.Equal(t, "identity", resp.Header.Get("Accept-Encoding"))
				b, err := io.ReadAll(resp.Body)
				require.NoError(t, err)
				assert.Contains(t, string(b), "Content-Encoding")
				assert.False(t, json.Valid(b) && strings.Contains(string(b), `"result"`), "nothing ran")
			})
		}
	}
}
