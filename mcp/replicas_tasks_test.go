package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// taskWork is a task tool's work that the test controls: it runs until
// released or cancelled, and says where it ran and how it ended.
type taskWork struct {
	release   chan struct{}
	started   chan int // the replica running it
	cancelled chan int // the replica whose work was cancelled
}

func newTaskWork() *taskWork {
	return &taskWork{release: make(chan struct{}), started: make(chan int, 8), cancelled: make(chan int, 8)}
}

// taskCluster starts n replicas of a server with tasks and the tool
// "work", sharing a task store (and opts' other stores).
func taskCluster(t *testing.T, n int, w *taskWork, opts *mcp.HTTPOptions) *cluster {
	t.Helper()
	return loggedTaskCluster(t, n, w, opts, nil)
}

// loggedTaskCluster is taskCluster with the servers logging to log (nil:
// nowhere).
func loggedTaskCluster(t *testing.T, n int, w *taskWork, opts *mcp.HTTPOptions, log *secLog) *cluster {
	t.Helper()
	if opts == nil {
		opts = &mcp.HTTPOptions{}
	}
	if opts.Tasks == nil {
		opts.Tasks = mcp.NewMemoryTaskStore()
	}
	replica := 0
	return newCluster(t, n, func(t *testing.T) *mcp.Server {
		me := replica
		replica++
		so := &mcp.ServerOptions{Tasks: true}
		if log != nil {
			so.Logger = log.logger()
		}
		s := newServer(t, so)
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "work", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				w.started <- me
				select {
				case <-w.release:
					return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(fmt.Sprintf("done at %d", me))}}, nil
				case <-ctx.Done():
					w.cancelled <- me
					return nil, ctx.Err()
				}
			}))
		return s
	}, opts)
}

// call sends one request straight to replica i and returns its result or
// error, from a JSON or an SSE answer.
func (c *cluster) call(t *testing.T, i int, session, method string, params any) (json.RawMessage, *rpc.Error) {
	t.Helper()
	p, err := json.Marshal(params)
	require.NoError(t, err)
	w := c.post(t, i, session, fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":%q,"params":%s}`, method, p))
	require.Equal(t, http.StatusOK, w.Code, "%s at replica %d: %s", method, i, w.Body)
	body := w.Body.String()
	for line := range strings.SplitSeq(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":7`) {
			body = data
		}
	}
	var resp struct {
		Result json.RawMessage `json:"result"`
		Error  *rpc.Error      `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &resp), body)
	return resp.Result, resp.Error
}

// drain empties a channel of what earlier steps left in it.
func drain[T any](ch chan T) {
	for {
		select {
		case <-ch:
		default:
			return
		}
	}
}

// startTask starts a session at replica 0 and a task of "work" in it at
// replica at; it returns the session and the task's id.
func startTask(t *testing.T, c *cluster, w *taskWork, at int) (string, string) {
	t.Helper()
	session := c.initialize(t, 0)
	require.Equal(t, http.StatusAccepted, c.post(t, 0, session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`).Code)
	res, rerr := c.call(t, at, session, "tools/call", map[string]any{"name": "work", "task": map[string]any{"ttl": 60000}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created), string(res))
	require.NotEmpty(t, created.Task.TaskID)
	assert.Equal(t, at, receive(t, w.started), "the work runs where the task was created")
	return session, created.Task.TaskID
}

