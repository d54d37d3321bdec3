package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/internal/stackroom"
	"github.com/schemarpc/schemarpc/rpc"
)

// Task defaults: how long a finished task is kept when the client names no
// ttl, the longest ttl granted, the poll interval suggested, and how long
// the record of a task that never ends is kept (its replica went away).
const (
	defaultTaskTTL = time.Hour
	minTaskTTL     = time.Second
	maxTaskTTL     = 24 * time.Hour
	taskPollMillis = 500
	runningTaskTTL = 24 * time.Hour
)

// taskWaitPoll is how often tasks/result looks at the store while the task
// runs at another replica, in case the word that it ended was lost.
const taskWaitPoll = time.Second

// relatedTaskKey is the _meta key that ties a message to a task.
const relatedTaskKey = "io.modelcontextprotocol/related-task"

// taskRunner is the one task engine of both eras: it runs the tasks of
// 2025-11-25 task-augmented calls and of 2026-07-28 calls under the tasks
// extension, and answers the tasks/* methods of each from a TaskStore. A
// task belongs to the client that created it (a taskClient: a session, or
// the principal of stateless requests); no other can see it. The work runs
// here; the record in the store is what every replica answers from. With
// replicas, signal tells the others that a task ended (for their
// tasks/result waits), is to be cancelled (for the replica running it) or
// has all the input it waited for (for the replica running it); without, it
// is nil and this process is the only one.
type taskRunner struct {
	store  TaskStore
	signal func(taskSignal) // nil: no other replicas

	mu      sync.Mutex
	running map[taskKey]context.CancelFunc         // tasks whose work runs here
	busy    map[string]int                         // owner → its tasks whose work runs here
	waiters map[taskKey]map[chan struct{}]struct{} // closed when the task ends or resumes
}

// taskClient is who a task belongs to, as the engine sees it: a handshake
// session, or the principal of stateless requests.
type taskClient interface {
	// taskOwner names the owner in the task store.
	taskOwner() string
	// taskLogger is where the engine logs about the owner's tasks.
	taskLogger() *slog.Logger
	// taskContext is the context a task's work starts from.
	taskContext() context.Context
	// taskChanged tells the client, as best it can, of a task's new state.
	taskChanged(Task)
}

// taskSignal is what replicas tell each other about a task.
type taskSignal struct {
	From    string `json:"from"`
	Kind    string `json:"kind"` // taskEnded, taskCancel or taskResumed
	Session string `json:"session"`
	Task    string `json:"task"`
}

const (
	taskEnded   = "ended"   // the task's record is final
	taskCancel  = "cancel"  // the task was cancelled: stop its work
	taskResumed = "resumed" // the task has the input it waited for
)

func newTaskRunner(store TaskStore) *taskRunner {
	return &taskRunner{store: store, busy: map[string]int{}, running: map[taskKey]context.CancelFunc{},
		waiters: map[taskKey]map[chan struct{}]struct{}{}}
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// storeContext bounds a store call made for a request.
func storeContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, storeTimeout)
}

// storeFailed logs a store failure and returns what the client gets.
func (r *taskRunner) storeFailed(tc taskClient, id string, err error) error {
	if errors.Is(err, ErrTaskNotFound) {
		return rpc.InvalidParams(fmt.Sprintf("unknown task %q", id))
	}
	tc.taskLogger().Warn("mcp: the task store failed", "task", id, logx.Error, err)
	return &rpc.Error{Code: rpc.CodeInternalError, Message: "the task store is unavailable"}
}

// start records a new task of tc and runs fn in the background; it returns
// the task's first state only once the record is stored, so that a tasks/get
// right after the answer finds it.
func (r *taskRunner) start(ctx context.Context, tc taskClient, meta *TaskMetadata, fn func(ctx context.Context) (any, error)) (Task, error) {
	ttl := defaultTaskTTL
	if meta != nil && meta.TTL != nil && *meta.TTL >= 0 {
		ttl = min(max(time.Duration(*meta.TTL)*time.Millisecond, minTaskTTL), maxTaskTTL)
	}
	ms, poll := ttl.Milliseconds(), int64(taskPollMillis)
	first := Task{TaskID: rand.Text(), Status: TaskStatusWorking, CreatedAt: now(), TTL: &ms, PollInterval: &poll}
	first.LastUpdatedAt = first.CreatedAt
	k := taskKey{tc.taskOwner(), first.TaskID}
	sctx, cancelStore := storeContext(ctx)
	err := r.store.Create(sctx, TaskRecord{Session: k.session, Task: first}, runningTaskTTL)
	cancelStore()
	if err != nil {
		return Task{}, r.storeFailed(tc, first.TaskID, err)
	}
	wctx, cancel := context.WithCancel(context.WithValue(tc.taskContext(), taskKeyOfWork{}, k))
	r.mu.Lock()
	r.running[k] = cancel
	r.busy[k.session]++
	r.mu.Unlock()
	go func() {
		stackroom.Reserve()
		res, err := runTask(wctx, tc, first.TaskID, fn)
		r.finish(tc, k, first, ttl, res, err)
	}()
	return first, nil
}

