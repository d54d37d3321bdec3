package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/internal/stackroom/stackroomtest"
	"github.com/schemarpc/schemarpc/mcp"
)

// deepToolMovesTheStack is a tool that answers whether a call 24 KiB deep
// grew its goroutine's stack.
func deepToolMovesTheStack(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(fmt.Sprint(stackroomtest.DeepCallMoves(24)))}}, nil
}

func TestAToolCalledOverHTTPRunsWithRoomForADeepCall(t *testing.T) {
	stackroomtest.NoCollection(t)
	// The handler makes its goroutine's stack room before the request
	// runs deep: a first call copies no stack (each copy walks the function
	// tables of every frame on it, which then stay resident).
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "deep", InputSchema: json.RawMessage(`{"type":"object"}`)}, deepToolMovesTheStack))
	f := newServerFixture(t, s, &mcp.HTTPOptions{JSONResponse: true})
	for id := range 3 {
		resp := f.post("", statelessBody(t, id, "tools/call", map[string]any{"name": "deep", "arguments": map[string]any{}}, nil),
			mirrored("tools/call", "deep")...)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		m := answer(t, resp)
		require.NotNil(t, m.Result, "call %d: %v", id, m.Error)
		content, _ := m.Result["content"].([]any)
		require.Len(t, content, 1)
		assert.Equal(t, "false", content[0].(map[string]any)["text"], "call %d: a 24 KiB deep call in a tool grew its goroutine's stack", id)
	}
}

func TestNewServerLeavesRoomForRegisteringTools(t *testing.T) {
	stackroomtest.NoCollection(t)
	// Registering a tool runs deep (its schema inferred and compiled):
	// NewServer makes the room on the caller's goroutine first.
	moved := make(chan bool)
	go func() {
		mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
		moved <- stackroomtest.DeepCallMoves(24)
	}()
	assert.False(t, <-moved, "a 24 KiB deep call after NewServer grew the goroutine's stack")
}

func TestATaskRunsWithRoomForADeepCall(t *testing.T) {
	stackroomtest.NoCollection(t)
	// A task-augmented call's work runs on a goroutine of its own, which
	// makes its room first too.
	s := newServer(t, &mcp.ServerOptions{Tasks: true})
	require.NoError(t, s.AddTool(&mcp.Tool{Name: "deep", Execution: &mcp.ToolExecution{TaskSupport: "required"}}, deepToolMovesTheStack))
	c := dial(t, s, clientOptions{})
	res, rerr := c.call(t, "tools/call", map[string]any{"name": "deep", "task": map[string]any{"ttl": 60000}})
	require.Nil(t, rerr)
	var created mcp.CreateTaskResult
	require.NoError(t, json.Unmarshal(res, &created))
	res, rerr = c.call(t, "tasks/result", map[string]any{"taskId": created.Task.TaskID})
	require.Nil(t, rerr)
	assert.Contains(t, string(res), `"text":"false"`, "a 24 KiB deep call in a task grew its goroutine's stack")
}
