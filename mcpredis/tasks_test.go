package mcpredis_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/mcpredis"
)

// workingTask returns the record of a working task id of session.
func workingTask(session, id string) mcp.TaskRecord {
	ttl := int64(60_000)
	return mcp.TaskRecord{Session: session, Task: mcp.Task{
		TaskID: id, Status: mcp.TaskStatusWorking, TTL: &ttl,
		CreatedAt: "2025-11-25T10:00:00Z", LastUpdatedAt: "2025-11-25T10:00:00Z",
	}}
}

// completedTask returns rec completed with a small result.
func completedTask(rec mcp.TaskRecord) mcp.TaskRecord {
	rec.Task.Status = mcp.TaskStatusCompleted
	rec.Result = json.RawMessage(`{"content":[]}`)
	return rec
}

func TestReplicasWithOnePrefixShareTasks(t *testing.T) {
	srv := startRedis(t)
	ctx := t.Context()
	a := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: "app:"}).Tasks()
	b := mcpredis.New(srv.client(t), mcpredis.Options{Prefix: "app:"}).Tasks()

	rec := workingTask("S", "t1")
	require.NoError(t, a.Create(ctx, rec, time.Minute))
	got, err := b.Get(ctx, "S", "t1")
	require.NoError(t, err, "a task created at one replica is read at another")
	assert.Equal(t, rec, got)

	done := completedTask(rec)
	ok, err := b.End(ctx, done, time.Minute)
	require.NoError(t, err)
	assert.True(t, ok)
	ok, err = a.End(ctx, completedTask(rec), time.Minute)
	require.NoError(t, err)
	assert.False(t, ok, "a task ended at one replica is ended at all")
	list, err := a.List(ctx, "S")
	require.NoError(t, err)
	assert.Equal(t, []mcp.TaskRecord{done}, list)
}

func TestPrefixesKeepTasksApart(t *testing.T) {
	srv := startRedis(t)
	ctx := t.Context()
	c := srv.client(t)
	a := mcpredis.New(c, mcpredis.Options{}).Tasks() // DefaultPrefix
	b := mcpredis.New(c, mcpredis.Options{Prefix: "other:"}).Tasks()

	rec := workingTask("S", "t1")
	require.NoError(t, a.Create(ctx, rec, time.Minute))
	_, err := b.Get(ctx, "S", "t1")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
	list, err := b.List(ctx, "S")
	require.NoError(t, err)
	assert.Empty(t, list)
	ok, err := b.End(ctx, completedTask(rec), time.Minute)
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)
	assert.False(t, ok)
	got, err := a.Get(ctx, "S", "t1")
	require.NoError(t, err)
	assert.Equal(t, rec, got, "the other server's End changed nothing")

	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	require.NotEmpty(t, keys)
	for _, k := range keys {
		assert.True(t, strings.HasPrefix(k, mcpredis.DefaultPrefix+"task:"), "key %q", k)
	}
}

func TestTasksLeaveNoKeysOnceExpired(t *testing.T) {
	c := startRedis(t).client(t)
	ctx := t.Context()
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
	require.NoError(t, s.Create(ctx, workingTask("S", "a"), 100*time.Millisecond))
	require.NoError(t, s.Create(ctx, workingTask("S", "b"), 100*time.Millisecond))
	ok, err := s.End(ctx, completedTask(workingTask("S", "b")), time.Second)
	require.NoError(t, err)
	require.True(t, ok)
	time.Sleep(150 * time.Millisecond)
	list, err := s.List(ctx, "S")
	require.NoError(t, err)
	require.Len(t, list, 1, "End pushed the index's expiry out")
	assert.Equal(t, "b", list[0].Task.TaskID)
	waitFor(t, func() bool {
		keys, err := c.Keys(ctx, "*").Result()
		require.NoError(t, err)
		return len(keys) == 0
	}, "a session's index outlived its tasks")
}

func TestAKeepOfZeroStoresNothing(t *testing.T) {
	c := startRedis(t).client(t)
	ctx := t.Context()
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()

	require.NoError(t, s.Create(ctx, workingTask("S", "gone"), 0))
	_, err := s.Get(ctx, "S", "gone")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)

	require.NoError(t, s.Create(ctx, workingTask("S", "ends"), time.Minute))
	ok, err := s.End(ctx, completedTask(workingTask("S", "ends")), -time.Second)
	require.NoError(t, err)
	assert.True(t, ok, "the task ended")
	_, err = s.Get(ctx, "S", "ends")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound, "and was dropped at once")

	list, err := s.List(ctx, "S")
	require.NoError(t, err)
	assert.Empty(t, list)
	keys, err := c.Keys(ctx, "*").Result()
	require.NoError(t, err)
	assert.Empty(t, keys)
}

func TestATaskWhoseExtraMembersAreNotJSONIsNotStored(t *testing.T) {
	c := startRedis(t).client(t)
	ctx := t.Context()
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
	bad := workingTask("S", "t1")
	bad.Task.Extra = map[string]json.RawMessage{"x": json.RawMessage(`{not json`)}

	assert.ErrorContains(t, s.Create(ctx, bad, time.Minute), "encoding the task")
	_, err := s.Get(ctx, "S", "t1")
	assert.ErrorIs(t, err, mcp.ErrTaskNotFound)

	require.NoError(t, s.Create(ctx, workingTask("S", "t1"), time.Minute))
	bad.Task.Status = mcp.TaskStatusCancelled
	ok, err := s.End(ctx, bad, time.Minute)
	assert.ErrorContains(t, err, "encoding the task")
	assert.False(t, ok)
	got, err := s.Get(ctx, "S", "t1")
	require.NoError(t, err)
	assert.Equal(t, mcp.TaskStatusWorking, got.Task.Status, "the failed End changed nothing")
}