// runTask runs a task's work. A panic fails the task with -32603, as it
// would fail a request: the client sees no panic value, the log gets it
// with the stack, and the process goes on (the work runs on a goroutine of
// its own, where nothing else would recover it).
func runTask(ctx context.Context, tc taskClient, id string, fn func(ctx context.Context) (any, error)) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			tc.taskLogger().Error("mcp: a task panicked", "task", id, logx.Code, rpc.CodeInternalError, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			res, err = nil, rpc.InternalError()
		}
	}()
	return fn(ctx)
}

// finish records the outcome of a task's work, unless the task was
// cancelled first (then the record already says so and the outcome is
// dropped).
func (r *taskRunner) finish(tc taskClient, k taskKey, t Task, ttl time.Duration, res any, err error) {
	r.mu.Lock()
	cancel := r.running[k]
	delete(r.running, k)
	if r.busy[k.session]--; r.busy[k.session] <= 0 {
		delete(r.busy, k.session)
	}
	r.mu.Unlock()
	defer cancel()
	rec := TaskRecord{Session: k.session, Task: t}
	rec.Task.Status = TaskStatusCompleted
	if err == nil {
		if rec.Result, err = json.Marshal(res); err != nil {
			err = rpc.InternalError()
		}
	}
	if err != nil {
		// What is stored is kept, and answered, as long as the task
		// lives: its echoes of the client's input are bounded first.
		err = rpc.BoundError(err)
		rec.Result = nil
		rec.Task.Status = TaskStatusFailed
		rec.Task.StatusMessage = publicMessage(err)
		var we *rpc.Error
		if !errors.As(err, &we) {
			we = rpc.InternalError()
		}
		rec.Error = we
	}
	rec.Task.LastUpdatedAt = now()
	ctx, cancelStore := storeContext(context.Background())
	ended, serr := r.store.End(ctx, rec, ttl)
	cancelStore()
	switch {
	case serr != nil:
		tc.taskLogger().Warn("mcp: a task's outcome could not be recorded", "task", k.id, logx.Error, serr)
	case ended:
		r.ended(k)
		tc.taskChanged(rec.Task)
	}
}

// working reports whether work of the owner's tasks runs here.
func (r *taskRunner) working(session string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busy[session] > 0
}

// ended wakes the tasks/result calls waiting here for k and tells the
// other replicas.
func (r *taskRunner) ended(k taskKey) {
	r.wake(k)
	if r.signal != nil {
		r.signal(taskSignal{Kind: taskEnded, Session: k.session, Task: k.id})
	}
}

// wake wakes the tasks/result calls waiting here for k.
func (r *taskRunner) wake(k taskKey) {
	r.mu.Lock()
	chans := r.waiters[k]
	delete(r.waiters, k)
	r.mu.Unlock()
	for ch := range chans {
		close(ch)
	}
}

// heard acts on what another replica said about a task.
func (r *taskRunner) heard(sig taskSignal) {
	k := taskKey{sig.Session, sig.Task}
	switch sig.Kind {
	case taskEnded, taskResumed:
		r.wake(k)
	case taskCancel:
		r.mu.Lock()
		cancel := r.running[k]
		r.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		r.wake(k)
	}
}

// notifyTask sends notifications/tasks/status to a session.
func notifyTask(ss *ServerSession, t Task) {
	p := &TaskStatusNotificationParams{TaskID: t.TaskID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTL: t.TTL, PollInterval: t.PollInterval}
	if err := ss.conn.Notify(context.Background(), "notifications/tasks/status", p); err != nil {
		ss.log.Debug("mcp: task status not delivered", "task", t.TaskID, logx.Error, err)
	}
}

// lookup reads a task of tc from the store.
func (r *taskRunner) lookup(ctx context.Context, tc taskClient, id string) (TaskRecord, error) {
	ctx, cancel := storeContext(ctx)
	defer cancel()
	rec, err := r.store.Get(ctx, tc.taskOwner(), id)
	if err != nil {
		return TaskRecord{}, r.storeFailed(tc, id, err)
	}
	return rec, nil
}

func (r *taskRunner) get(ctx context.Context, tc taskClient, id string) (*GetTaskResult, error) {
	rec, err := r.lookup(ctx, tc, id)
	if err != nil {
		return nil, err
	}
	s := rec.Task
	return &GetTaskResult{TaskID: s.TaskID, Status: s.Status, StatusMessage: s.StatusMessage, CreatedAt: s.CreatedAt,
		LastUpdatedAt: s.LastUpdatedAt, TTL: s.TTL, PollInterval: s.PollInterval}, nil
}

// result answers tasks/result: it waits for the task to end, then returns
// the call's own result (or error), tagged with the task in _meta. The
// wait ends early when this replica or another says the task ended, and
// looks at the store every taskWaitPoll meanwhile in case that word was
// lost.
func (r *taskRunner) result(ctx context.Context, tc taskClient, id string) (*GetTaskPayloadResult, error) {
	k := taskKey{tc.taskOwner(), id}
	for {
		rec, done, err := r.await(ctx, tc, k, TaskRecord.running)
		if err != nil || rec.Ended() {
			if err != nil {
				return nil, err
			}
			return payload(rec)
		}
		if err := done(); err != nil {
			return nil, err
		}
	}
}

