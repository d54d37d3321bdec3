package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/rpc"
)

// TaskStore keeps the records of tasks (2025-11-25's, and the 2026-07-28
// tasks extension's) where every replica of a server can read them, so that
// the tasks/* methods may land on any replica behind a load balancer, not
// only on the one running the task. The work itself runs at the replica
// that created the task; the store holds what the client may ask about it.
//
// A record is created running (working or input_required) and ended once:
// completed, failed or cancelled. While it runs, Update changes it (a task
// that waits for input, and the answers that come), one revision after the
// other; End ends it. Both are atomic, so that a cancellation and the
// work's own end, or two answers, at two replicas at once, cannot both win.
// Implementations must be safe for concurrent use.
type TaskStore interface {
	// Create stores a new running task. It is dropped after keep if it
	// never ends (its replica went away while it ran). A keep of zero or
	// less stores nothing that can be read back.
	Create(ctx context.Context, rec TaskRecord, keep time.Duration) error
	// Get returns the task id of the session; a task never created,
	// expired or of another session is an error matching ErrTaskNotFound.
	Get(ctx context.Context, session, id string) (TaskRecord, error)
	// List returns the session's tasks, oldest first (tasks created in
	// the same millisecond in a fixed order).
	List(ctx context.Context, session string) ([]TaskRecord, error)
	// Update replaces the record of a running task with rec, also
	// running, when the stored record's Revision is rec.Revision-1; the
	// record keeps the keep it had. It reports false, and changes nothing,
	// when the stored task has ended or has another revision, or rec is
	// final;
	// ErrTaskNotFound when there is none.
	Update(ctx context.Context, rec TaskRecord) (bool, error)
	// End replaces the record of a running task with rec, a final one,
	// kept for keep from now (zero or less: dropped at once). It reports false, and changes nothing, when
	// the stored task has already ended; ErrTaskNotFound when there is
	// none.
	End(ctx context.Context, rec TaskRecord, keep time.Duration) (bool, error)
}

// ErrTaskNotFound reports a task a TaskStore holds no record of for the
// session asking: never created, expired, or another session's.
var ErrTaskNotFound = errors.New("mcp: task not found")

// TaskRecord is what a TaskStore keeps of a task: its session, its state as
// tasks/get reports it, and, once ended, the call's result or error.
type TaskRecord struct {
	// Session is the owning session's id.
	Session string `json:"session"`
	// Task is the task's state.
	Task Task `json:"task"`
	// Result is the call's result of a completed task.
	Result json.RawMessage `json:"result,omitempty"`
	// Error is the call's error of a failed task.
	Error *rpc.Error `json:"error,omitempty"`
	// Input holds, while the task waits for the client's input
	// (input_required), the requests not answered yet, by key; Answers
	// the answers given so far (2026-07-28 tasks extension).
	Input   map[string]json.RawMessage `json:"input,omitempty"`
	Answers map[string]json.RawMessage `json:"answers,omitempty"`
	// Revision counts the updates of a running record (see Update).
	Revision int64 `json:"revision,omitempty"`
}

// Ended reports whether the record is final: completed, failed or
// cancelled.
func (r TaskRecord) Ended() bool {
	switch r.Task.Status {
	case TaskStatusCompleted, TaskStatusFailed, TaskStatusCancelled:
		return true
	}
	return false
}

// running reports whether the record is not final.
func (r TaskRecord) running() bool { return !r.Ended() }

// waitsForInput reports whether the task waits for the client's input.
func (r TaskRecord) waitsForInput() bool { return r.Task.Status == TaskStatusInputRequired }

// clone copies the parts of r that share memory, so that a store's caller
// and the store never hold the same bytes.
func (r TaskRecord) clone() TaskRecord {
	r.Task = cloneTask(r.Task)
	r.Result = append(json.RawMessage(nil), r.Result...)
	if r.Result != nil && len(r.Result) == 0 {
		r.Result = nil
	}
	r.Input, r.Answers = cloneRaws(r.Input), cloneRaws(r.Answers)
	if r.Error != nil {
		e := *r.Error
		e.Data = append(json.RawMessage(nil), e.Data...)
		if len(e.Data) == 0 {
			e.Data = nil
		}
		r.Error = &e
	}
	return r
}

// cloneRaws copies a map of JSON values; nil stays nil.
func cloneRaws(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = append(json.RawMessage(nil), v...)
	}
	return out
}

