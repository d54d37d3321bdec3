package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// Task defaults: how long a finished task is kept when the client names no
// ttl, the longest ttl granted, and the poll interval suggested.
const (
	defaultTaskTTL = time.Hour
	maxTaskTTL     = 24 * time.Hour
	taskPollMillis = 500
)

// relatedTaskKey is the _meta key that ties a message to a task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// taskStore keeps the tasks of 2025-11-25 task-augmented calls in memory.
// A task belongs to the session that created it; other sessions cannot see
// it. Finished tasks are forgotten once their ttl has passed.
type taskStore struct {
	mu    sync.Mutex
	tasks map[string]*task
	order []string
}

type task struct {
	owner   *ServerSession
	state   Task
	ttl     time.Duration
	done    chan struct{}
	result  any
	err     error
	cancel  context.CancelFunc
	expires time.Time // zero while running
}

func newTaskStore() *taskStore { return &taskStore{tasks: map[string]*task{}} }

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// start runs fn in the background as a new task of ss and returns the
// task's first state.
func (st *taskStore) start(ss *ServerSession, meta *TaskMetadata, fn func(ctx context.Context) (any, error)) Task {
	ttl := defaultTaskTTL
	if meta != nil && meta.TTL != nil && *meta.TTL >= 0 {
		ttl = min(time.Duration(*meta.TTL)*time.Millisecond, maxTaskTTL)
	}
	ms, poll := ttl.Milliseconds(), int64(taskPollMillis)
	t := &task{owner: ss, ttl: ttl, done: make(chan struct{})}
	t.state = Task{TaskID: rand.Text(), Status: TaskStatusWorking, CreatedAt: now(), TTL: &ms, PollInterval: &poll}
	t.state.LastUpdatedAt = t.state.CreatedAt
	ctx, cancel := context.WithCancel(withSession(context.Background(), ss))
	t.cancel = cancel
	st.mu.Lock()
	st.sweepLocked()
	st.tasks[t.state.TaskID] = t
	st.order = append(st.order, t.state.TaskID)
	first := t.state
	st.mu.Unlock()
	go func() {
		res, err := runTask(ctx, ss, first.TaskID, fn)
		st.finish(t, res, err)
	}()
	return first
}

// runTask runs a task's work. A panic fails the task with -32603, as it
// would fail a request: the client sees no panic value, the log gets it
// with the stack, and the process goes on (the work runs on a goroutine of
// its own, where nothing else would recover it).
func runTask(ctx context.Context, ss *ServerSession, id string, fn func(ctx context.Context) (any, error)) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			ss.log.Error("mcp: a task panicked", "task", id, logx.Code, rpc.CodeInternalError, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, rpc.InternalError()
		}
	}()
	return fn(ctx)
}

// finish records a task's outcome unless it was cancelled first.
func (st *taskStore) finish(t *task, res any, err error) {
	st.mu.Lock()
	if t.state.Status == TaskStatusCancelled {
		st.mu.Unlock()
		return
	}
	t.result, t.err = res, err
	t.state.Status = TaskStatusCompleted
	if err != nil {
		t.state.Status = TaskStatusFailed
		t.state.StatusMessage = publicMessage(err)
	}
	st.endLocked(t)
	snap := t.state
	st.mu.Unlock()
	st.notify(t.owner, snap)
}

func (st *taskStore) endLocked(t *task) {
	t.state.LastUpdatedAt = now()
	t.expires = time.Now().Add(t.ttl)
	close(t.done)
	t.cancel()
}

// notify sends notifications/tasks/status to the task's session.
func (st *taskStore) notify(ss *ServerSession, t Task) {
	p := TaskStatusNotificationParams{TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTL: t.TTL, PollInterval: t.PollInterval}
	if err := ss.conn.Notify(context.Background(), "notifications/tasks/status", p); err != nil {
		ss.log.Debug("mcp: task status not delivered", "task", t.TaskID, logx.Error, err)
	}
}

