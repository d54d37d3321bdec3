package mcpredis_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

// received collects what a subscription delivers.
type received struct {
	mu   sync.Mutex
	msgs []string
}

func (r *received) add(msg []byte) {
	r.mu.Lock()
	r.msgs = append(r.msgs, string(msg))
	r.mu.Unlock()
}

func (r *received) get() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// waitFor polls cond for at most 5 s.
func waitFor(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, 5*time.Second, 10*time.Millisecond, msg)
}

func TestReplicasWithOnePrefixShareEverything(t *testing.T) {
	srv := startRedis(t)
	ctx := t.Context()
	a := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: "app:"})
	b := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: "app:"})

	require.NoError(t, a.Sessions().Put(ctx, "S", []byte("state"), time.Minute))
	got, err := b.Sessions().Get(ctx, "S")
	require.NoError(t, err)
	assert.Equal(t, "state", string(got))

	first, err := a.Events().Append(ctx, "S", "1", []byte("one"))
	require.NoError(t, err)
	_, err = a.Events().Append(ctx, "S", "1", []byte("two"))
	require.NoError(t, err)
	var replayed []string
	stream, err := b.Events().Replay(ctx, "S", first, func(_ string, data []byte) error {
		replayed = append(replayed, string(data))
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "1", stream)
	assert.Equal(t, []string{"two"}, replayed)

	var r received
	unsubscribe, err := a.Broker().Subscribe(ctx, "T", r.add)
	require.NoError(t, err)
	defer unsubscribe()
	require.NoError(t, b.Broker().Publish(ctx, "T", []byte("from b")))
	waitFor(t, func() bool { return len(r.get()) == 1 }, "a subscriber on one replica hears another replica")
	assert.Equal(t, []string{"from b"}, r.get())
}

func TestPrefixesKeepServersApart(t *testing.T) {
	srv := startRedis(t)
	ctx := t.Context()
	c := srv.client(t)
	a := mcpredis.New(c, mcpredis.Options{}) // DefaultPrefix
	b := mcpredis.New(c, mcpredis.Options{Prefix: "other:"})

	require.NoError(t, a.Sessions().Put(ctx, "S", []byte("a"), time.Minute))
	_, err := b.Sessions().Get(ctx, "S")
	assert.ErrorIs(t, err, mcp.ErrSessionNotFound)
	id, err := a.Events().Append(ctx, "S", "1", []byte("a"))
	require.NoError(t, err)
	_, err = b.Events().Replay(ctx, "S", id, func(string, []byte) error { return nil })
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)

	var heard received
	unsubscribe, err := b.Broker().Subscribe(ctx, "T", heard.add)
	require.NoError(t, err)
	defer unsubscribe()
	require.NoError(t, a.Broker().Publish(ctx, "T", []byte("a")))
	require.NoError(t, b.Broker().Publish(ctx, "T", []byte("b")))
	waitFor(t, func() bool { return len(heard.get()) > 0 }, "b hears its own topic")
	assert.Equal(t, []string{"b"}, heard.get())

	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	require.NotEmpty(t, keys)
	for _, k := range keys {
		assert.True(t, strings.HasPrefix(k, mcpredis.DefaultPrefix), "key %q", k)
	}
}

// appendAll appends events with the given data to stream "1" of session
// "S" and returns their ids.
func appendAll(t *testing.T, s mcp.EventStore, data ...string) []string {
	t.Helper()
	ids := make([]string, len(data))
	for i, d := range data {
		id, err := s.Append(t.Context(), "S", "1", []byte(d))
		require.NoError(t, err)
		ids[i] = id
	}
	return ids
}

// replayData replays session "S" from id.
func replayData(t *testing.T, s mcp.EventStore, id string) ([]string, error) {
	t.Helper()
	var out []string
	_, err := s.Replay(t.Context(), "S", id, func(_ string, data []byte) error {
		out = append(out, string(data))
		return nil
	})
	return out, err
}

func TestEventsPastMaxEventBytesGoOldestFirst(t *testing.T) {
	c := startRedis(t).client(t)
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix(), MaxEventBytes: 10}).Events()
	ids := appendAll(t, s, "aaaa", "bbbb", "cccc")
	_, err := replayData(t, s, ids[0])
	assert.ErrorIs(t, err, mcp.ErrEventNotFound, "12 bytes are more than 10: aaaa went")
	got, err := replayData(t, s, ids[1])
	require.NoError(t, err)
	assert.Equal(t, []string{"cccc"}, got)

	big := appendAll(t, s, strings.Repeat("x", 50))
	got, err = replayData(t, s, big[0])
	require.NoError(t, err, "the newest event is kept whatever its size")
	assert.Empty(t, got)
	_, err = replayData(t, s, ids[2])
	assert.ErrorIs(t, err, mcp.ErrEventNotFound)
}

