package mcpredis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// Tasks returns the store of task records (2025-11-25's and the 2026-07-28
// tasks extension's).
func (s *Store) Tasks() mcp.TaskStore { return s.tasks }

// taskStore is an mcp.TaskStore keeping each task in a hash that expires
// with it, and each session's task ids in a sorted set scored by the
// creation time, for List.
//
// A task's hash holds its fields apart, as Redis strings, so that the
// bytes of a result or of an error's data come back as they were given:
// "status" (read by the End and Update scripts), "task" (the Task's JSON),
// "result", "code", "message" and "data" of the error, "input" and
// "answers" (JSON objects) and "revision" (read by the Update script). A
// part that is absent has no field.
type taskStore struct {
	rdb    redis.UniversalClient
	prefix string
}

// Fields of a task's hash.
const (
	taskFieldStatus  = "status"
	taskFieldTask    = "task"
	taskFieldResult  = "result"
	taskFieldCode    = "code"
	taskFieldMessage = "message"
	taskFieldData    = "data"
	taskFieldInput   = "input"
	taskFieldAnswers = "answers"
	taskFieldRev     = "revision"
)

// The scripts name a task's hash by its session's index key, ':' and the
// path-escaped task id (the index's member): an escaped id holds no '}',
// and the index key ends with one, so no two (session, id) pairs share a
// key, and all keys of a session share its hash tag.

// createTaskScript stores a new task and indexes it. A task stored again
// while it lives keeps its place in List. The score is Redis's clock, one
// for every replica, in milliseconds; the index lives as long as its
// longest-lived task.
//
// KEYS: the session's index. ARGV: the escaped id, the keep in ms (0 for
// none), then the hash's fields and values.
var createTaskScript = redis.NewScript(`
local key = KEYS[1] .. ':' .. ARGV[1]
local ms = tonumber(ARGV[2])
if ms <= 0 then
	redis.call('DEL', key)
	redis.call('ZREM', KEYS[1], ARGV[1])
	return 1
end
local now = redis.call('TIME')
local score = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('EXISTS', key) == 1 then
	redis.call('ZADD', KEYS[1], 'NX', score, ARGV[1])
else
	redis.call('ZADD', KEYS[1], score, ARGV[1])
end
redis.call('DEL', key)
redis.call('HSET', key, unpack(ARGV, 3))
redis.call('PEXPIRE', key, ms)
if redis.call('PTTL', KEYS[1]) < ms then
	redis.call('PEXPIRE', KEYS[1], ms)
end
return 1
`)

// endTaskScript replaces a running task's hash: -1 when there is none, 0
// when it has ended (its status is final, as mcp.TaskRecord.Ended says),
// 1 when it was replaced.
//
// KEYS: the session's index. ARGV: as createTaskScript's.
var endTaskScript = redis.NewScript(`
local key = KEYS[1] .. ':' .. ARGV[1]
local status = redis.call('HGET', key, 'status')
if not status then
	return -1
end
if status == 'completed' or status == 'failed' or status == 'cancelled' then
	return 0
end
local ms = tonumber(ARGV[2])
redis.call('DEL', key)
if ms <= 0 then
	redis.call('ZREM', KEYS[1], ARGV[1])
	return 1
end
redis.call('HSET', key, unpack(ARGV, 3))
redis.call('PEXPIRE', key, ms)
if redis.call('PTTL', KEYS[1]) < ms then
	redis.call('PEXPIRE', KEYS[1], ms)
end
return 1
`)

// updateTaskScript replaces a running task's hash, keeping its expiry: -1
// when there is none, 0 when it has ended or its revision is not ARGV[2]
// (the record's revision, one less than the new one's), 1 when it was
// replaced.
//
// KEYS: the session's index. ARGV: the escaped id, the expected revision,
// then the hash's fields and values.
var updateTaskScript = redis.NewScript(`
local key = KEYS[1] .. ':' .. ARGV[1]
local status = redis.call('HGET', key, 'status')
if not status then
	return -1
end
if status == 'completed' or status == 'failed' or status == 'cancelled' then
	return 0
end
local rev = redis.call('HGET', key, 'revision') or '0'
if rev ~= ARGV[2] then
	return 0
end
local ms = redis.call('PTTL', key)
redis.call('DEL', key)
redis.call('HSET', key, unpack(ARGV, 3))
if ms > 0 then
	redis.call('PEXPIRE', key, ms)
end
return 1
`)

