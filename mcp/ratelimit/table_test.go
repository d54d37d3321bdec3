package ratelimit

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/rpc"
)

// stepClock is a clock moved by hand.
type stepClock struct{ now time.Time }

func (c *stepClock) Now() time.Time { return c.now }

// byParam keys a request by its params, one client per distinct params.
func byParam(_ context.Context, req *rpc.Request) any { return string(req.Params) }

// keyed is a request from client n under byParam.
func keyed(n int) *rpc.Request {
	return &rpc.Request{Method: "ping", ID: rpc.Int64ID(1), Params: []byte(strconv.Itoa(n))}
}

func newTestLimiter(t *testing.T, maxKeys int, rules ...Rule) (*Limiter, *stepClock) {
	t.Helper()
	clock := &stepClock{now: time.Unix(1_700_000_000, 0)}
	l, err := New(Options{MaxKeys: maxKeys, Now: clock.Now}, rules...)
	require.NoError(t, err)
	return l, clock
}

func TestManyClientsLeaveTheTableBounded(t *testing.T) {
	l, clock := newTestLimiter(t, 1000, Rule{Rate: 10, Burst: 2, Key: byParam})
	tab := l.rules[0]
	for n := range 100_000 {
		_ = l.Allow(context.Background(), keyed(n)) // past the bound some are refused
		if n%100 == 0 {
			clock.now = clock.now.Add(time.Millisecond)
		}
		require.LessOrEqual(t, len(tab.buckets), 1000)
	}
}

func TestRefilledBucketsAreForgotten(t *testing.T) {
	l, clock := newTestLimiter(t, -1, Rule{Rate: 10, Burst: 2, Key: byParam})
	tab := l.rules[0]
	ctx := context.Background()
	for n := range 500 {
		require.NoError(t, l.Allow(ctx, keyed(n)))
	}
	// A tenth of a second refills every bucket: the next new clients
	// sweep them away, and the table never grows past what is in use.
	clock.now = clock.now.Add(100 * time.Millisecond)
	for n := 500; n < 100_000; n++ {
		require.NoError(t, l.Allow(ctx, keyed(n)))
		if n%200 == 0 {
			clock.now = clock.now.Add(100 * time.Millisecond)
		}
		require.LessOrEqual(t, len(tab.buckets), 1024, "client %d", n)
	}
}

func TestABucketInUseIsKept(t *testing.T) {
	l, clock := newTestLimiter(t, -1, Rule{Rate: 1, Burst: 2, Key: byParam})
	ctx := context.Background()
	require.NoError(t, l.Allow(ctx, keyed(0)))
	require.NoError(t, l.Allow(ctx, keyed(0)))
	for n := 1; n < 1000; n++ {
		require.NoError(t, l.Allow(ctx, keyed(n)))
	}
	clock.now = clock.now.Add(500 * time.Millisecond)
	require.NoError(t, l.Allow(ctx, keyed(5000)))
	assert.Error(t, l.Allow(ctx, keyed(0)), "client 0 still has an empty bucket")
}

func TestPastTheBoundNewClientsShareOneBucket(t *testing.T) {
	l, clock := newTestLimiter(t, 10, Rule{Rate: 1, Burst: 3, Key: byParam})
	tab := l.rules[0]
	ctx := context.Background()
	for n := range 10 {
		require.NoError(t, l.Allow(ctx, keyed(n)))
	}
	// Clients 10, 11, … are not tracked: together they get one burst.
	for n := 10; n < 13; n++ {
		require.NoError(t, l.Allow(ctx, keyed(n)))
	}
	err := l.Allow(ctx, keyed(13))
	wait, ok := rpc.RetryAfter(err)
	require.True(t, ok, "the shared bucket is empty: %v", err)
	assert.Equal(t, time.Second, wait)
	assert.Len(t, tab.buckets, 10)
	// The tracked clients keep buckets of their own.
	for n := range 10 {
		require.NoError(t, l.Allow(ctx, keyed(n)), "tracked client %d", n)
	}
	// Once the tracked buckets are full again they make room.
	clock.now = clock.now.Add(3 * time.Second)
	require.NoError(t, l.Allow(ctx, keyed(20)))
	assert.Len(t, tab.buckets, 1)
	assert.Nil(t, tab.overflow, "the shared bucket refilled too")
}

func TestAFullTableSweepsAtMostOnceASecond(t *testing.T) {
	l, clock := newTestLimiter(t, 100, Rule{Rate: 1, Burst: 1, Key: byParam})
	tab := l.rules[0]
	ctx := context.Background()
	for n := range 100 {
		require.NoError(t, l.Allow(ctx, keyed(n)))
	}
	swept := tab.lastSweep
	clock.now = clock.now.Add(500 * time.Millisecond)
	_ = l.Allow(ctx, keyed(1000))
	assert.Equal(t, swept, tab.lastSweep, "no sweep within a second of the last")
	clock.now = clock.now.Add(500 * time.Millisecond)
	_ = l.Allow(ctx, keyed(1001))
	assert.Equal(t, clock.now, tab.lastSweep)
	assert.Len(t, tab.buckets, 1, "every bucket had refilled")
}

func TestTheDefaultBoundIsDefaultMaxKeys(t *testing.T) {
	l, _ := newTestLimiter(t, 0, Rule{Rate: 1, Burst: 1, Key: byParam})
	assert.Equal(t, DefaultMaxKeys, l.rules[0].maxKeys)
	for n := range DefaultMaxKeys + 100 {
		_ = l.Allow(context.Background(), keyed(n))
	}
	assert.Len(t, l.rules[0].buckets, DefaultMaxKeys)
}
