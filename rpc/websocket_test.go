package rpc_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func wsURL(s *httptest.Server) string { return "ws" + strings.TrimPrefix(s.URL, "http") }

func TestWebSocketCallsBothWays(t *testing.T) {
	server := rpc.NewRouter()
	server.Register("greet", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		var name string
		if err := rpc.ConnFromContext(ctx).Call(ctx, "whoami", nil, &name); err != nil {
			return nil, err
		}
		return "hello, " + name, nil
	}})
	srv := httptest.NewServer(rpc.NewWebSocketHandler(server, nil))
	defer srv.Close()
	clientSide := rpc.NewRouter()
	clientSide.Register("whoami", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return "ws client", nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := rpc.DialWebSocket(ctx, wsURL(srv), nil, rpc.WithHandler(clientSide))
	require.NoError(t, err)
	defer c.Close()
	var got string
	require.NoError(t, c.Call(ctx, "greet", nil, &got))
	assert.Equal(t, "hello, ws client", got)
}

func TestWebSocketOneTextFrameIsOneMessage(t *testing.T) {
	srv := httptest.NewServer(rpc.NewWebSocketHandler(testService(t), nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, wsURL(srv), nil)
	require.NoError(t, err)
	defer ws.CloseNow()
	roundTrip := func(msg string) string {
		require.NoError(t, ws.Write(ctx, websocket.MessageText, []byte(msg)))
		typ, b, err := ws.Read(ctx)
		require.NoError(t, err)
		assert.Equal(t, websocket.MessageText, typ)
		return string(b)
	}
	assert.Equal(t, `{"jsonrpc":"2.0","id":1e3,"result":3}`, roundTrip(`{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1e3}`))
	assert.Contains(t, roundTrip(`{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]`), `"code":-32700`)
	assert.Contains(t, roundTrip("[\n{\"jsonrpc\":\"2.0\",\"method\":\"add\",\"params\":[1,1],\"id\":1}\n]"), `"result":2`)
}

func TestWebSocketClosesOnBinaryFramesAndOversizedMessages(t *testing.T) {
	srv := httptest.NewServer(rpc.NewWebSocketHandler(testService(t), nil, rpc.WithMaxMessageSize(64)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cases := map[string]struct {
		typ    websocket.MessageType
		msg    string
		status websocket.StatusCode
	}{
		"binary":    {websocket.MessageBinary, `{"jsonrpc":"2.0","method":"add","params":[1,2],"id":1}`, websocket.StatusUnsupportedData},
		"oversized": {websocket.MessageText, `{"jsonrpc":"2.0","method":"echo","params":["` + strings.Repeat("x", 64) + `"],"id":1}`, websocket.StatusMessageTooBig},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			ws, _, err := websocket.Dial(ctx, wsURL(srv), nil)
			require.NoError(t, err)
			defer ws.CloseNow()
			require.NoError(t, ws.Write(ctx, c.typ, []byte(c.msg)))
			_, _, err = ws.Read(ctx)
			assert.Equal(t, c.status, websocket.CloseStatus(err), "err: %v", err)
		})
	}
}
