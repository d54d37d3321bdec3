package rpc_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/syncbuf"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestDispatcherAnswersAsTheEngineOfEveryTransport(t *testing.T) {
	h := rpc.HandlerFunc(func(_ context.Context, req *rpc.Request) (any, error) {
		switch req.Method {
		case "ok":
			return map[string]int{"n": 1}, nil
		case "refuse":
			return nil, rpc.InvalidParams("no such thing")
		case "fail":
			return nil, errors.New("the database is down")
		case "panic":
			panic("the handler broke")
		case "hold":
			return nil, rpc.ErrNoResponse
		}
		return nil, rpc.MethodNotFound(req.Method)
	})
	tests := []struct {
		name, msg, want, log string
	}{
		{"a result", `{"jsonrpc":"2.0","id":1,"method":"ok"}`, `{"jsonrpc":"2.0","id":1,"result":{"n":1}}`, ""},
		{"an error the handler chose", `{"jsonrpc":"2.0","id":"a","method":"refuse"}`, `{"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"invalid params: no such thing"}}`, ""},
		{"a failure becomes -32603, its cause logged", `{"jsonrpc":"2.0","id":2,"method":"fail"}`, `{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"internal error"}}`, "the database is down"},
		{"a panic becomes -32603, logged", `{"jsonrpc":"2.0","id":3,"method":"panic"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"internal error"}}`, "the handler broke"},
		{"a request left unanswered", `{"jsonrpc":"2.0","id":4,"method":"hold"}`, "", ""},
		{"a notification", `{"jsonrpc":"2.0","method":"ok"}`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf syncbuf.Buffer
			d := rpc.NewDispatcher(h, rpc.WithLogger(slog.New(slog.NewJSONHandler(&buf, nil))))
			req, _, perr := rpc.ParseRequest([]byte(tt.msg))
			require.Nil(t, perr)
			got := d.Serve(context.Background(), req)
			if tt.want == "" {
				assert.Nil(t, got)
			} else {
				assert.JSONEq(t, tt.want, string(got))
			}
			if tt.log != "" {
				assert.Contains(t, buf.String(), tt.log)
			}
		})
	}
}