func TestEventsExpireEventTTLAfterTheLastAppend(t *testing.T) {
	c := startRedis(t).client(t)
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix(), EventTTL: 150 * time.Millisecond}).Events()
	ids := appendAll(t, s, "one", "two")
	waitFor(t, func() bool {
		_, err := replayData(t, s, ids[0])
		return errors.Is(err, mcp.ErrEventNotFound)
	}, "the event log did not expire")
	keys, err := c.Keys(t.Context(), "*").Result()
	require.NoError(t, err)
	assert.Empty(t, keys, "nothing is left of the session")
}

func TestReplayRefusesIDsItDidNotIssue(t *testing.T) {
	c := startRedis(t).client(t)
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Events()
	ids := appendAll(t, s, "one", "two")
	stream, entry, ok := strings.Cut(ids[0], "/")
	require.True(t, ok, "id %q", ids[0])
	require.Equal(t, "1", stream)
	ms, seq, ok := strings.Cut(entry, "-")
	require.True(t, ok, "id %q", ids[0])
	for _, id := range []string{
		"%31/" + entry, // another spelling of stream "1"
		"2/" + entry,   // the entry is not stream 2's
		"1/0" + entry,  // a leading zero
		"1/" + ms,      // an incomplete entry id
		"1/" + ms + "-" + seq + "-0",
		"1/" + ms + "-+" + seq,
		"1/-",
		"1/" + entry + "/",
		"%zz/" + entry,
	} {
		_, err := replayData(t, s, id)
		assert.ErrorIs(t, err, mcp.ErrEventNotFound, "id %q", id)
	}
	got, err := replayData(t, s, ids[0])
	require.NoError(t, err)
	assert.Equal(t, []string{"two"}, got)
}

func TestReplayPagesThroughALongLog(t *testing.T) {
	c := startRedis(t).client(t)
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Events()
	data := make([]string, 700)
	for i := range data {
		data[i] = strings.Repeat("e", i%7)
	}
	ids := appendAll(t, s, data...)
	got, err := replayData(t, s, ids[0])
	require.NoError(t, err)
	assert.Equal(t, data[1:], got)
}

func TestSubscribeIsBoundedBySubscribeTimeoutAndItsContext(t *testing.T) {
	srv := startRedis(t)
	c := srv.client(t)
	b := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: newPrefix(), SubscribeTimeout: 200 * time.Millisecond}).Broker()
	var first received
	unsubscribe, err := b.Subscribe(t.Context(), "first", first.add)
	require.NoError(t, err)
	defer unsubscribe()

	// While Redis is paused, it confirms no subscription.
	require.NoError(t, c.Do(t.Context(), "CLIENT", "PAUSE", 1000, "ALL").Err())
	_, err = b.Subscribe(t.Context(), "late", func([]byte) {})
	assert.ErrorContains(t, err, "did not confirm the subscription")

	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err = b.Subscribe(ctx, "late", func([]byte) {})
	assert.ErrorIs(t, err, context.DeadlineExceeded)

	var late received
	waitFor(t, func() bool {
		unsubscribe, err := b.Subscribe(t.Context(), "late", late.add)
		if err == nil {
			t.Cleanup(unsubscribe)
		}
		return err == nil
	}, "subscribing once Redis is back")
	require.NoError(t, b.Publish(t.Context(), "late", []byte("x")))
	require.NoError(t, b.Publish(t.Context(), "first", []byte("y")))
	waitFor(t, func() bool { return len(late.get()) == 1 && len(first.get()) == 1 }, "both subscriptions deliver")
}

func TestSubscriptionsResumeWhenRedisComesBack(t *testing.T) {
	srv := startRedis(t)
	b := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: newPrefix()}).Broker()
	var r received
	unsubscribe, err := b.Subscribe(t.Context(), "T", r.add)
	require.NoError(t, err)
	defer unsubscribe()

	srv.restart()
	// Messages published before go-redis subscribed again are lost;
	// publish until one arrives.
	var sent int
	waitFor(t, func() bool {
		if len(r.get()) > 0 {
			return true
		}
		sent++
		_ = b.Publish(t.Context(), "T", []byte("probe"))
		return false
	}, "no message arrived after Redis restarted")
	assert.LessOrEqual(t, len(r.get()), sent)
}

