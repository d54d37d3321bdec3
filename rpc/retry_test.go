package rpc_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRateLimitedCarriesItsRetryHint(t *testing.T) {
	e := rpc.RateLimited(1500*time.Microsecond, "tools/call per session")
	assert.Equal(t, rpc.CodeServerBusy, e.Code)
	assert.Equal(t, "rate limit exceeded", e.Message)
	assert.JSONEq(t, `{"retryAfterMs":2,"limit":"tools/call per session"}`, string(e.Data), "rounded up to a millisecond")

	d, ok := rpc.RetryAfter(fmt.Errorf("refused: %w", e))
	require.True(t, ok, "found through a wrapped chain")
	assert.Equal(t, 2*time.Millisecond, d)

	e = rpc.RateLimited(0, "")
	assert.JSONEq(t, `{"retryAfterMs":1}`, string(e.Data), "never a zero wait, no empty limit")
}

func TestRetryAfterIgnoresOtherErrors(t *testing.T) {
	for name, err := range map[string]error{
		"nil":               nil,
		"plain":             errors.New("boom"),
		"other code":        rpc.InvalidParams("x").WithData(rpc.RetryData{RetryAfterMs: 5}),
		"busy without data": rpc.ShuttingDown(),
		"busy, other data":  rpc.ShuttingDown().WithData(map[string]string{"why": "x"}),
		"busy, bad data":    rpc.ShuttingDown().WithRawData([]byte(`"soon"`)),
		"busy, zero wait":   rpc.ShuttingDown().WithData(rpc.RetryData{}),
	} {
		_, ok := rpc.RetryAfter(err)
		assert.False(t, ok, name)
	}
}