// A task created at one replica is seen, listed and awaited at the
// others, and its result is there for every replica once it ends.
func TestATaskIsServedByEveryReplica(t *testing.T) {
	w := newTaskWork()
	store := watchedTasks{mcp.NewMemoryTaskStore(), make(chan string, 1)}
	broker := &recordingBroker{topic: "mcp/tasks"}
	c := taskCluster(t, 3, w, &mcp.HTTPOptions{Tasks: store, Broker: broker})
	session, id := startTask(t, c, w, 1)

	res, rerr := c.call(t, 2, session, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"working"`)
	res, rerr = c.call(t, 0, session, "tasks/list", map[string]any{})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), id)

	type answer struct {
		res  json.RawMessage
		rerr *rpc.Error
	}
	got := make(chan answer, 1)
	drain(store.running)
	go func() {
		res, rerr := c.call(t, 2, session, "tasks/result", map[string]any{"taskId": id})
		got <- answer{res, rerr}
	}()
	assert.Equal(t, id, receive(t, store.running), "tasks/result waits while the task runs")
	close(w.release)
	a := receive(t, got)
	assert.Contains(t, broker.published(), `"kind":"ended"`, "the running replica tells the others that the task ended")
	require.Nil(t, a.rerr)
	assert.Contains(t, string(a.res), `"text":"done at 1"`)
	assert.Contains(t, string(a.res), `"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}`)
	for i := range 3 {
		res, rerr := c.call(t, i, session, "tasks/get", map[string]any{"taskId": id})
		require.Nil(t, rerr)
		assert.Contains(t, string(res), `"status":"completed"`, "at replica %d", i)
	}
	_, rerr = c.call(t, 0, session, "tasks/cancel", map[string]any{"taskId": id})
	require.NotNil(t, rerr, "an ended task cannot be cancelled, at any replica")
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

// A tasks/cancel at another replica than the one running the task stops
// the work there; every replica then reports the task cancelled.
func TestATaskCancelledAtAnotherReplicaStopsWhereItRuns(t *testing.T) {
	w := newTaskWork()
	c := taskCluster(t, 3, w, nil)
	session, id := startTask(t, c, w, 0)

	res, rerr := c.call(t, 1, session, "tasks/cancel", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"cancelled"`)
	assert.Equal(t, 0, receive(t, w.cancelled), "the work stops at the replica running it")

	_, rerr = c.call(t, 2, session, "tasks/result", map[string]any{"taskId": id})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Contains(t, rerr.Message, "cancelled")
	res, rerr = c.call(t, 0, session, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"cancelled"`, "the work's own end does not overwrite the cancellation")
}

// A tasks/result waiting at another replica returns once the task ends
// even without a broker: it looks at the store now and then.
func TestATaskResultWaitsWithoutABroker(t *testing.T) {
	w := newTaskWork()
	store := watchedTasks{mcp.NewMemoryTaskStore(), make(chan string, 1)}
	c := taskCluster(t, 2, w, &mcp.HTTPOptions{Tasks: store, Broker: silentBroker{}})
	session, id := startTask(t, c, w, 0)
	drain(store.running)
	got := make(chan *rpc.Error, 1)
	go func() {
		_, rerr := c.call(t, 1, session, "tasks/result", map[string]any{"taskId": id})
		got <- rerr
	}()
	assert.Equal(t, id, receive(t, store.running), "tasks/result waits while the task runs")
	close(w.release)
	assert.Nil(t, receive(t, got))
}

// watchedTasks tells of every Get that found a running task.
type watchedTasks struct {
	mcp.TaskStore
	running chan string // the task's id
}

func (w watchedTasks) Get(ctx context.Context, session, id string) (mcp.TaskRecord, error) {
	rec, err := w.TaskStore.Get(ctx, session, id)
	if err == nil && !rec.Ended() {
		select {
		case w.running <- id:
		default:
		}
	}
	return rec, err
}

// recordingBroker is a MemoryBroker that keeps what was published on
// one topic.
type recordingBroker struct {
	mcp.MemoryBroker
	topic string
	mu    sync.Mutex
	got   []string
}

func (b *recordingBroker) Publish(ctx context.Context, topic string, msg []byte) error {
	if topic == b.topic {
		b.mu.Lock()
		b.got = append(b.got, string(msg))
		b.mu.Unlock()
	}
	return b.MemoryBroker.Publish(ctx, topic, msg)
}

func (b *recordingBroker) published() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.got, "\n")
}

// silentBroker passes nothing on.
type silentBroker struct{}

func (silentBroker) Publish(context.Context, string, []byte) error { return nil }
func (silentBroker) Subscribe(context.Context, string, func([]byte)) (func(), error) {
	return func() {}, nil
}

// A task belongs to its session at every replica: another session's
// tasks/get, tasks/result and tasks/cancel of it are -32602, and its
// tasks/list does not show it.
func TestATaskIsItsSessionsOnlyAcrossReplicas(t *testing.T) {
	w := newTaskWork()
	c := taskCluster(t, 2, w, nil)
	_, id := startTask(t, c, w, 0)
	other := c.initialize(t, 1)
	for _, method := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		_, rerr := c.call(t, 1, other, method, map[string]any{"taskId": id})
		require.NotNil(t, rerr, method)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code, method)
	}
	res, rerr := c.call(t, 0, other, "tasks/list", map[string]any{})
	require.Nil(t, rerr)
	assert.NotContains(t, string(res), id)
}

// failingTasks is a task store that is down.
type failingTasks struct{ mcp.TaskStore }

var errTasksDown = errors.New("task store down")

func (failingTasks) Create(context.Context, mcp.TaskRecord, time.Duration) error { return errTasksDown }
func (failingTasks) Get(context.Context, string, string) (mcp.TaskRecord, error) {
	return mcp.TaskRecord{}, errTasksDown
}
func (failingTasks) List(context.Context, string) ([]mcp.TaskRecord, error) { return nil, errTasksDown }

