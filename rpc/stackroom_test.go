package rpc_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/stackroom/stackroomtest"
	"github.com/schemarpc/schemarpc/rpc"
)

func TestAHandlerRunsWithRoomForADeepCall(t *testing.T) {
	stackroomtest.NoCollection(t)
	// A handler runs on a goroutine that made its stack's room while it
	// was shallow: its first deep call copies no stack (a copy walks the
	// function tables of every frame, held resident from then on).
	r := rpc.NewRouter()
	r.Register("deep", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return stackroomtest.DeepCallMoves(32), nil
	}})
	a, b := rpc.NewPipe()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = rpc.Serve(ctx, b, r) }()
	client := rpc.NewConn(a)
	defer client.Close()
	for range 3 { // the first worker, and the ones after it
		var moved bool
		require.NoError(t, client.Call(ctx, "deep", nil, &moved))
		assert.False(t, moved, "a 32 KiB deep call in a handler grew its goroutine's stack")
	}
}

func TestAHandlerServedOverHTTPRunsWithRoomForADeepCall(t *testing.T) {
	stackroomtest.NoCollection(t)
	r := rpc.NewRouter()
	r.Register("deep", rpc.Method{Handler: func(context.Context, *rpc.Request) (any, error) {
		return stackroomtest.DeepCallMoves(32), nil
	}})
	srv := httptest.NewServer(rpc.NewHTTPHandler(r))
	defer srv.Close()
	for id := range 3 {
		resp, err := http.Post(srv.URL, "application/json",
			strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"deep"}`, id)))
		require.NoError(t, err)
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		require.NoError(t, err)
		assert.JSONEq(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":false}`, id), string(body),
			"a 32 KiB deep call in a handler served over HTTP grew its goroutine's stack")
	}
}

func TestADeepCallOnAFreshGoroutineMovesItsStack(t *testing.T) {
	// The control: the measure above sees a growth when there is one.
	moved := make(chan bool)
	go func() { moved <- stackroomtest.DeepCallMoves(32) }()
	assert.True(t, <-moved, "a 32 KiB deep call on a new goroutine did not grow its stack: the measure cannot see a growth")
}
