package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp"
)

// The task tools, driven as the tasks extension scenarios drive them, over stdio.

// tasksCapabilities declare the tasks extension and elicitation.
const tasksCapabilities = `{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}`

// taskState is what tasks/get and a created task say.
type taskState struct {
	ResultType    string                     `json:"resultType"`
	TaskID        string                     `json:"taskId"`
	Status        string                     `json:"status"`
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	Result        *mcp.CallToolResult        `json:"result"`
	Error         *struct{ Code int }        `json:"error"`
}

func (c *statelessClient) task(method string, params map[string]any) taskState {
	c.t.Helper()
	var st taskState
	require.NoError(c.t, json.Unmarshal(c.call(method, params, tasksCapabilities), &st))
	return st
}

// await polls the task until its status is want.
func (c *statelessClient) await(id, want string) taskState {
	c.t.Helper()
	var st taskState
	require.Eventually(c.t, func() bool {
		st = c.task("tasks/get", map[string]any{"taskId": id})
		return st.Status == want
	}, 10*time.Second, 5*time.Millisecond, "task %s never reached %s", id, want)
	return st
}

func resultText(t *testing.T, r *mcp.CallToolResult) string {
	t.Helper()
	require.NotNil(t, r)
	require.Len(t, r.Content, 1)
	text, ok := r.Content[0].Value.(mcp.TextContent)
	require.True(t, ok, "%#v", r.Content[0].Value)
	return text.Text
}

func TestTaskToolsBecomeTasksForAClientOfTheExtension(t *testing.T) {
	c := connectStateless(t)
	created := c.task("tools/call", map[string]any{"name": "slow_compute", "arguments": map[string]any{"seconds": 0, "label": "x"}})
	require.Equal(t, "task", created.ResultType)
	assert.Equal(t, `Computed "x" in 0 s.`, resultText(t, c.await(created.TaskID, "completed").Result))

	created = c.task("tools/call", map[string]any{"name": "failing_job"})
	got := c.await(created.TaskID, "completed")
	assert.True(t, *got.Result.IsError, "a tool error completes the task")

	created = c.task("tools/call", map[string]any{"name": "protocol_error_job"})
	got = c.await(created.TaskID, "failed")
	assert.Equal(t, -32603, got.Error.Code)

	sync := c.task("tools/call", map[string]any{"name": "greet", "arguments": map[string]any{"name": "World"}})
	assert.Equal(t, "complete", sync.ResultType, "greet is never a task")
}

func TestFailingJobNeedsTheExtension(t *testing.T) {
	c := connectStateless(t)
	_, err := c.try("tools/call", map[string]any{"name": "failing_job"}, suiteCapabilities, nil)
	assert.Equal(t, mcp.CodeMissingCapability, rpcError(t, err).Code)
}

func TestConfirmDeleteAsksInsideItsTask(t *testing.T) {
	c := connectStateless(t)
	created := c.task("tools/call", map[string]any{"name": "confirm_delete", "arguments": map[string]any{"filename": "a.txt"}})
	waiting := c.await(created.TaskID, "input_required")
	require.Contains(t, waiting.InputRequests, "confirm")
	c.task("tasks/update", map[string]any{"taskId": created.TaskID,
		"inputResponses": map[string]any{"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}})
	assert.Equal(t, "Deleted a.txt.", resultText(t, c.await(created.TaskID, "completed").Result))
}

func TestToolWithTaskAsksInTheRequestThenBecomesATask(t *testing.T) {
	c := connectStateless(t)
	var first struct {
		ResultType    string                     `json:"resultType"`
		InputRequests map[string]json.RawMessage `json:"inputRequests"`
		RequestState  string                     `json:"requestState"`
	}
	require.NoError(t, json.Unmarshal(c.call("tools/call", map[string]any{"name": "test_tool_with_task"}, tasksCapabilities), &first))
	require.Equal(t, "input_required", first.ResultType)
	require.Contains(t, first.InputRequests, "user_name")
	retry := map[string]any{"name": "test_tool_with_task",
		"inputResponses": map[string]any{"user_name": map[string]any{"action": "accept", "content": map[string]any{"name": "Alice"}}}}
	if first.RequestState != "" {
		retry["requestState"] = first.RequestState
	}
	created := c.task("tools/call", retry)
	require.Equal(t, "task", created.ResultType)
	assert.Equal(t, "Hello, Alice!", resultText(t, c.await(created.TaskID, "completed").Result))
}
