package rpc_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

func TestEncodeNotificationWritesWhatNotifySends(t *testing.T) {
	got, err := rpc.EncodeNotification("notifications/progress", map[string]any{"progress": 1, "note": "<ok>"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"note":"<ok>"}}`, string(got))
	assert.Contains(t, string(got), "<ok>", "no HTML escaping")

	_, err = rpc.EncodeNotification("x", func() {})
	assert.Error(t, err, "params that cannot be encoded")
}