// listTasksScript returns the hashes of a session's tasks, oldest first,
// and drops from the index the ids whose hash has expired.
//
// KEYS: the session's index.
var listTasksScript = redis.NewScript(`
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
	local fields = redis.call('HGETALL', KEYS[1] .. ':' .. id)
	if #fields == 0 then
		redis.call('ZREM', KEYS[1], id)
	else
		out[#out + 1] = fields
	end
end
return out
`)

// index returns the key of a session's sorted set of task ids. The session
// id is in a hash tag, never empty, so that on Redis Cluster the index and
// the session's tasks share a slot, as the scripts need.
func (s *taskStore) index(session string) string {
	return s.prefix + "{s:" + session + "}"
}

// key returns the key of a task's hash.
func (s *taskStore) key(session, id string) string {
	return s.index(session) + ":" + url.PathEscape(id)
}

// Create stores rec with createTaskScript.
func (s *taskStore) Create(ctx context.Context, rec mcp.TaskRecord, keep time.Duration) error {
	if err := s.write(ctx, createTaskScript, rec, keep).Err(); err != nil {
		return fmt.Errorf("mcpredis: storing task %q of session %q: %w", rec.Task.TaskID, rec.Session, err)
	}
	return nil
}

// End replaces the record with endTaskScript.
func (s *taskStore) End(ctx context.Context, rec mcp.TaskRecord, keep time.Duration) (bool, error) {
	n, err := s.write(ctx, endTaskScript, rec, keep).Int64()
	if err != nil {
		return false, fmt.Errorf("mcpredis: ending task %q of session %q: %w", rec.Task.TaskID, rec.Session, err)
	}
	if n < 0 {
		return false, mcp.ErrTaskNotFound
	}
	return n == 1, nil
}

// Update replaces the record with updateTaskScript.
func (s *taskStore) Update(ctx context.Context, rec mcp.TaskRecord) (bool, error) {
	if rec.Ended() {
		return false, nil
	}
	n, err := s.run(ctx, updateTaskScript, rec, strconv.FormatInt(rec.Revision-1, 10)).Int64()
	if err != nil {
		return false, fmt.Errorf("mcpredis: updating task %q of session %q: %w", rec.Task.TaskID, rec.Session, err)
	}
	if n < 0 {
		return false, mcp.ErrTaskNotFound
	}
	return n == 1, nil
}

// write runs script, createTaskScript or endTaskScript, for rec.
func (s *taskStore) write(ctx context.Context, script *redis.Script, rec mcp.TaskRecord, keep time.Duration) *redis.Cmd {
	ms := int64(0)
	if keep > 0 {
		ms = milliseconds(keep)
	}
	return s.run(ctx, script, rec, ms)
}

// run runs script for rec, with arg after the escaped id and before the
// hash's fields and values.
func (s *taskStore) run(ctx context.Context, script *redis.Script, rec mcp.TaskRecord, arg any) *redis.Cmd {
	task, err := rec.Task.MarshalJSON()
	if err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(fmt.Errorf("encoding the task: %w", err))
		return cmd
	}
	args := []any{url.PathEscape(rec.Task.TaskID), arg,
		taskFieldStatus, string(rec.Task.Status), taskFieldTask, task}
	for _, part := range []struct {
		field string
		m     map[string]json.RawMessage
	}{{taskFieldInput, rec.Input}, {taskFieldAnswers, rec.Answers}} {
		if part.m == nil {
			continue
		}
		b, err := json.Marshal(part.m)
		if err != nil {
			cmd := redis.NewCmd(ctx)
			cmd.SetErr(fmt.Errorf("encoding the task's %s: %w", part.field, err))
			return cmd
		}
		args = append(args, part.field, b)
	}
	if rec.Revision != 0 {
		args = append(args, taskFieldRev, rec.Revision)
	}
	if len(rec.Result) > 0 {
		args = append(args, taskFieldResult, []byte(rec.Result))
	}
	if e := rec.Error; e != nil {
		args = append(args, taskFieldCode, e.Code, taskFieldMessage, e.Message)
		if len(e.Data) > 0 {
			args = append(args, taskFieldData, []byte(e.Data))
		}
	}
	return script.Run(ctx, s.rdb, []string{s.index(rec.Session)}, args...)
}