// await reads the task k and, while waiting says it is still to be waited
// for, returns done, which waits until word comes that it changed (wake)
// or taskWaitPoll has passed.
func (r *taskRunner) await(ctx context.Context, tc taskClient, k taskKey, waiting func(TaskRecord) bool) (TaskRecord, func() error, error) {
	ch := make(chan struct{})
	r.mu.Lock()
	if r.waiters[k] == nil {
		r.waiters[k] = map[chan struct{}]struct{}{}
	}
	r.waiters[k][ch] = struct{}{}
	r.mu.Unlock()
	release := func() {
		r.mu.Lock()
		if w := r.waiters[k]; w != nil {
			delete(w, ch)
			if len(w) == 0 {
				delete(r.waiters, k)
			}
		}
		r.mu.Unlock()
	}
	rec, err := r.lookup(ctx, tc, k.id)
	if err != nil || !waiting(rec) {
		release()
		return rec, nil, err
	}
	return rec, func() error {
		defer release()
		t := time.NewTimer(taskWaitPoll)
		defer t.Stop()
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}, nil
}

// payload is tasks/result's answer from an ended task's record.
func payload(rec TaskRecord) (*GetTaskPayloadResult, error) {
	id := rec.Task.TaskID
	switch {
	case rec.Task.Status == TaskStatusCancelled:
		return nil, rpc.InvalidParams(fmt.Sprintf("task %q was cancelled", id))
	case rec.Error != nil:
		return nil, rec.Error
	}
	var out GetTaskPayloadResult
	if err := json.Unmarshal(rec.Result, &out); err != nil {
		return nil, rpc.InternalError()
	}
	if out.Meta == nil {
		out.Meta = Meta{}
	}
	out.Meta[relatedTaskKey] = rawJSON(map[string]string{"taskId": id})
	return &out, nil
}

func (r *taskRunner) list(ctx context.Context, tc taskClient, cursor Cursor, size int) (*ListTasksResult, error) {
	sctx, cancel := storeContext(ctx)
	recs, err := r.store.List(sctx, tc.taskOwner())
	cancel()
	if err != nil {
		return nil, r.storeFailed(tc, "", err)
	}
	reg := newRegistry[Task]()
	for _, rec := range recs {
		reg.put(rec.Task.TaskID, rec.Task)
	}
	page, next, err := reg.page(string(cursor), size)
	if err != nil {
		return nil, err
	}
	return &ListTasksResult{Tasks: page, NextCursor: Cursor(next)}, nil
}

// cancel answers 2025-11-25's tasks/cancel: the record becomes
// cancelled, and the work stops, here or at the replica running it. A task
// that already ended is -32602.
func (r *taskRunner) cancel(ctx context.Context, tc taskClient, id string) (*CancelTaskResult, error) {
	rec, err := r.stop(ctx, tc, id)
	if errors.Is(err, errTaskEnded) {
		return nil, rpc.InvalidParams(fmt.Sprintf("task %q has already ended (%s)", id, rec.Task.Status))
	}
	if err != nil {
		return nil, err
	}
	s := rec.Task
	return &CancelTaskResult{TaskID: s.TaskID, Status: s.Status, StatusMessage: s.StatusMessage, CreatedAt: s.CreatedAt,
		LastUpdatedAt: s.LastUpdatedAt, TTL: s.TTL, PollInterval: s.PollInterval}, nil
}

// errTaskEnded reports a cancellation that came after the task ended.
var errTaskEnded = errors.New("mcp: the task has already ended")

// stop cancels a running task of tc: its record becomes cancelled, and its
// work stops, here or at the replica running it. A task that already
// ended is errTaskEnded, with its record.
func (r *taskRunner) stop(ctx context.Context, tc taskClient, id string) (TaskRecord, error) {
	rec, err := r.lookup(ctx, tc, id)
	if err != nil {
		return rec, err
	}
	if rec.Ended() {
		return rec, errTaskEnded
	}
	rec.Task.Status = TaskStatusCancelled
	rec.Task.StatusMessage = "cancelled by the client"
	rec.Input, rec.Answers = nil, nil
	rec.Task.LastUpdatedAt = now()
	ttl := defaultTaskTTL
	if rec.Task.TTL != nil {
		ttl = time.Duration(*rec.Task.TTL) * time.Millisecond
	}
	sctx, cancelStore := storeContext(ctx)
	ok, err := r.store.End(sctx, rec, ttl)
	cancelStore()
	if err != nil {
		return rec, r.storeFailed(tc, id, err)
	}
	if !ok {
		return rec, errTaskEnded
	}
	k := taskKey{rec.Session, id}
	r.mu.Lock()
	stop := r.running[k]
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
	r.wake(k)
	if r.signal != nil {
		r.signal(taskSignal{Kind: taskCancel, Session: k.session, Task: id})
	}
	tc.taskChanged(rec.Task)
	return rec, nil
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
