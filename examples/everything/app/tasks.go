package app

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
	"github.com/schemarpc/schemarpc/rpc"
)

// The tools of the tasks extension scenarios (SEP-2663, io.modelcontextprotocol/tasks).
// The server enables tasks; a tool whose execution.taskSupport is optional or required
// runs as a task when a stateless request declares the extension (and, in a 2025-11-25
// session, when the call asks for one). A handler is the same either way: it asks for
// input with *mcp.InputRequired, which a task answers through tasks/get and tasks/update.

// jobPause is how long failing_job works before it fails.
const jobPause = 500 * time.Millisecond

// The input forms of the task tools.
const (
	confirmDeleteForm = `{"type":"object","properties":{"confirm":{"type":"boolean"}},"required":["confirm"]}`
	partForm          = `{"type":"object","properties":{"name":{"type":"string"},"confirm":{"type":"boolean"}},"required":["name"]}`
)

// addTaskTools registers the tools the tasks scenarios call.
func addTaskTools(s *mcp.Server) error {
	support := func(mode mcp.ToolExecutionTaskSupport) *mcp.ToolExecution {
		return &mcp.ToolExecution{TaskSupport: mode}
	}
	tools := []struct {
		tool    mcp.Tool
		handler mcp.ToolHandler
		opts    []mcp.RegisterOption
	}{
		{mcp.Tool{Name: "greet", Description: "Greets someone, at once (never a task).",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)}, greet, nil},
		{mcp.Tool{Name: "slow_compute", Description: "Works for the given number of seconds, as a task when it can be one.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"number","minimum":0},"label":{"type":"string"}},"required":["seconds"]}`),
			Execution:   support(mcp.ToolExecutionTaskSupportOptional)}, slowCompute, nil},
		{mcp.Tool{Name: "failing_job", Description: "Runs only as a task, and always fails with a tool error.",
			InputSchema: json.RawMessage(emptyObjectSchema), Execution: support(mcp.ToolExecutionTaskSupportRequired)}, failingJob, nil},
		{mcp.Tool{Name: "protocol_error_job", Description: "Runs only as a task, and fails it with a protocol error (-32603).",
			InputSchema: json.RawMessage(emptyObjectSchema), Execution: support(mcp.ToolExecutionTaskSupportRequired)}, protocolErrorJob, nil},
		{mcp.Tool{Name: "confirm_delete", Description: "Asks the user to confirm deleting a file, then reports what it did.",
			InputSchema: json.RawMessage(`{"type":"object","properties":{"filename":{"type":"string"}},"required":["filename"]}`),
			Execution:   support(mcp.ToolExecutionTaskSupportOptional)}, confirmDelete, nil},
		{mcp.Tool{Name: "multi_input", Description: "Asks the user two questions at once, then reports both answers.",
			InputSchema: json.RawMessage(emptyObjectSchema), Execution: support(mcp.ToolExecutionTaskSupportOptional)}, multiInput, nil},
		{mcp.Tool{Name: "test_tool_with_task", Description: "Asks the user's name in the request, then greets them as a task.",
			InputSchema: json.RawMessage(emptyObjectSchema), Execution: support(mcp.ToolExecutionTaskSupportRequired)},
			toolWithTask, []mcp.RegisterOption{mcp.WithInputBeforeTask()}},
	}
	for _, t := range tools {
		if err := s.AddTool(&t.tool, t.handler, t.opts...); err != nil {
			return err
		}
	}
	return nil
}

func greet(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return nil, rpc.InvalidParams("invalid arguments: " + rpc.DecodeReason(err))
	}
	return textResult("Hello, " + in.Name + "!"), nil
}

// slowCompute works for the seconds asked, or until it is cancelled.
func slowCompute(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Seconds float64 `json:"seconds"`
		Label   string  `json:"label"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return nil, rpc.InvalidParams("invalid arguments: " + rpc.DecodeReason(err))
	}
	t := time.NewTimer(time.Duration(in.Seconds * float64(time.Second)))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
	}
	return textResult(fmt.Sprintf("Computed %q in %g s.", in.Label, in.Seconds)), nil
}

// failingJob fails as a tool does: the model reads the error.
func failingJob(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	t := time.NewTimer(jobPause)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
	}
	return nil, fmt.Errorf("the job failed, as it always does")
}

// protocolErrorJob fails with a JSON-RPC error: a failed task.
func protocolErrorJob(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, &rpc.Error{Code: rpc.CodeInternalError, Message: "the job hit a protocol error"}
}

// confirmDelete asks for a confirmation, then reports whether it "deleted" the file.
func confirmDelete(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in struct {
		Filename string `json:"filename"`
	}
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return nil, rpc.InvalidParams("invalid arguments: " + rpc.DecodeReason(err))
	}
	res, ok := req.Elicited("confirm")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
			"confirm": mcp.FormInput(fmt.Sprintf("Delete %s?", in.Filename), json.RawMessage(confirmDeleteForm)),
		}}
	}
	if v, _ := formValue(res, "confirm"); v == "true" {
		return textResult("Deleted " + in.Filename + "."), nil
	}
	return textResult("Kept " + in.Filename + "."), nil
}

// multiInput asks two questions in one round; the client may answer them one at a time.
func multiInput(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	first, ok1 := req.Elicited("first")
	second, ok2 := req.Elicited("second")
	if !ok1 || !ok2 {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
			"first":  mcp.FormInput("First name?", json.RawMessage(partForm)),
			"second": mcp.FormInput("Second name?", json.RawMessage(partForm)),
		}}
	}
	a, _ := formValue(first, "name")
	b, _ := formValue(second, "name")
	return textResult("Got " + a + " and " + b + "."), nil
}

// toolWithTask asks the user's name in the request (it is registered
// WithInputBeforeTask); the call that brings the name becomes the task.
func toolWithTask(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Elicited("user_name")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"user_name": askName()}}
	}
	return textResult(greeting(res)), nil
}
