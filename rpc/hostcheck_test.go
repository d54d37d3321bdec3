package rpc_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

// hostCases are the Host/Origin combinations both handlers are tried with,
// on a server listening on 127.0.0.1 (httptest). host "" keeps the URL's.
var hostCases = []struct {
	name         string
	opts         []rpc.Option
	host, origin string
	refused      bool
}{
	{"loopback address", nil, "", "", false},
	{"localhost", nil, "localhost", "", false},
	{"loopback origin", nil, "", "http://localhost:3000", false},
	{"same origin", nil, "", "<same>", false},
	{"foreign host", nil, "evil.example.com", "", true},
	{"foreign host with its own origin", nil, "evil.example.com", "http://evil.example.com", true},
	{"foreign origin", nil, "", "http://evil.example.com", true},
	{"null origin", nil, "", "null", true},
	{"allowed host", []rpc.Option{rpc.WithAllowedHosts("api.example.com")}, "api.example.com", "", false},
	{"allowed origin", []rpc.Option{rpc.WithAllowedOrigins("https://app.example.com")}, "", "https://app.example.com", false},
	{"host check off", []rpc.Option{rpc.WithoutHostCheck()}, "evil.example.com", "http://evil.example.com", false},
}

// originFor fills in the "<same>" origin: the server's own.
func originFor(origin string, srv *httptest.Server) string {
	if origin == "<same>" {
		return srv.URL
	}
	return origin
}

func TestHTTPHandlerRefusesAForeignHostOrOrigin(t *testing.T) {
	for _, tc := range hostCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(rpc.NewHTTPHandler(testService(t), tc.opts...))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL, strings.NewReader(`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`))
			require.NoError(t, err)
			req.Header.Set("Content-Type", "application/json")
			if tc.host != "" {
				req.Host = tc.host
			}
			if o := originFor(tc.origin, srv); o != "" {
				req.Header.Set("Origin", o)
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			if tc.refused {
				assert.Equal(t, http.StatusForbidden, resp.StatusCode)
				assert.NotContains(t, string(body), `"result"`, "nothing ran")
				return
			}
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, string(body))
		})
	}
}

func TestWebSocketHandlerRefusesAForeignHostOrOriginBeforeUpgrading(t *testing.T) {
	for _, tc := range hostCases {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(rpc.NewWebSocketHandler(testService(t), nil, tc.opts...))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			dial := &websocket.DialOptions{Host: tc.host, HTTPHeader: http.Header{}}
			if o := originFor(tc.origin, srv); o != "" {
				dial.HTTPHeader.Set("Origin", o)
			}
			ws, resp, err := websocket.Dial(ctx, wsURL(srv), dial)
			if tc.refused {
				require.Error(t, err)
				require.NotNil(t, resp)
				assert.Equal(t, http.StatusForbidden, resp.StatusCode)
				return
			}
			require.NoError(t, err)
			defer ws.CloseNow()
			require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`)))
			_, got, err := ws.Read(ctx)
			require.NoError(t, err)
			assert.Equal(t, `{"jsonrpc":"2.0","id":1,"result":3}`, string(got))
		})
	}
}

// The websocket library's own origin patterns give way to the handler's
// policy: they neither let a foreign origin in nor keep a loopback one out.
func TestWebSocketAcceptOriginPatternsAreNotUsed(t *testing.T) {
	srv := httptest.NewServer(rpc.NewWebSocketHandler(testService(t), &websocket.AcceptOptions{OriginPatterns: []string{"evil.example.com"}}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, resp, err := websocket.Dial(ctx, wsURL(srv), &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://evil.example.com"}}})
	require.Error(t, err)
	require.NotNil(t, resp)
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)

	ws, _, err := websocket.Dial(ctx, wsURL(srv), &websocket.DialOptions{HTTPHeader: http.Header{"Origin": {"http://localhost:5173"}}})
	require.NoError(t, err, "a loopback page may connect to a loopback server")
	ws.CloseNow()
}

func TestARefusedWebSocketUpgradeIsLoggedAtWarn(t *testing.T) {
	var buf syncbuf.Buffer
	srv := httptest.NewServer(rpc.NewWebSocketHandler(testService(t), nil, rpc.WithLogger(jsonLogger(&buf, slog.LevelDebug))))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := websocket.Dial(ctx, wsURL(srv), &websocket.DialOptions{Host: "evil.example.com"})
	require.Error(t, err)
	line := findRecord(logRecords(t, &buf), "jsonrpc: WebSocket upgrade refused")
	require.NotNil(t, line, buf.String())
	assert.Equal(t, "WARN", line["level"])
	assert.Equal(t, float64(http.StatusForbidden), line["status"])
	assert.Equal(t, "websocket", line["transport"])
}