// Get reads the task's hash with HGETALL.
func (s *taskStore) Get(ctx context.Context, session, id string) (mcp.TaskRecord, error) {
	fields, err := s.rdb.HGetAll(ctx, s.key(session, id)).Result()
	if err != nil {
		return mcp.TaskRecord{}, fmt.Errorf("mcpredis: reading task %q of session %q: %w", id, session, err)
	}
	if len(fields) == 0 {
		return mcp.TaskRecord{}, mcp.ErrTaskNotFound
	}
	rec, err := decodeTask(session, fields)
	if err != nil {
		return mcp.TaskRecord{}, fmt.Errorf("mcpredis: reading task %q of session %q: %w", id, session, err)
	}
	return rec, nil
}

// List reads the session's tasks with listTasksScript.
func (s *taskStore) List(ctx context.Context, session string) ([]mcp.TaskRecord, error) {
	reply, err := listTasksScript.Run(ctx, s.rdb, []string{s.index(session)}).Slice()
	if err != nil {
		return nil, fmt.Errorf("mcpredis: listing the tasks of session %q: %w", session, err)
	}
	recs := make([]mcp.TaskRecord, 0, len(reply))
	for _, r := range reply {
		fields, err := fieldMap(r)
		if err == nil {
			var rec mcp.TaskRecord
			if rec, err = decodeTask(session, fields); err == nil {
				recs = append(recs, rec)
				continue
			}
		}
		return nil, fmt.Errorf("mcpredis: listing the tasks of session %q: %w", session, err)
	}
	return recs, nil
}

// fieldMap turns a hash as a script returns it, names and values in turn,
// into a map.
func fieldMap(reply any) (map[string]string, error) {
	flat, ok := reply.([]any)
	if !ok {
		return nil, fmt.Errorf("a task's fields came back as %T", reply)
	}
	if len(flat)%2 != 0 {
		return nil, fmt.Errorf("a task's fields came back as %d values, names and values unpaired", len(flat))
	}
	fields := make(map[string]string, len(flat)/2)
	for i := 0; i < len(flat); i += 2 {
		name, ok1 := flat[i].(string)
		value, ok2 := flat[i+1].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("a task's field came back as %T and %T", flat[i], flat[i+1])
		}
		fields[name] = value
	}
	return fields, nil
}

// errBadTask reports a task hash that write did not make.
var errBadTask = errors.New("not a task record")

// decodeTask makes the record of session held in a task's hash.
func decodeTask(session string, fields map[string]string) (mcp.TaskRecord, error) {
	rec := mcp.TaskRecord{Session: session}
	task, ok := fields[taskFieldTask]
	if !ok {
		return rec, fmt.Errorf("%w: no %q field", errBadTask, taskFieldTask)
	}
	if err := rec.Task.UnmarshalJSON([]byte(task)); err != nil {
		return rec, fmt.Errorf("%w: %w", errBadTask, err)
	}
	if result, ok := fields[taskFieldResult]; ok {
		rec.Result = json.RawMessage(result)
	}
	for _, part := range []struct {
		field string
		m     *map[string]json.RawMessage
	}{{taskFieldInput, &rec.Input}, {taskFieldAnswers, &rec.Answers}} {
		if raw, ok := fields[part.field]; ok {
			if err := json.Unmarshal([]byte(raw), part.m); err != nil {
				return rec, fmt.Errorf("%w: %s: %w", errBadTask, part.field, err)
			}
		}
	}
	if raw, ok := fields[taskFieldRev]; ok {
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return rec, fmt.Errorf("%w: revision %q", errBadTask, raw)
		}
		rec.Revision = n
	}
	if code, ok := fields[taskFieldCode]; ok {
		n, err := strconv.Atoi(code)
		if err != nil {
			return rec, fmt.Errorf("%w: error code %q", errBadTask, code)
		}
		rec.Error = &rpc.Error{Code: n, Message: fields[taskFieldMessage]}
		if data, ok := fields[taskFieldData]; ok {
			rec.Error.Data = json.RawMessage(data)
		}
	}
	return rec, nil
}