// sweepLocked forgets finished tasks whose ttl has passed.
func (st *taskStore) sweepLocked() {
	keep := st.order[:0]
	for _, id := range st.order {
		t := st.tasks[id]
		if !t.expires.IsZero() && time.Now().After(t.expires) {
			delete(st.tasks, id)
			continue
		}
		keep = append(keep, id)
	}
	st.order = keep
}

// lookup finds a task of ss; anything else is -32602.
func (st *taskStore) lookup(ss *ServerSession, id string) (*task, error) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.sweepLocked()
	t, ok := st.tasks[id]
	if !ok || t.owner != ss {
		return nil, rpc.InvalidParams(fmt.Sprintf("unknown task %q", id))
	}
	return t, nil
}

func (st *taskStore) get(ss *ServerSession, id string) (*GetTaskResult, error) {
	t, err := st.lookup(ss, id)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	s := t.state
	st.mu.Unlock()
	return &GetTaskResult{TaskID: s.TaskID, Status: s.Status, StatusMessage: s.StatusMessage, CreatedAt: s.CreatedAt,
		LastUpdatedAt: s.LastUpdatedAt, TTL: s.TTL, PollInterval: s.PollInterval}, nil
}

// result answers tasks/result: it waits for the task to end, then returns
// the call's own result (or error), tagged with the task in _meta.
func (st *taskStore) result(ctx context.Context, ss *ServerSession, id string) (*GetTaskPayloadResult, error) {
	t, err := st.lookup(ss, id)
	if err != nil {
		return nil, err
	}
	select {
	case <-t.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	st.mu.Lock()
	res, rerr, status := t.result, t.err, t.state.Status
	st.mu.Unlock()
	if status == TaskStatusCancelled {
		return nil, rpc.InvalidParams(fmt.Sprintf("task %q was cancelled", id))
	}
	if rerr != nil {
		var we *rpc.Error
		if errors.As(rerr, &we) {
			return nil, we
		}
		return nil, rpc.InternalError()
	}
	var out GetTaskPayloadResult
	if err := json.Unmarshal(rawJSON(res), &out); err != nil {
		return nil, err
	}
	if out.Meta == nil {
		out.Meta = Meta{}
	}
	out.Meta[relatedTaskKey] = rawJSON(map[string]string{"taskId": id})
	return &out, nil
}

func (st *taskStore) list(ss *ServerSession, cursor Cursor, size int) (*ListTasksResult, error) {
	st.mu.Lock()
	st.sweepLocked()
	reg := newRegistry[Task]()
	for _, id := range st.order {
		if t := st.tasks[id]; t.owner == ss {
			reg.put(id, t.state)
		}
	}
	st.mu.Unlock()
	page, next, err := reg.page(string(cursor), size)
	if err != nil {
		return nil, err
	}
	return &ListTasksResult{Tasks: page, NextCursor: Cursor(next)}, nil
}

// cancel answers tasks/cancel; a task that already ended is -32602.
func (st *taskStore) cancel(ss *ServerSession, id string) (*CancelTaskResult, error) {
	t, err := st.lookup(ss, id)
	if err != nil {
		return nil, err
	}
	st.mu.Lock()
	if t.state.Status != TaskStatusWorking && t.state.Status != TaskStatusInputRequired {
		st.mu.Unlock()
		return nil, rpc.InvalidParams(fmt.Sprintf("task %q has already ended (%s)", id, t.state.Status))
	}
	t.state.Status = TaskStatusCancelled
	t.state.StatusMessage = "cancelled by the client"
	st.endLocked(t)
	s := t.state
	st.mu.Unlock()
	st.notify(ss, s)
	return &CancelTaskResult{TaskID: s.TaskID, Status: s.Status, StatusMessage: s.StatusMessage, CreatedAt: s.CreatedAt,
		LastUpdatedAt: s.LastUpdatedAt, TTL: s.TTL, PollInterval: s.PollInterval}, nil
}

// publicMessage is what a client may see of an error: the message of a
// JSON-RPC error, a generic text otherwise.
func publicMessage(err error) string {
	var we *rpc.Error
	if errors.As(err, &we) {
		return we.Message
	}
	return "the task failed"
}
