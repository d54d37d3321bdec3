package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks): stateless calls
// of tools that support tasks become tasks, followed with tasks/get, tasks/update
// and tasks/cancel.

// tasksCaps declares the tasks extension and form elicitation.
const tasksCaps = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// taskTools is a server with tasks enabled and the tools the tests call:
// "gated" (optional) works until its gate is closed or it is cancelled, and
// reports its cancellation on cancelled; "only" (required) answers at once;
// "ask" (optional) asks two questions in one round; "name" (required, input
// before the task) asks a name in the request; "boom" (optional) fails with
// a protocol error; "sync" is never a task.
type taskTools struct {
	s         *mcp.Server
	gate      chan struct{}
	cancelled chan struct{}
}

func newTaskTools(t *testing.T) *taskTools {
	t.Helper()
	tt := &taskTools{gate: make(chan struct{}), cancelled: make(chan struct{}, 1)}
	tt.s = mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{Tasks: true})
	support := func(m mcp.ToolExecutionTaskSupport) *mcp.ToolExecution { return &mcp.ToolExecution{TaskSupport: m} }
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(s)}}
	}
	add := func(tool *mcp.Tool, h mcp.ToolHandler, opts ...mcp.RegisterOption) {
		require.NoError(t, tt.s.AddTool(tool, h, opts...))
	}
	add(&mcp.Tool{Name: "gated", Execution: support(mcp.ToolExecutionTaskSupportOptional)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-tt.gate:
				return text("done"), nil
			case <-ctx.Done():
				tt.cancelled <- struct{}{}
				return nil, ctx.Err()
			}
		})
	add(&mcp.Tool{Name: "only", Execution: support(mcp.ToolExecutionTaskSupportRequired)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New("the tool failed")
		})
	add(&mcp.Tool{Name: "ask", Execution: support(mcp.ToolExecutionTaskSupportOptional)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, okA := req.Elicited("a")
			b, okB := req.Elicited("b")
			if !okA || !okB {
				form := json.RawMessage(`{"type":"object","properties":{"v":{"type":"string"}}}`)
				return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
					"a": mcp.FormInput("A?", form), "b": mcp.FormInput("B?", form)}}
			}
			return text(string(a.Action) + "/" + string(b.Action)), nil
		})
	add(&mcp.Tool{Name: "name", Execution: support(mcp.ToolExecutionTaskSupportRequired)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if _, ok := req.Elicited("who"); !ok {
				return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
					"who": mcp.FormInput("Name?", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`))}}
			}
			raw, _ := req.InputResponse("who")
			return text("answered " + string(raw)), nil
		}, mcp.WithInputBeforeTask())
	add(&mcp.Tool{Name: "twice", Execution: support(mcp.ToolExecutionTaskSupportOptional)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			form := json.RawMessage(`{"type":"object","properties":{"v":{"type":"string"}}}`)
			var got []string
			for _, q := range []string{"First?", "Second?"} {
				res, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{Message: q, RequestedSchema: form}})
				if err != nil {
					return nil, err
				}
				v, err := json.Marshal(res.Content["v"])
				if err != nil {
					return nil, err
				}
				got = append(got, string(v))
			}
			return text(strings.Join(got, "+")), nil
		})
	add(&mcp.Tool{Name: "boom", Execution: support(mcp.ToolExecutionTaskSupportOptional)},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &rpc.Error{Code: rpc.CodeInternalError, Message: "it broke"}
		})
	add(&mcp.Tool{Name: "sync"},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("now"), nil
		})
	return tt
}

// taskCall is a stateless request declaring caps.
func taskCall(t *testing.T, c *client, caps, method string, params map[string]any) (map[string]any, *rpc.Error) {
	t.Helper()
	raw, rerr := c.call(t, method, statelessParams(params, caps, nil))
	if rerr != nil {
		return nil, rerr
	}
	return decodeMap(t, raw), nil
}

// waitTask polls tasks/get until the task's status is one of want.
func waitTask(t *testing.T, c *client, id string, want ...string) map[string]any {
	t.Helper()
	var last map[string]any
	require.Eventually(t, func() bool {
		got, rerr := taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": id})
		require.Nil(t, rerr)
		last = got
		for _, w := range want {
			if got["status"] == w {
				return true
			}
		}
		return false
	}, 10*time.Second, 5*time.Millisecond, "task %s never reached %v", id, want)
	return last
}

func keys(m any) []string {
	mm, _ := m.(map[string]any)
	out := make([]string, 0, len(mm))
	for k := range mm {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func TestDiscoverAdvertisesTheTasksExtensionWhenTasksAreEnabled(t *testing.T) {
	on := newTaskTools(t)
	res, rerr := taskCall(t, dialStateless(t, on.s), "", "server/discover", nil)
	require.Nil(t, rerr)
	caps := res["capabilities"].(map[string]any)
	assert.Equal(t, map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}, caps["extensions"])
	assert.NotContains(t, caps, "tasks", "the 2025-11-25 capability has no place in the stateless era")

	off := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, off)
	res, rerr = taskCall(t, dialStateless(t, off), "", "server/discover", nil)
	require.Nil(t, rerr)
	assert.NotContains(t, res["capabilities"], "extensions")
}

func TestAStatelessCallUnderTheTasksExtensionBecomesATask(t *testing.T) {
	tt := newTaskTools(t)
	c := dialStateless(t, tt.s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "gated"})
	require.Nil(t, rerr)
	assert.Equal(t, "task", created["resultType"])
	assert.Equal(t, "working", created["status"])
	assert.EqualValues(t, time.Hour.Milliseconds(), created["ttlMs"])
	assert.EqualValues(t, 500, created["pollIntervalMs"])
	for _, absent := range []string{"task", "ttl", "pollInterval", "result", "error", "inputRequests", "requestState"} {
		assert.NotContains(t, created, absent)
	}
	id := created["taskId"].(string)

	got := waitTask(t, c, id, "working")
	assert.Equal(t, "complete", got["resultType"])
	assert.NotContains(t, got, "result")
	close(tt.gate)
	got = waitTask(t, c, id, "completed")
	assert.Equal(t, map[string]any{"resultType": "complete", "content": []any{map[string]any{"type": "text", "text": "done"}}}, got["result"])
}

func TestAStatelessCallWithoutTheExtensionRunsInTheRequest(t *testing.T) {
	tt := newTaskTools(t)
	close(tt.gate)
	c := dialStateless(t, tt.s)
	res, rerr := taskCall(t, c, `{}`, "tools/call", map[string]any{"name": "gated"})
	require.Nil(t, rerr)
	assert.Equal(t, "complete", res["resultType"])
	assert.NotContains(t, res, "taskId")

	res, rerr = taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "sync", "task": map[string]any{"ttl": 1000}})
	require.Nil(t, rerr, "a 2025-11-25 task member is tolerated")
	assert.Equal(t, "complete", res["resultType"], "a tool without task support is never a task")
}

func TestATaskOnlyToolWithoutTheExtensionIsMissingCapability(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	_, rerr := taskCall(t, c, `{}`, "tools/call", map[string]any{"name": "only"})
	require.NotNil(t, rerr)
	assert.Equal(t, mcp.CodeMissingCapability, rerr.Code)
	assert.Equal(t, map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{"io.modelcontextprotocol/tasks": map[string]any{}}}},
		errData(t, rerr))
}

func TestTasksMethodsNeedTheExtensionAndTheRemovedOnesAreNotFound(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	for _, m := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		_, rerr := taskCall(t, c, `{}`, m, map[string]any{"taskId": "x", "inputResponses": map[string]any{}})
		require.NotNil(t, rerr, m)
		assert.Equal(t, mcp.CodeMissingCapability, rerr.Code, m)
	}
	for _, m := range []string{"tasks/result", "tasks/list"} {
		_, rerr := taskCall(t, c, tasksCaps, m, map[string]any{"taskId": "x"})
		require.NotNil(t, rerr, m)
		assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code, m)
	}
}

func TestTasksMethodsAreNotFoundWhenTasksAreDisabled(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, nil)
	echoTool(t, s)
	_, rerr := taskCall(t, dialStateless(t, s), tasksCaps, "tasks/get", map[string]any{"taskId": "x"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
}

func TestTasksMethodsRefuseBadParamsAndUnknownTasks(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	cases := []struct {
		method string
		params map[string]any
	}{
		{"tasks/get", map[string]any{}},
		{"tasks/get", map[string]any{"taskId": 7}},
		{"tasks/get", map[string]any{"taskId": "nope"}},
		{"tasks/cancel", map[string]any{"taskId": "nope"}},
		{"tasks/update", map[string]any{"taskId": "nope", "inputResponses": map[string]any{}}},
		{"tasks/update", map[string]any{"taskId": "nope"}},
		{"tasks/update", map[string]any{"taskId": "nope", "inputResponses": []any{}}},
	}
	for _, tc := range cases {
		_, rerr := taskCall(t, c, tasksCaps, tc.method, tc.params)
		require.NotNil(t, rerr, "%s %v", tc.method, tc.params)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code, "%s %v", tc.method, tc.params)
	}
}

func TestCancellingAStatelessTaskStopsItsWorkAndIsIdempotent(t *testing.T) {
	tt := newTaskTools(t)
	c := dialStateless(t, tt.s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "gated"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	for range 2 {
		ack, rerr := taskCall(t, c, tasksCaps, "tasks/cancel", map[string]any{"taskId": id})
		require.Nil(t, rerr)
		assert.Equal(t, "complete", ack["resultType"])
		for _, absent := range []string{"taskId", "status", "result", "error", "inputRequests"} {
			assert.NotContains(t, ack, absent)
		}
	}
	select {
	case <-tt.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the task's work was not cancelled")
	}
	got := waitTask(t, c, id, "cancelled")
	assert.NotContains(t, got, "result")
}

func TestToolErrorsCompleteAndProtocolErrorsFailATask(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "only"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "completed", "failed")
	assert.Equal(t, "completed", got["status"])
	assert.Equal(t, true, got["result"].(map[string]any)["isError"])

	created, rerr = taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "boom"})
	require.Nil(t, rerr)
	got = waitTask(t, c, created["taskId"].(string), "completed", "failed")
	assert.Equal(t, "failed", got["status"])
	assert.Equal(t, map[string]any{"code": float64(rpc.CodeInternalError), "message": "it broke"}, got["error"])
	assert.NotContains(t, got, "result")
}

func TestATaskAsksForInputAndTakesItAnswersOneAtATime(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "ask"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	got := waitTask(t, c, id, "input_required")
	require.Equal(t, []string{"a", "b"}, keys(got["inputRequests"]))
	assert.Equal(t, "elicitation/create", got["inputRequests"].(map[string]any)["a"].(map[string]any)["method"])

	update := func(answers map[string]any) {
		t.Helper()
		ack, rerr := taskCall(t, c, tasksCaps, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers})
		require.Nil(t, rerr)
		assert.Equal(t, "complete", ack["resultType"])
		assert.NotContains(t, ack, "status")
	}
	update(map[string]any{"a": map[string]any{"action": "accept", "content": map[string]any{"v": "1"}}, "stray": map[string]any{"x": 1}})
	got, rerr = taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Equal(t, "input_required", got["status"], "one answer is still missing")
	assert.Equal(t, []string{"b"}, keys(got["inputRequests"]))

	update(map[string]any{"b": map[string]any{"action": "decline"}})
	got = waitTask(t, c, id, "completed")
	assert.Equal(t, "accept/decline", got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
}

// A handler that asks through its Request (req.Elicit) inside a task gets
// each answer at its own step: the task waits for the first question, then
// for the second, and the handler sees both answers.
func TestATaskWhoseHandlerAsksThroughItsRequestTakesAnAnswerPerStep(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "twice"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	for i, want := range []string{"First?", "Second?"} {
		got := waitTask(t, c, id, "input_required")
		reqs, _ := got["inputRequests"].(map[string]any)
		require.Len(t, reqs, 1, "round %d asks one question", i+1)
		for key, q := range reqs {
			assert.Equal(t, want, q.(map[string]any)["params"].(map[string]any)["message"])
			_, rerr := taskCall(t, c, tasksCaps, "tasks/update", map[string]any{"taskId": id,
				"inputResponses": map[string]any{key: map[string]any{"action": "accept", "content": map[string]any{"v": fmt.Sprint(i + 1)}}}})
			require.Nil(t, rerr)
		}
		if i == 0 {
			require.Eventually(t, func() bool {
				got, rerr := taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": id})
				require.Nil(t, rerr)
				reqs, _ := got["inputRequests"].(map[string]any)
				for _, q := range reqs {
					if q.(map[string]any)["params"].(map[string]any)["message"] == "Second?" {
						return true
					}
				}
				return got["status"] == "completed" || got["status"] == "failed"
			}, 10*time.Second, 5*time.Millisecond, "the second question was never asked")
		}
	}
	got := waitTask(t, c, id, "completed", "failed")
	require.Equal(t, "completed", got["status"], "task: %v", got)
	assert.Equal(t, `"1"+"2"`, got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
}

func TestATaskThatNeedsAnUndeclaredCapabilityFails(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, "tools/call", map[string]any{"name": "ask"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "failed")
	assert.EqualValues(t, mcp.CodeMissingCapability, got["error"].(map[string]any)["code"])
}

func TestInputBeforeTaskAsksInTheRequestThenBecomesATask(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	first, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "name"})
	require.Nil(t, rerr)
	assert.Equal(t, "input_required", first["resultType"])
	assert.NotContains(t, first, "taskId")

	retry := map[string]any{"name": "name", "inputResponses": map[string]any{"who": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}}}
	if st, ok := first["requestState"]; ok {
		retry["requestState"] = st
	}
	second, rerr := taskCall(t, c, tasksCaps, "tools/call", retry)
	require.Nil(t, rerr)
	assert.Equal(t, "task", second["resultType"])
	assert.NotContains(t, second, "requestState")
	got := waitTask(t, c, second["taskId"].(string), "completed")
	assert.Contains(t, got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"], "Alice")
}

func TestStatelessTaskStatusReachesAListenThatDeclaresTheExtension(t *testing.T) {
	tt := newTaskTools(t)
	c := dialStateless(t, tt.s)
	t.Cleanup(tt.s.CloseSubscriptions) // ends the listen before the server stops
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		var res json.RawMessage
		_ = c.conn.Call(ctx, "subscriptions/listen", statelessParams(map[string]any{"notifications": map[string]any{}}, tasksCaps, nil), &res)
	}()
	c.note(t, "notifications/subscriptions/acknowledged")

	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "gated"})
	require.Nil(t, rerr)
	close(tt.gate)
	n := c.note(t, "notifications/tasks")
	var p map[string]any
	require.NoError(t, json.Unmarshal(n.Params, &p))
	assert.Equal(t, created["taskId"], p["taskId"])
	assert.Equal(t, "completed", p["status"])
	assert.NotEmpty(t, p["_meta"].(map[string]any)["io.modelcontextprotocol/subscriptionId"])
}

func TestTasksOverStreamableHTTP(t *testing.T) {
	tt := newTaskTools(t)
	f := newServerFixture(t, tt.s, nil)
	post := func(method, name string, params map[string]any, caps string, extra ...string) (int, message) {
		t.Helper()
		resp := f.post("", statelessBodyCaps(t, 1, method, params, caps, nil), mirrored(method, name, extra...)...)
		return resp.StatusCode, answer(t, resp)
	}
	status, m := post("tools/call", "gated", map[string]any{"name": "gated"}, tasksCaps)
	require.Equal(t, http.StatusOK, status)
	require.Equal(t, "task", m.Result["resultType"], "%+v", m)
	id := m.Result["taskId"].(string)

	status, m = post("tasks/get", id, map[string]any{"taskId": id}, tasksCaps)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, id, m.Result["taskId"])

	status, m = post("tasks/get", "another", map[string]any{"taskId": id}, tasksCaps)
	assert.Equal(t, http.StatusBadRequest, status)
	require.NotNil(t, m.Error)
	assert.Equal(t, mcp.CodeHeaderMismatch, m.Error.Code, "Mcp-Name must be the taskId")

	status, m = post("tasks/cancel", id, map[string]any{"taskId": id}, `{}`)
	assert.Equal(t, http.StatusBadRequest, status)
	require.NotNil(t, m.Error)
	assert.Equal(t, mcp.CodeMissingCapability, m.Error.Code)

	status, m = post("tasks/cancel", id, map[string]any{"taskId": id}, tasksCaps)
	require.Equal(t, http.StatusOK, status)
	assert.Equal(t, "complete", m.Result["resultType"])
	select {
	case <-tt.cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the task's work was not cancelled")
	}
}

// statelessAt sends a stateless request declaring the tasks extension
// straight to replica i and returns its result.
func statelessAt(t *testing.T, c *cluster, i int, method, name string, params map[string]any) map[string]any {
	t.Helper()
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", strings.NewReader(statelessBodyCaps(t, 7, method, params, tasksCaps, nil)))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range hdrs(mirrored(method, name)) {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	c.handlers[i].ServeHTTP(w, r)
	require.Equal(t, http.StatusOK, w.Code, "%s at replica %d: %s", method, i, w.Body)
	body := w.Body.String()
	for line := range strings.SplitSeq(body, "\n") {
		if data, ok := strings.CutPrefix(line, "data: "); ok && strings.Contains(data, `"id":7`) {
			body = data
		}
	}
	m := decode(t, body)
	require.Nil(t, m.Error, "%s at replica %d", method, i)
	return m.Result
}

// A stateless task that waits for input at one replica is seen waiting at
// the others, takes its answers one at a time at any of them, and goes on
// where it runs.
func TestAStatelessTaskTakesItsInputAtAnyReplica(t *testing.T) {
	c := newCluster(t, 3, func(t *testing.T) *mcp.Server { return newTaskTools(t).s },
		&mcp.HTTPOptions{Tasks: mcp.NewMemoryTaskStore()})
	created := statelessAt(t, c, 0, "tools/call", "ask", map[string]any{"name": "ask"})
	require.Equal(t, "task", created["resultType"])
	id := created["taskId"].(string)

	var got map[string]any
	require.Eventually(t, func() bool {
		got = statelessAt(t, c, 1, "tasks/get", id, map[string]any{"taskId": id})
		return got["status"] == "input_required"
	}, 10*time.Second, 5*time.Millisecond, "replica 1 never saw the task wait")
	assert.Equal(t, []string{"a", "b"}, keys(got["inputRequests"]))

	statelessAt(t, c, 2, "tasks/update", id, map[string]any{"taskId": id, "inputResponses": map[string]any{"b": map[string]any{"action": "accept", "content": map[string]any{"v": "2"}}}})
	got = statelessAt(t, c, 1, "tasks/get", id, map[string]any{"taskId": id})
	assert.Equal(t, "input_required", got["status"])
	assert.Equal(t, []string{"a"}, keys(got["inputRequests"]), "the answered request is gone everywhere at once")

	statelessAt(t, c, 1, "tasks/update", id, map[string]any{"taskId": id, "inputResponses": map[string]any{"a": map[string]any{"action": "decline"}}})
	require.Eventually(t, func() bool {
		got = statelessAt(t, c, 2, "tasks/get", id, map[string]any{"taskId": id})
		return got["status"] == "completed"
	}, 10*time.Second, 5*time.Millisecond, "the task never completed")
	assert.Equal(t, "decline/accept", got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
}

// answersRefused is a task store where every update that brings answers
// loses to another (as if a second tasks/update always came first),
// answersLost one where every such update fails, and updatesFail one whose
// updates all fail.
type answersRefused struct{ mcp.TaskStore }

func (s answersRefused) Update(ctx context.Context, rec mcp.TaskRecord) (bool, error) {
	if len(rec.Answers) > 0 {
		return false, nil
	}
	return s.TaskStore.Update(ctx, rec)
}

type answersLost struct{ mcp.TaskStore }

func (s answersLost) Update(ctx context.Context, rec mcp.TaskRecord) (bool, error) {
	if len(rec.Answers) > 0 {
		return false, errors.New("the store is down")
	}
	return s.TaskStore.Update(ctx, rec)
}

type updatesFail struct{ mcp.TaskStore }

func (updatesFail) Update(context.Context, mcp.TaskRecord) (bool, error) {
	return false, errors.New("the store is down")
}

func TestAnUpdateTheStoreDoesNotTakeIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		store mcp.TaskStore
		want  string
	}{
		{"it keeps losing", answersRefused{mcp.NewMemoryTaskStore()}, "changed too often"},
		{"the store fails", answersLost{mcp.NewMemoryTaskStore()}, "the task store is unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tt := newTaskTools(t)
			f := newServerFixture(t, tt.s, &mcp.HTTPOptions{Tasks: tc.store})
			m := answer(t, f.post("", statelessBodyCaps(t, 1, "tools/call", map[string]any{"name": "ask"}, tasksCaps, nil), mirrored("tools/call", "ask")...))
			id := m.Result["taskId"].(string)
			require.Eventually(t, func() bool {
				m = answer(t, f.post("", statelessBodyCaps(t, 2, "tasks/get", map[string]any{"taskId": id}, tasksCaps, nil), mirrored("tasks/get", id)...))
				return m.Result["status"] == "input_required"
			}, 10*time.Second, 5*time.Millisecond)
			m = answer(t, f.post("", statelessBodyCaps(t, 3, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"a": map[string]any{"action": "decline"}}}, tasksCaps, nil),
				mirrored("tasks/update", id)...))
			require.NotNil(t, m.Error)
			assert.Equal(t, rpc.CodeInternalError, m.Error.Code)
			assert.Contains(t, m.Error.Message, tc.want)
		})
	}
}

func TestATaskWhoseWaitCannotBeRecordedFails(t *testing.T) {
	tt := newTaskTools(t)
	f := newServerFixture(t, tt.s, &mcp.HTTPOptions{Tasks: updatesFail{mcp.NewMemoryTaskStore()}})
	m := answer(t, f.post("", statelessBodyCaps(t, 1, "tools/call", map[string]any{"name": "ask"}, tasksCaps, nil), mirrored("tools/call", "ask")...))
	id := m.Result["taskId"].(string)
	require.Eventually(t, func() bool {
		m = answer(t, f.post("", statelessBodyCaps(t, 2, "tasks/get", map[string]any{"taskId": id}, tasksCaps, nil), mirrored("tasks/get", id)...))
		return m.Result["status"] == "failed"
	}, 10*time.Second, 5*time.Millisecond)
	assert.Equal(t, map[string]any{"code": float64(rpc.CodeInternalError), "message": "the task store is unavailable"}, m.Result["error"])
}

func TestATaskHandlerThatAsksWhatCannotBeAskedFails(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{Tasks: true})
	var rounds atomic.Int32
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "bad", Execution: &mcp.ToolExecution{TaskSupport: mcp.ToolExecutionTaskSupportOptional}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"x": {Method: "tools/list"}}}
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "greedy", Execution: &mcp.ToolExecution{TaskSupport: mcp.ToolExecutionTaskSupportOptional}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			rounds.Add(1)
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"more": mcp.FormInput("More?", json.RawMessage(`{"type":"object"}`))}}
		}))
	c := dialStateless(t, s)

	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "bad"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "failed")
	assert.EqualValues(t, rpc.CodeInternalError, got["error"].(map[string]any)["code"])

	created, rerr = taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "greedy"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	for {
		got = waitTask(t, c, id, "input_required", "failed")
		if got["status"] == "failed" {
			break
		}
		before := rounds.Load()
		_, rerr := taskCall(t, c, tasksCaps, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"more": map[string]any{"action": "decline"}}})
		require.Nil(t, rerr)
		require.Eventually(t, func() bool { return rounds.Load() > before }, 10*time.Second, time.Millisecond, "the handler was not called again")
	}
	assert.EqualValues(t, rpc.CodeInternalError, got["error"].(map[string]any)["code"], "a handler that never stops asking fails its task")
	assert.EqualValues(t, 16, rounds.Load(), "the rounds are bounded as in a session")
}

// A handler may end a round with state alone, to be called again with it
// (as a retried stateless request or a session would call it): a task
// does so at once, since there is nothing for the client to answer.
func TestATaskWhoseHandlerAsksNothingButStateGoesOnAtOnce(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "steps", Execution: &mcp.ToolExecution{TaskSupport: mcp.ToolExecutionTaskSupportOptional}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if st := req.State(); st != nil {
				return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("after " + string(st))}}, nil
			}
			return nil, &mcp.InputRequired{State: []byte("step 1")}
		}))
	c := dialStateless(t, s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "steps"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "completed", "failed")
	require.Equal(t, "completed", got["status"], "task: %v", got)
	assert.Equal(t, "after step 1", got["result"].(map[string]any)["content"].([]any)[0].(map[string]any)["text"])
}

// A question whose params cannot be written as JSON reaches no client: the
// request answers -32603, and so does the task that asked it.
func TestAQuestionThatCannotBeWrittenFailsTheRequestAndTheTask(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "srv", Version: "1"}, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "garbled", Execution: &mcp.ToolExecution{TaskSupport: mcp.ToolExecutionTaskSupportOptional}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"x": mcp.FormInput("X?", json.RawMessage(`{not json`))}}
		}))
	c := dialStateless(t, s)

	_, rerr := taskCall(t, c, `{"elicitation":{}}`, "tools/call", map[string]any{"name": "garbled"})
	require.NotNil(t, rerr, "in the request")
	assert.Equal(t, rpc.CodeInternalError, rerr.Code)

	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "garbled"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "failed", "completed", "input_required")
	require.Equal(t, "failed", got["status"], "task: %v", got)
	assert.EqualValues(t, rpc.CodeInternalError, got["error"].(map[string]any)["code"])
}

// A task whose handler asks through its Request for what the client did
// not declare fails with -32021 naming it, as the same call answers in the
// request and as a task whose handler returns the question does
// (TestATaskThatNeedsAnUndeclaredCapabilityFails).
func TestATaskWhoseHandlerAsksForAnUndeclaredCapabilityFailsWithWhatIsMissing(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, `{"extensions":{"io.modelcontextprotocol/tasks":{}}}`, "tools/call", map[string]any{"name": "twice"})
	require.Nil(t, rerr)
	got := waitTask(t, c, created["taskId"].(string), "failed", "completed")
	require.Equal(t, "failed", got["status"], "task: %v", got)
	e := got["error"].(map[string]any)
	assert.EqualValues(t, mcp.CodeMissingCapability, e["code"])
	assert.Equal(t, map[string]any{"requiredCapabilities": map[string]any{"elicitation": map[string]any{"form": map[string]any{}}}}, e["data"])
}

// tasks/update takes only answers to what the task waits for: a task that
// works on, or answers it did not ask for, are acknowledged and change
// nothing.
func TestAnUpdateWithNothingTheTaskWaitsForChangesNothing(t *testing.T) {
	tt := newTaskTools(t)
	c := dialStateless(t, tt.s)
	update := func(id string, answers map[string]any) {
		t.Helper()
		ack, rerr := taskCall(t, c, tasksCaps, "tasks/update", map[string]any{"taskId": id, "inputResponses": answers})
		require.Nil(t, rerr)
		assert.Equal(t, "complete", ack["resultType"])
	}

	working, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "gated"})
	require.Nil(t, rerr)
	update(working["taskId"].(string), map[string]any{"a": map[string]any{"action": "accept"}})
	got, rerr := taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": working["taskId"]})
	require.Nil(t, rerr)
	assert.Equal(t, "working", got["status"])

	asking, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "ask"})
	require.Nil(t, rerr)
	id := asking["taskId"].(string)
	waitTask(t, c, id, "input_required")
	update(id, map[string]any{"stray": map[string]any{"action": "accept"}})
	got, rerr = taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Equal(t, "input_required", got["status"])
	assert.Equal(t, []string{"a", "b"}, keys(got["inputRequests"]))
	close(tt.gate)
}

// A task cancelled while it waits for input stays cancelled: its wait ends
// and answers that come later are not taken.
func TestATaskCancelledWhileItWaitsForInputStaysCancelled(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "ask"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	waitTask(t, c, id, "input_required")
	_, rerr = taskCall(t, c, tasksCaps, "tasks/cancel", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	waitTask(t, c, id, "cancelled")
	_, rerr = taskCall(t, c, tasksCaps, "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
		"a": map[string]any{"action": "decline"}, "b": map[string]any{"action": "decline"}}})
	require.Nil(t, rerr)
	got, rerr := taskCall(t, c, tasksCaps, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Equal(t, "cancelled", got["status"])
	assert.NotContains(t, got, "result")
}

// memberNames lists the names of a JSON object's members in the order
// they are written.
func memberNames(t *testing.T, raw json.RawMessage) []string {
	t.Helper()
	var members []string
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	_, err := dec.Token() // {
	require.NoError(t, err)
	for dec.More() {
		name, err := dec.Token()
		require.NoError(t, err)
		members = append(members, name.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return members
}

// The generated result types write the members in the order the
// extension's schema lists them, which is the order the tasks/* answers
// have always had on the wire: the task's state, its outcome, resultType,
// _meta.
func TestTasksAnswersWriteTheirMembersInTheSchemasOrder(t *testing.T) {
	c := dialStateless(t, newTaskTools(t).s)
	created, rerr := taskCall(t, c, tasksCaps, "tools/call", map[string]any{"name": "only"})
	require.Nil(t, rerr)
	id := created["taskId"].(string)
	waitTask(t, c, id, "completed")

	raw, rerr := c.call(t, "tasks/get", statelessParams(map[string]any{"taskId": id}, tasksCaps, nil))
	require.Nil(t, rerr)
	assert.Equal(t, []string{"taskId", "status", "createdAt", "lastUpdatedAt", "ttlMs", "pollIntervalMs", "result", "resultType", "_meta"},
		memberNames(t, raw))

	raw, rerr = c.call(t, "tasks/cancel", statelessParams(map[string]any{"taskId": id}, tasksCaps, nil))
	require.Nil(t, rerr)
	assert.Equal(t, []string{"resultType", "_meta"}, memberNames(t, raw))
}
