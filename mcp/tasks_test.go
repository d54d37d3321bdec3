package mcp_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func taskServer(t *testing.T, release chan struct{}) *mcp.Server {
	s := newServer(t, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "long", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("finished")}}, nil
		}))
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "only-task", Execution: &mcp.ToolExecution{TaskSupport: "required"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil }))
	return s
}

func TestTaskAugmentedCallRunsInTheBackground(t *testing.T) {
	release := make(chan struct{})
	c := dial(t, taskServer(t, release), clientOptions{})
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "long", "task": map[string]any{"ttl": 60000}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	id := created.Task.TaskID
	require.NotEmpty(t, id)
	assert.Equal(t, mcp.TaskStatusWorking, created.Task.Status)
	assert.Equal(t, int64(60000), *created.Task.TTL)

	res, rerr = c.call(t, "tasks/get", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"working"`)
	res, rerr = c.call(t, "tasks/list", map[string]any{})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), id)

	close(release)
	res, rerr = c.call(t, "tasks/result", map[string]any{"taskId": id})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"text":"finished"`)
	assert.Contains(t, string(res), `"io.modelcontextprotocol/related-task":{"taskId":"`+id+`"}`)
	n := c.note(t, "notifications/tasks/status")
	assert.Contains(t, string(n.Params), `"status":"completed"`)

	_, rerr = c.call(t, "tasks/cancel", map[string]any{"taskId": id})
	require.NotNil(t, rerr, "a finished task cannot be cancelled")
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestTaskCancelStopsTheWork(t *testing.T) {
	c := dial(t, taskServer(t, make(chan struct{})), clientOptions{})
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "long", "task": map[string]any{}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	res, rerr = c.call(t, "tasks/cancel", map[string]any{"taskId": created.Task.TaskID})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"status":"cancelled"`)
	_, rerr = c.call(t, "tasks/get", map[string]any{"taskId": "no-such-task"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
}

func TestTaskModeIsEnforced(t *testing.T) {
	c := dial(t, taskServer(t, make(chan struct{})), clientOptions{})
	_, rerr := c.call(t, "tools/call", map[string]any{"name": "only-task"})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
	_, rerr = c.call(t, "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}, "task": map[string]any{}})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
}

func TestTasksAreAdvertisedOnlyWhenEnabled(t *testing.T) {
	c := dial(t, newServer(t, nil), clientOptions{})
	_, rerr := c.call(t, "tasks/list", map[string]any{})
	require.NotNil(t, rerr)
	assert.Equal(t, rpc.CodeMethodNotFound, rerr.Code)
}

// A task belongs to its session on transports without session ids too:
// another session of the same server cannot see, await or cancel it.
func TestATaskIsItsSessionsOnly(t *testing.T) {
	s := taskServer(t, make(chan struct{}))
	a, b := dial(t, s, clientOptions{}), dial(t, s, clientOptions{})
	res, rerr := a.call(t, "tools/call", map[string]any{"name": "long", "task": map[string]any{}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	for _, method := range []string{"tasks/get", "tasks/result", "tasks/cancel"} {
		_, rerr := b.call(t, method, map[string]any{"taskId": created.Task.TaskID})
		require.NotNil(t, rerr, method)
		assert.Equal(t, rpc.CodeInvalidParams, rerr.Code, method)
	}
	res, rerr = b.call(t, "tasks/list", map[string]any{})
	require.Nil(t, rerr)
	assert.NotContains(t, string(res), created.Task.TaskID)
	res, rerr = a.call(t, "tasks/list", map[string]any{})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), created.Task.TaskID)
}

// The ttl a client asks is granted within 1 s and 24 h, so that a task
// asked to be kept for no time still answers the tasks/result that waits
// for it.
func TestATaskTTLIsGrantedWithinBounds(t *testing.T) {
	release := make(chan struct{})
	c := dial(t, taskServer(t, release), clientOptions{})
	for _, tc := range []struct{ ask, granted int64 }{{0, 1000}, {5000, 5000}, {90_000_000, 86_400_000}} {
		res, rerr := c.call(t, "tools/call", map[string]any{"name": "long", "task": map[string]any{"ttl": tc.ask}})
		require.Nil(t, rerr)
		var created mcp.CreateTaskResult
		require.NoError(t, json.Unmarshal(res, &created))
		assert.Equal(t, tc.granted, *created.Task.TTL, "ttl %d", tc.ask)
	}
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "long", "task": map[string]any{"ttl": 0}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	close(release)
	res, rerr = c.call(t, "tasks/result", map[string]any{"taskId": created.Task.TaskID})
	require.Nil(t, rerr, "a task asked to be kept for no time still answers tasks/result")
	assert.Contains(t, string(res), "finished")
}

// A task of a session whose handler asks for what the client did not
// declare completes with the tool error that names it, as the call does
// without a task.
func TestASessionTaskThatAsksForAnUndeclaredCapabilityReportsAToolError(t *testing.T) {
	s := newServer(t, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "asks", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_, err := req.ListRoots(ctx)
			return nil, err
		}))
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "asks", "task": map[string]any{}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	res, rerr = c.call(t, "tasks/result", map[string]any{"taskId": created.Task.TaskID})
	require.Nil(t, rerr, "the task completes")
	var got mcp.CallToolResult
	require.NoError(t, json.Unmarshal(res, &got))
	require.NotNil(t, got.IsError)
	assert.True(t, *got.IsError)
	assert.Contains(t, string(res), "mcp: the client did not declare this capability: roots")
}

// A task that fails with an error quoting 64 KiB of the client's input
// keeps, and answers in tasks/result and tasks/get, a bounded excerpt.
func TestAFailedTaskStoresABoundedError(t *testing.T) {
	s := newServer(t, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "fails", Execution: &mcp.ToolExecution{TaskSupport: "optional"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, rpc.InvalidParams("no such thing: " + string(req.Params.Arguments))
		}))
	c := dial(t, s, clientOptions{})
	huge := strings.Repeat("q", 64<<10)
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "fails", "arguments": map[string]any{"x": huge}, "task": map[string]any{"ttl": 60000}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	_, rerr = c.call(t, "tasks/result", map[string]any{"taskId": created.Task.TaskID})
	require.NotNil(t, rerr, "the task failed")
	assert.Equal(t, rpc.CodeInvalidParams, rerr.Code)
	assert.Less(t, len(rerr.Message), 1100)
	assert.True(t, strings.HasSuffix(rerr.Message, "bytes cut]"), "the cut is marked")
	res, rerr = c.call(t, "tasks/get", map[string]any{"taskId": created.Task.TaskID})
	require.Nil(t, rerr)
	assert.Less(t, len(res), 4<<10, "the status message is bounded too")
}