func cloneTask(t Task) Task {
	if t.Extra != nil {
		extra := make(map[string]json.RawMessage, len(t.Extra))
		for k, v := range t.Extra {
			extra[k] = append(json.RawMessage(nil), v...)
		}
		t.Extra = extra
	}
	if t.TTL != nil {
		v := *t.TTL
		t.TTL = &v
	}
	if t.PollInterval != nil {
		v := *t.PollInterval
		t.PollInterval = &v
	}
	return t
}

// MemoryTaskStore is a TaskStore in process memory: the default, holding
// one process's tasks, or, shared by several servers, those of replicas in
// one process (tests). The zero value is not usable; call
// NewMemoryTaskStore.
type MemoryTaskStore struct {
	mu        sync.Mutex
	tasks     map[taskKey]*memoryTask
	order     map[string][]string // session → task ids, oldest first
	nextSweep time.Time
}

type taskKey struct{ session, id string }

type memoryTask struct {
	rec     TaskRecord
	expires time.Time
}

// NewMemoryTaskStore returns an empty MemoryTaskStore.
func NewMemoryTaskStore() *MemoryTaskStore {
	return &MemoryTaskStore{tasks: map[taskKey]*memoryTask{}, order: map[string][]string{}}
}

// Create stores a copy of rec.
func (m *MemoryTaskStore) Create(_ context.Context, rec TaskRecord, keep time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	k := taskKey{rec.Session, rec.Task.TaskID}
	if _, ok := m.live(k); !ok {
		ids := slices.DeleteFunc(m.order[rec.Session], func(id string) bool { return id == k.id })
		m.order[rec.Session] = append(ids, k.id)
	}
	m.tasks[k] = &memoryTask{rec: rec.clone(), expires: time.Now().Add(keep)}
	return nil
}

// Get returns a copy of the record.
func (m *MemoryTaskStore) Get(_ context.Context, session, id string) (TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.live(taskKey{session, id})
	if !ok {
		return TaskRecord{}, ErrTaskNotFound
	}
	return t.rec.clone(), nil
}

// List returns copies of the session's records.
func (m *MemoryTaskStore) List(_ context.Context, session string) ([]TaskRecord, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := m.order[session]
	out := make([]TaskRecord, 0, len(ids))
	keep := ids[:0]
	for _, id := range ids {
		if t, ok := m.live(taskKey{session, id}); ok {
			out = append(out, t.rec.clone())
			keep = append(keep, id)
		}
	}
	m.setOrderLocked(session, keep)
	return out, nil
}

// Update changes a running task.
func (m *MemoryTaskStore) Update(_ context.Context, rec TaskRecord) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.live(taskKey{rec.Session, rec.Task.TaskID})
	if !ok {
		return false, ErrTaskNotFound
	}
	if t.rec.Ended() || rec.Ended() || t.rec.Revision != rec.Revision-1 {
		return false, nil
	}
	t.rec = rec.clone()
	return true, nil
}

// End ends a running task.
func (m *MemoryTaskStore) End(_ context.Context, rec TaskRecord, keep time.Duration) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.live(taskKey{rec.Session, rec.Task.TaskID})
	if !ok {
		return false, ErrTaskNotFound
	}
	if t.rec.Ended() {
		return false, nil
	}
	t.rec, t.expires = rec.clone(), time.Now().Add(keep)
	return true, nil
}

// live returns the task under k unless it has expired (and then drops it).
func (m *MemoryTaskStore) live(k taskKey) (*memoryTask, bool) {
	t, ok := m.tasks[k]
	if ok && !time.Now().Before(t.expires) {
		delete(m.tasks, k)
		return nil, false
	}
	return t, ok
}

func (m *MemoryTaskStore) setOrderLocked(session string, ids []string) {
	if len(ids) == 0 {
		delete(m.order, session)
		return
	}
	m.order[session] = ids
}

// sweepLocked drops expired tasks, at most once a minute, so that tasks
// nobody asks about again do not accumulate.
func (m *MemoryTaskStore) sweepLocked() {
	now := time.Now()
	if now.Before(m.nextSweep) {
		return
	}
	m.nextSweep = now.Add(time.Minute)
	for session, ids := range m.order {
		keep := ids[:0]
		for _, id := range ids {
			if _, ok := m.live(taskKey{session, id}); ok {
				keep = append(keep, id)
			}
		}
		m.setOrderLocked(session, keep)
	}
}