// A task store that fails is -32603 to the client, with no detail of the
// store's error, and a task it could not record does not run.
func TestATaskStoreFailureIsAnInternalError(t *testing.T) {
	w := newTaskWork()
	log := &secLog{}
	c := newCluster(t, 1, func(t *testing.T) *mcp.Server {
		s := newServer(t, &mcp.ServerOptions{Tasks: true, Logger: log.logger()})
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "work", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				w.started <- 0
				return nil, nil
			}))
		return s
	}, &mcp.HTTPOptions{Tasks: failingTasks{}})
	session := c.initialize(t, 0)
	for _, call := range []struct {
		method string
		params map[string]any
	}{
		{"tools/call", map[string]any{"name": "work", "task": map[string]any{}}},
		{"tasks/get", map[string]any{"taskId": "t1"}},
		{"tasks/result", map[string]any{"taskId": "t1"}},
		{"tasks/list", map[string]any{}},
		{"tasks/cancel", map[string]any{"taskId": "t1"}},
	} {
		_, rerr := c.call(t, 0, session, call.method, call.params)
		require.NotNil(t, rerr, call.method)
		assert.Equal(t, rpc.CodeInternalError, rerr.Code, call.method)
		assert.NotContains(t, rerr.Error(), "down", call.method)
	}
	assert.Empty(t, w.started, "a task the store could not record does not run")
	assert.Contains(t, log.String(), "task store down")
}

// The outcome of a task whose record the store lost (it expired, or the
// store was emptied) is logged and dropped; nothing else breaks.
func TestATaskWhoseRecordIsGoneEndsQuietly(t *testing.T) {
	w := newTaskWork()
	log := &secLog{}
	store := &forgetfulTasks{TaskStore: mcp.NewMemoryTaskStore()}
	c := newCluster(t, 1, func(t *testing.T) *mcp.Server {
		s := newServer(t, &mcp.ServerOptions{Tasks: true, Logger: log.logger()})
		require.NoError(t, s.AddTool(&mcp.Tool{Name: "work", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				<-w.release
				return nil, nil
			}))
		return s
	}, &mcp.HTTPOptions{Tasks: store})
	session := c.initialize(t, 0)
	res, rerr := c.call(t, 0, session, "tools/call", map[string]any{"name": "work", "task": map[string]any{}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	store.forget()
	close(w.release)
	require.Eventually(t, func() bool { return strings.Contains(log.String(), "could not be recorded") }, 5*time.Second, 10*time.Millisecond)
	_, rerr = c.call(t, 0, session, "tasks/get", map[string]any{"taskId": created.Task.TaskID})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

// forgetfulTasks loses every record when told to.
type forgetfulTasks struct {
	mcp.TaskStore
	mu sync.Mutex
}

func (f *forgetfulTasks) forget() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.TaskStore = mcp.NewMemoryTaskStore()
}

func (f *forgetfulTasks) store() mcp.TaskStore {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.TaskStore
}

func (f *forgetfulTasks) Create(ctx context.Context, rec mcp.TaskRecord, keep time.Duration) error {
	return f.store().Create(ctx, rec, keep)
}
func (f *forgetfulTasks) Get(ctx context.Context, session, id string) (mcp.TaskRecord, error) {
	return f.store().Get(ctx, session, id)
}
func (f *forgetfulTasks) List(ctx context.Context, session string) ([]mcp.TaskRecord, error) {
	return f.store().List(ctx, session)
}
func (f *forgetfulTasks) End(ctx context.Context, rec mcp.TaskRecord, keep time.Duration) (bool, error) {
	return f.store().End(ctx, rec, keep)
}

// A session whose task's work runs at a replica is not idle there: the
// replica keeps its copy (through which the work may ask the client)
// until the work ends, then lets it go after SessionTimeout.
func TestARunningTaskKeepsItsSessionAtItsReplica(t *testing.T) {
	w := newTaskWork()
	c := taskCluster(t, 2, w, &mcp.HTTPOptions{SessionTimeout: 40 * time.Millisecond})
	startTask(t, c, w, 1)
	require.Eventually(t, func() bool { return mcp.SessionCountForTest(c.handlers[0]) == 0 }, 2*time.Second, 10*time.Millisecond,
		"the replica that runs nothing lets its copy go")
	time.Sleep(200 * time.Millisecond) // five timeouts
	assert.Equal(t, 1, mcp.SessionCountForTest(c.handlers[1]), "the replica running the task keeps its copy")
	close(w.release)
	require.Eventually(t, func() bool { return mcp.SessionCountForTest(c.handlers[1]) == 0 }, 2*time.Second, 10*time.Millisecond)
}

// deafBroker is a MemoryBroker that cannot subscribe to one topic.
type deafBroker struct {
	mcp.MemoryBroker
	topic string
}

func (b *deafBroker) Subscribe(ctx context.Context, topic string, fn func([]byte)) (func(), error) {
	if topic == b.topic {
		return nil, errors.New("subscriptions refused")
	}
	return b.MemoryBroker.Subscribe(ctx, topic, fn)
}

// A replica that cannot hear the others about tasks says so in its log
// and still serves the shared tasks from the store.
func TestATaskBrokerThatCannotSubscribeLeavesTheStore(t *testing.T) {
	w := newTaskWork()
	log := &secLog{}
	c := loggedTaskCluster(t, 2, w, &mcp.HTTPOptions{Broker: &deafBroker{topic: "mcp/tasks"}}, log)
	assert.Contains(t, log.String(), "cannot hear the other replicas about tasks")
	session, id := startTask(t, c, w, 0)
	res, rerr := c.call(t, 1, session, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"working"`)
	close(w.release)
}