func TestARecordTheStoreDidNotWriteIsAnError(t *testing.T) {
	c := startRedis(t).client(t)
	ctx := t.Context()
	prefix := newPrefix()
	s := mcpredis.New(c, mcpredis.Options{Prefix: prefix}).Tasks()
	index := prefix + "task:{s:S}"
	for name, fields := range map[string][]any{
		"no-task":      {"status", "working"},
		"bad-task":     {"status", "working", "task", "[1,2]"},
		"bad-code":     {"status", "failed", "task", `{"taskId":"bad-code","status":"failed"}`, "code", "x1"},
		"bad-input":    {"status", "input_required", "task", `{"taskId":"bad-input","status":"input_required"}`, "input", "[1]"},
		"bad-answers":  {"status", "input_required", "task", `{"taskId":"bad-answers","status":"input_required"}`, "answers", "{"},
		"bad-revision": {"status", "working", "task", `{"taskId":"bad-revision","status":"working"}`, "revision", "one"},
	} {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, c.HSet(ctx, index+":"+name, fields...).Err())
			t.Cleanup(func() { c.Del(context.Background(), index+":"+name) })
			_, err := s.Get(ctx, "S", name)
			assert.ErrorContains(t, err, "not a task record")
			assert.NotErrorIs(t, err, mcp.ErrTaskNotFound)

			require.NoError(t, c.ZAdd(ctx, index, redis.Z{Score: 1, Member: name}).Err())
			t.Cleanup(func() { c.ZRem(context.Background(), index, name) })
			_, err = s.List(ctx, "S")
			assert.ErrorContains(t, err, "not a task record")
		})
	}
}

func TestTasksOfARedisThatWentAwayGiveErrorsNotHangs(t *testing.T) {
	srv := startRedis(t)
	c := redis.NewClient(&redis.Options{
		Addr: srv.addr, DialTimeout: 200 * time.Millisecond, ReadTimeout: 500 * time.Millisecond,
		WriteTimeout: 500 * time.Millisecond, PoolTimeout: 500 * time.Millisecond, MaxRetries: 1, DialerRetries: 1,
	})
	t.Cleanup(func() { _ = c.Close() })
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, workingTask("S", "t1"), time.Minute))

	srv.stop()
	for _, op := range taskOps(s) {
		err := bounded(t, op.name, op.fn)
		assert.Error(t, err, op.name)
		assert.NotErrorIs(t, err, mcp.ErrTaskNotFound, "%s: an outage is not an absent task", op.name)
	}
}

func TestTasksOfAPausedRedisGiveErrorsNotHangs(t *testing.T) {
	srv := startRedis(t)
	admin := srv.client(t)
	c := redis.NewClient(&redis.Options{Addr: srv.addr, ReadTimeout: 100 * time.Millisecond, MaxRetries: -1})
	t.Cleanup(func() { _ = c.Close() })
	s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
	ctx := context.Background()
	require.NoError(t, s.Create(ctx, workingTask("S", "t1"), time.Minute))

	require.NoError(t, admin.Do(ctx, "CLIENT", "PAUSE", 1500, "ALL").Err())
	for _, op := range taskOps(s) {
		err := bounded(t, op.name, op.fn)
		assert.Error(t, err, op.name)
		assert.NotErrorIs(t, err, mcp.ErrTaskNotFound, "%s: a timeout is not an absent task", op.name)
	}
	waitFor(t, func() bool {
		_, err := s.Get(ctx, "S", "t1")
		return err == nil
	}, "the store works again once Redis is back")
}

// taskOps are a call of each method of s, on task t1 of session S.
func taskOps(s mcp.TaskStore) []struct {
	name string
	fn   func() error
} {
	ctx := context.Background()
	return []struct {
		name string
		fn   func() error
	}{
		{"Create", func() error { return s.Create(ctx, workingTask("S", "t2"), time.Minute) }},
		{"Get", func() error { _, err := s.Get(ctx, "S", "t1"); return err }},
		{"List", func() error { _, err := s.List(ctx, "S"); return err }},
		{"Update", func() error {
			rec := workingTask("S", "t1")
			rec.Revision = 1
			_, err := s.Update(ctx, rec)
			return err
		}},
		{"End", func() error { _, err := s.End(ctx, completedTask(workingTask("S", "t1")), time.Minute); return err }},
	}
}

// replyRewriter is a go-redis hook that replaces the reply of every script
// with reply: what a Redis the store was not written for might answer.
type replyRewriter struct{ reply any }

func (replyRewriter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (replyRewriter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

func (h replyRewriter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if c, ok := cmd.(*redis.Cmd); ok && err == nil && strings.HasPrefix(cmd.Name(), "eval") {
			c.SetVal(h.reply)
		}
		return err
	}
}

func TestAListReplyOfAnotherShapeIsAnError(t *testing.T) {
	srv := startRedis(t)
	for name, reply := range map[string]any{
		"not-a-list": "x",
		"not-fields": []any{"task"},
		"odd-fields": []any{[]any{"task"}},
		"not-string": []any{[]any{"task", int64(1)}},
		"not-task":   []any{[]any{"task", "[]"}},
	} {
		t.Run(name, func(t *testing.T) {
			c := srv.client(t)
			c.AddHook(replyRewriter{reply})
			s := mcpredis.New(c, mcpredis.Options{Prefix: newPrefix()}).Tasks()
			_, err := s.List(t.Context(), "S")
			assert.ErrorContains(t, err, "listing the tasks of session")
			assert.NotErrorIs(t, err, mcp.ErrTaskNotFound)
		})
	}
}
