package tasksext_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
	"github.com/schemarpc/schemarpc/rpc"
)

// tasks serves tasks/get and tasks/update with what their params named.
type tasks struct {
	tasksext.UnimplementedTasksServer
}

func (tasks) TasksGet(_ context.Context, p *tasksext.TaskRequestParams) (*tasksext.GetTaskResult, error) {
	return &tasksext.GetTaskResult{TaskID: p.TaskID, Status: tasksext.TaskStatusWorking, ResultType: "complete"}, nil
}

func (tasks) TasksUpdate(_ context.Context, p *tasksext.UpdateTaskRequestParams) (*tasksext.TaskAckResult, error) {
	return &tasksext.TaskAckResult{ResultType: "complete", Extra: map[string]json.RawMessage{"answers": json.RawMessage(`"` + p.TaskID + `"`)}}, nil
}

const meta = `"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}`

func handle(t *testing.T, method, params string) (any, error) {
	t.Helper()
	r := rpc.NewRouter()
	tasksext.RegisterTasksServer(r, tasks{})
	return r.Handle(context.Background(), &rpc.Request{Method: method, Params: json.RawMessage(params)})
}

func TestTaskParamsThatBreakTheSchemaAreInvalidParamsNamingTheMember(t *testing.T) {
	for _, tc := range []struct {
		name, method, params, member string
	}{
		{"taskId missing", tasksext.MethodTasksGet, `{` + meta + `}`, "taskId"},
		{"taskId not a string", tasksext.MethodTasksCancel, `{` + meta + `, "taskId": 7}`, "/taskId"},
		{"_meta missing", tasksext.MethodTasksGet, `{"taskId": "t"}`, "_meta"},
		{"protocol version missing", tasksext.MethodTasksGet, `{"_meta": {"io.modelcontextprotocol/clientCapabilities": {}}, "taskId": "t"}`, "io.modelcontextprotocol/protocolVersion"},
		{"inputResponses missing", tasksext.MethodTasksUpdate, `{` + meta + `, "taskId": "t"}`, "inputResponses"},
		{"inputResponses not an object", tasksext.MethodTasksUpdate, `{` + meta + `, "taskId": "t", "inputResponses": []}`, "/inputResponses"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := handle(t, tc.method, tc.params)
			var e *rpc.Error
			require.True(t, errors.As(err, &e), "got %v", err)
			assert.Equal(t, rpc.CodeInvalidParams, e.Code)
			data, merr := json.Marshal(e.Data)
			require.NoError(t, merr)
			assert.Contains(t, string(data)+e.Message, tc.member)
		})
	}
}

func TestValidTaskParamsReachTheServerDecoded(t *testing.T) {
	res, err := handle(t, tasksext.MethodTasksGet, `{`+meta+`, "taskId": "t1", "extra": true}`)
	require.NoError(t, err)
	assert.Equal(t, "t1", res.(*tasksext.GetTaskResult).TaskID)

	res, err = handle(t, tasksext.MethodTasksUpdate, `{`+meta+`, "taskId": "t2", "inputResponses": {"k": {"anything": [1]}}}`)
	require.NoError(t, err, "answers are not checked against the input requests: unknown ones are ignored")
	assert.JSONEq(t, `"t2"`, string(res.(*tasksext.TaskAckResult).Extra["answers"]))
}

func TestTheTasksMethodsDeclareTheirCapabilityAndTheirMcpNameMember(t *testing.T) {
	for _, m := range []string{tasksext.MethodTasksGet, tasksext.MethodTasksUpdate, tasksext.MethodTasksCancel} {
		f, ok := tasksext.TasksMethodFacts(m)
		require.True(t, ok, m)
		capability, _ := f.Extension("x-capability")
		assert.Equal(t, `"io.modelcontextprotocol/tasks"`, capability, m)
		member, _ := f.Extension("x-mcp-name-member")
		assert.Equal(t, `"taskId"`, member, m)
	}
	f, ok := tasksext.TasksMethodFacts(tasksext.MethodNotificationsTasks)
	require.True(t, ok)
	assert.True(t, f.Notification)
}