// bounded runs fn and fails the test if it takes more than 5 s.
func bounded(t *testing.T, name string, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatalf("%s hung with Redis gone", name)
		return nil
	}
}

func TestARedisThatWentAwayGivesErrorsNotHangs(t *testing.T) {
	srv := startRedis(t)
	c := redis.NewClient(&redis.Options{
		Addr: srv.addr, DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond, PoolTimeout: 500 * time.Millisecond, MaxRetries: 1, DialerRetries: 1,
	})
	t.Cleanup(func() { _ = c.Close() })
	st := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix(), SubscribeTimeout: 500 * time.Millisecond})
	ctx := context.Background()
	require.NoError(t, st.Sessions().Put(ctx, "S", []byte("x"), time.Minute))
	id, err := st.Events().Append(ctx, "S", "1", []byte("x"))
	require.NoError(t, err)
	unsubscribe, err := st.Broker().Subscribe(ctx, "T", func([]byte) {})
	require.NoError(t, err)

	srv.stop()
	for _, op := range []struct {
		name string
		fn   func() error
	}{
		{"Put", func() error { return st.Sessions().Put(ctx, "S", []byte("y"), time.Minute) }},
		{"Get", func() error { _, err := st.Sessions().Get(ctx, "S"); return err }},
		{"Touch", func() error { return st.Sessions().Touch(ctx, "S", time.Minute) }},
		{"Delete", func() error { return st.Sessions().Delete(ctx, "S") }},
		{"Append", func() error { _, err := st.Events().Append(ctx, "S", "1", []byte("y")); return err }},
		{"Replay", func() error {
			_, err := st.Events().Replay(ctx, "S", id, func(string, []byte) error { return nil })
			return err
		}},
		{"Forget", func() error { return st.Events().Forget(ctx, "S") }},
		{"Publish", func() error { return st.Broker().Publish(ctx, "T", []byte("y")) }},
		{"Subscribe", func() error { _, err := st.Broker().Subscribe(ctx, "U", func([]byte) {}); return err }},
		{"SubscribeFirst", func() error {
			fresh := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Broker()
			_, err := fresh.Subscribe(ctx, "T", func([]byte) {})
			return err
		}},
	} {
		err := bounded(t, op.name, op.fn)
		assert.Error(t, err, op.name)
		assert.NotErrorIs(t, err, mcp.ErrSessionNotFound, "%s: an outage is not an absent session", op.name)
		assert.NotErrorIs(t, err, mcp.ErrEventNotFound, "%s: an outage is not an absent event", op.name)
	}
	require.NoError(t, bounded(t, "unsubscribe", func() error { unsubscribe(); return nil }))
}

// pubsubClients counts the connections Redis has in pub/sub mode.
func pubsubClients(t *testing.T, c *redis.Client) int {
	t.Helper()
	list, err := c.ClientList(t.Context()).Result()
	require.NoError(t, err)
	n := 0
	for _, line := range strings.Split(list, "\n") {
		for _, f := range strings.Fields(line) {
			if flags, ok := strings.CutPrefix(f, "flags="); ok && strings.Contains(flags, "P") {
				n++
			}
		}
	}
	return n
}

func TestSubscriptionsShareOneConnectionClosedWithTheLast(t *testing.T) {
	srv := startRedis(t)
	admin := srv.client(t)
	b := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: newPrefix()}).Broker()
	var unsubscribes []func()
	for _, topic := range []string{"a", "b", "c", "a"} {
		unsubscribe, err := b.Subscribe(t.Context(), topic, func([]byte) {})
		require.NoError(t, err)
		unsubscribes = append(unsubscribes, unsubscribe)
	}
	assert.Equal(t, 1, pubsubClients(t, admin), "four subscriptions, one connection")
	for _, unsubscribe := range unsubscribes {
		unsubscribe()
	}
	waitFor(t, func() bool { return pubsubClients(t, admin) == 0 }, "the connection outlived the last subscription")

	var r received
	unsubscribe, err := b.Subscribe(t.Context(), "a", r.add)
	require.NoError(t, err, "a broker subscribes again after its connection closed")
	defer unsubscribe()
	require.NoError(t, b.Publish(t.Context(), "a", []byte("x")))
	waitFor(t, func() bool { return len(r.get()) == 1 }, "delivery on the new connection")
}
