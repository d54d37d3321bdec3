package rpc_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func failingRouter() *rpc.Router {
	r := rpc.NewRouter()
	r.Register("fail", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, errors.New("database at /srv/db is down")
	}})
	r.Register("panic", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		panic("boom")
	}})
	r.Register("unencodable", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return func() {}, nil
	}})
	r.Register("refuse", rpc.Method{Handler: func(ctx context.Context, req *rpc.Request) (any, error) {
		return nil, rpc.NewError(-32001, "refused on purpose")
	}})
	return r
}

func TestErrorDetailPolicy(t *testing.T) {
	for _, tc := range []struct {
		method string
		debug  string // the cause sent under WithErrorDetail(true)
	}{
		{"fail", "database at /srv/db is down"},
		{"panic", "panic: boom"},
		{"unencodable", "encoding the result: "},
	} {
		t.Run(tc.method, func(t *testing.T) {
			for _, detail := range []bool{false, true} {
				client, _ := connPair(t, failingRouter(), []rpc.Option{rpc.WithErrorDetail(detail)})
				err := client.Call(context.Background(), tc.method, nil, nil)
				var rerr *rpc.Error
				require.ErrorAs(t, err, &rerr)
				assert.Equal(t, rpc.CodeInternalError, rerr.Code)
				assert.Equal(t, "internal error", rerr.Message)
				if !detail {
					assert.Nil(t, rerr.Data, "by default nothing of the cause reaches the peer")
					continue
				}
				var data struct{ Cause string }
				require.NoError(t, json.Unmarshal(rerr.Data, &data))
				assert.Contains(t, data.Cause, tc.debug)
				assert.NotContains(t, data.Cause, "goroutine", "never a stack trace")
			}
		})
	}
}

func TestErrorDetailLeavesDeliberateErrorsAlone(t *testing.T) {
	client, _ := connPair(t, failingRouter(), []rpc.Option{rpc.WithErrorDetail(true)})
	err := client.Call(context.Background(), "refuse", nil, nil)
	var rerr *rpc.Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, -32001, rerr.Code)
	assert.Nil(t, rerr.Data)
}
