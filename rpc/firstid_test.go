package rpc_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestWithFirstIDNumbersCallsFromThere(t *testing.T) {
	a, b := rpc.NewPipe()
	c := rpc.NewConn(a, rpc.WithFirstID(1<<40))
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- c.Call(ctx, "ping", nil, nil) }()
	msg, err := b.Read(ctx)
	require.NoError(t, err)
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	require.NoError(t, json.Unmarshal(msg, &req))
	require.Equal(t, "1099511627777", string(req.ID))
	var id rpc.ID
	require.NoError(t, json.Unmarshal(req.ID, &id))
	require.True(t, c.Awaits(id), "the call waits for its response")
	require.False(t, c.Awaits(rpc.Int64ID(1)), "no call has id 1")
	require.NoError(t, b.Write(ctx, []byte(`{"jsonrpc":"2.0","id":1099511627777,"result":{}}`)))
	require.NoError(t, <-errc)
	require.False(t, c.Awaits(id), "an answered call is no longer awaited")
}
