package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
	"github.com/schemarpc/schemarpc/rpc"
)

// The 2026-07-28 tasks extension (SEP-2663): a server that enables tasks
// (ServerOptions.Tasks) advertises extensionTasks under
// capabilities.extensions; a request that declares it in its client
// capabilities may get, for a tool whose execution.taskSupport is optional
// or required, a task instead of the result (resultType "task"). The server
// decides, not the client. The client follows the task with tasks/get (the
// result or error inlined once it ends, the input it waits for while it is
// input_required), answers input with tasks/update and stops it with
// tasks/cancel. The same engine (taskRunner) and store serve the tasks of
// 2025-11-25 sessions.

// extensionTasks is the tasks extension's identifier.
const extensionTasks = "io.modelcontextprotocol/tasks"

// declaresTasks reports whether client capabilities declare the tasks
// extension.
func declaresTasks(caps ClientCapabilities) bool {
	raw, ok := caps.Extra["extensions"]
	if !ok {
		return false
	}
	v, ok := jsonscan.Member(raw, extensionTasks)
	return ok && string(v) != "null"
}

// missingTasksExtension is the -32021 error of a request that needs the
// tasks extension without declaring it.
func missingTasksExtension() *rpc.Error {
	return missingCapability(map[string]any{"extensions": map[string]any{extensionTasks: map[string]any{}}})
}

// statelessTasks is the owner of the tasks stateless requests create: the
// principal the requests act for (WithPrincipal), or everyone without one.
// A task id is unguessable (130 random bits), so it is what a client must
// know to reach a task. base is the context the work starts from: the
// creating request's values, without its cancellation.
type statelessTasks struct {
	s     *Server
	owner string
	base  context.Context
}

func (t statelessTasks) taskOwner() string            { return t.owner }
func (t statelessTasks) taskLogger() *slog.Logger     { return t.s.log }
func (t statelessTasks) taskContext() context.Context { return t.base }

// taskChanged tells the open listens that asked for task notifications
// (see listen.go) of the new state.
func (t statelessTasks) taskChanged(task Task) { t.s.notifyTaskListeners(t.owner, task) }

// statelessTaskOwner is the store owner of the stateless tasks of a
// principal.
func statelessTaskOwner(principal string) string { return "stateless\x00" + principal }

type runnerKey struct{}

// withTaskRunner makes the stateless requests of ctx keep their tasks in r
// (the Streamable HTTP handler's, shared by replicas) instead of the
// server's own.
func withTaskRunner(ctx context.Context, r *taskRunner) context.Context {
	return context.WithValue(ctx, runnerKey{}, r)
}

// statelessTasksOf returns where the stateless request c of ctx keeps its
// tasks, and as whom.
func (s *Server) statelessTasksOf(ctx context.Context, c *callState) (*taskRunner, statelessTasks) {
	r, _ := ctx.Value(runnerKey{}).(*taskRunner)
	if r == nil {
		r = s.tasks
	}
	return r, statelessTasks{s: s, owner: statelessTaskOwner(c.principal), base: context.WithoutCancel(ctx)}
}

// WithInputBeforeTask makes a tool that supports tasks ask for its input
// in the request before it becomes a task, under the 2026-07-28 tasks
// extension: a call that brings no input responses runs in the request,
// so that the handler's InputRequired reaches the client as an
// InputRequiredResult, and the retry that brings the answers becomes the
// task. Without it the task is created at once and asks for its input
// while it runs (status input_required, answered with tasks/update).
func WithInputBeforeTask() RegisterOption {
	return func(r *registration) { r.inputBeforeTask = true }
}

// taskSupport is a tool's execution.taskSupport, forbidden when unset.
func (e *toolEntry) taskSupport() ToolExecutionTaskSupport {
	if e.tool.Execution != nil && e.tool.Execution.TaskSupport != "" {
		return e.tool.Execution.TaskSupport
	}
	return ToolExecutionTaskSupportForbidden
}

// statelessTaskMode decides how a stateless tools/call of e runs under
// the tasks extension: as a task (asTask), in the request, or not at all
// (-32021: the tool runs only as a task and the request did not declare
// the extension). A tool registered WithInputBeforeTask runs in the
// request until a round brings input responses.
func (s *Server) statelessTaskMode(e *toolEntry, c *callState) (asTask bool, err error) {
	if !c.stateless || !s.opts.Tasks {
		return false, nil // tasks off: the extension is not offered (offer)
	}
	mode := e.taskSupport()
	if mode == ToolExecutionTaskSupportForbidden {
		return false, nil
	}
	if !declaresTasks(c.caps) {
		if mode == ToolExecutionTaskSupportRequired {
			return false, missingTasksExtension()
		}
		return false, nil
	}
	if e.inputBeforeTask && len(c.inputs) == 0 && c.state == nil {
		return false, nil
	}
	return true, nil
}

// startStatelessTask runs a stateless tools/call as a task: the answer is
// the created task, and the call's handler runs in the background with a
// state of its own. When the handler asks for input, the task waits in
// input_required until tasks/update has answered every request, and the
// handler is called again with the answers, as a retried request would be.
func (s *Server) startStatelessTask(ctx context.Context, e *toolEntry, c *callState, p *CallToolRequestParams) (*CallToolOutcome, error) {
	r, owner := s.statelessTasksOf(ctx, c)
	tc := c.forTask()
	req := newToolRequest(nil, p, tc)
	base := context.WithValue(owner.base, callKey{}, tc)
	owner.base = base
	t, err := r.start(ctx, owner, nil, func(ctx context.Context) (any, error) {
		res, err := r.runWithTaskInput(ctx, owner, tc, func(ctx context.Context) (*CallToolResult, error) {
			return s.runTool(ctx, e, req)
		})
		return undeclaredAsked(tc, res, err)
	})
	if err != nil {
		return nil, err
	}
	raw, err := rpc.AppendJSONValue(nil, &tasksext.CreateTaskResult{TaskID: t.TaskID, Status: tasksext.TaskStatus(t.Status),
		StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTLMs: t.TTL,
		PollIntervalMs: t.PollInterval, ResultType: "task"})
	if err != nil {
		return nil, err
	}
	// CallToolOutcome (2025-11-25's union) has no variant for the
	// extension's flat task: its Unknown variant carries the JSON as it is.
	return &CallToolOutcome{Value: UnknownCallToolOutcome{Raw: raw}}, nil
}

type taskKeyOfWork struct{}

// runWithTaskInput runs a task's handler and answers its InputRequired by
// waiting for the client's tasks/update, up to maxInputRounds.
func (r *taskRunner) runWithTaskInput(ctx context.Context, tc taskClient, c *callState, run func(ctx context.Context) (*CallToolResult, error)) (*CallToolResult, error) {
	k, _ := ctx.Value(taskKeyOfWork{}).(taskKey)
	for round := 0; ; round++ {
		c.asks.Store(nil) // each round asks its questions afresh (ask.go)
		res, err := run(ctx)
		ir := c.inputRequired(err)
		if ir == nil {
			return res, err
		}
		if round+1 >= maxInputRounds {
			return nil, fmt.Errorf("mcp: the handler still asked for input after %d rounds", maxInputRounds)
		}
		reqs, err := ir.forClient(tc.taskLogger(), c, logx.Method, c.method, "task", k.id)
		if err != nil {
			return nil, err
		}
		var answers map[string]json.RawMessage
		if len(reqs) > 0 { // state alone: nothing to wait for, the next round starts at once
			if answers, err = r.waitForInput(ctx, tc, k, reqs); err != nil {
				return nil, err
			}
		}
		c.inputs, c.state = answers, ir.State
	}
}

// waitForInput records that the task k waits for the input reqs
// (input_required), where every replica's tasks/get and tasks/update see
// it, and waits until tasks/update has brought every answer and set the
// task working again (word comes from wake, or the store is read every
// taskWaitPoll), or ctx ends (the task was cancelled).
func (r *taskRunner) waitForInput(ctx context.Context, tc taskClient, k taskKey, reqs map[string]json.RawMessage) (map[string]json.RawMessage, error) {
	rec, err := r.lookup(ctx, tc, k.id)
	if err != nil {
		return nil, err
	}
	rec.Task.Status = TaskStatusInputRequired
	rec.Task.LastUpdatedAt = now()
	rec.Input, rec.Answers = reqs, map[string]json.RawMessage{}
	rec.Revision++
	sctx, cancel := storeContext(ctx)
	ok, err := r.store.Update(sctx, rec)
	cancel()
	switch {
	case err != nil:
		return nil, r.storeFailed(tc, k.id, err)
	case !ok:
		return nil, errTaskEnded // cancelled meanwhile: the work is being stopped
	}
	tc.taskChanged(rec.Task)
	for {
		rec, done, err := r.await(ctx, tc, k, TaskRecord.waitsForInput)
		switch {
		case err != nil:
			return nil, err
		case rec.Ended():
			return nil, errTaskEnded
		case !rec.waitsForInput():
			return rec.Answers, nil
		}
		if err := done(); err != nil {
			return nil, err
		}
	}
}

// taskCall admits a stateless tasks/* request, whose params the generated
// bindings have checked: the request must declare the extension (-32021).
func taskCall(ctx context.Context) (*callState, error) {
	c := callFromContext(ctx)
	if c == nil || !declaresTasks(c.caps) {
		return nil, missingTasksExtension()
	}
	return c, nil
}

// getTask answers the extension's tasks/get: the task's state and, by
// status, the result of a completed task, the error of a failed one, or
// the input an input_required one waits for.
func (s *Server) getTask(ctx context.Context, p *tasksext.TaskRequestParams) (*tasksext.GetTaskResult, error) {
	c, err := taskCall(ctx)
	if err != nil {
		return nil, err
	}
	r, owner := s.statelessTasksOf(ctx, c)
	rec, err := r.lookup(ctx, owner, p.TaskID)
	if err != nil {
		return nil, err
	}
	t := rec.Task
	out := &tasksext.GetTaskResult{TaskID: t.TaskID, Status: tasksext.TaskStatus(t.Status), StatusMessage: t.StatusMessage,
		CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt, TTLMs: t.TTL, PollIntervalMs: t.PollInterval,
		ResultType: resultComplete}
	switch {
	case rec.Task.Status == TaskStatusCompleted:
		out.Result = completeResult(rec.Result)
	case rec.Task.Status == TaskStatusFailed:
		out.Error = rec.Error
	case rec.waitsForInput():
		out.InputRequests = rec.Input
	}
	return out, nil
}

// completeResult marks a stored result as complete (resultType), as the
// stateless protocol writes every result.
func completeResult(raw json.RawMessage) json.RawMessage {
	if _, has := jsonscan.Member(raw, "resultType"); has {
		return raw
	}
	o, ok := jsonscan.NewObject(raw)
	if !ok {
		return raw
	}
	out := appendMember([]byte("{"), []byte("resultType"), []byte(`"complete"`))
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		out = appendMember(out, k, v)
	}
	if o.Err() {
		return raw
	}
	return append(out, '}')
}

// updateTask answers the extension's tasks/update: the answers to the
// requests the task waits for are recorded, and once all are in the task
// is working again and its work, here or at the replica running it, goes
// on with them. Answers to requests the task does not wait for, and to a
// task that does not wait, are ignored. Two updates at once cannot both
// win: the loser reads the record again.
func (s *Server) updateTask(ctx context.Context, p *tasksext.UpdateTaskRequestParams) (*tasksext.TaskAckResult, error) {
	c, err := taskCall(ctx)
	if err != nil {
		return nil, err
	}
	answers := p.InputResponses
	r, owner := s.statelessTasksOf(ctx, c)
	for range maxUpdateAttempts {
		rec, err := r.lookup(ctx, owner, p.TaskID)
		if err != nil {
			return nil, err
		}
		if !rec.waitsForInput() {
			return taskAcknowledged(), nil
		}
		taken := false
		for key, v := range answers {
			if _, ok := rec.Input[key]; ok {
				if rec.Answers == nil {
					rec.Answers = map[string]json.RawMessage{}
				}
				rec.Answers[key] = v
				delete(rec.Input, key)
				taken = true
			}
		}
		if !taken {
			return taskAcknowledged(), nil
		}
		resumed := len(rec.Input) == 0
		if resumed {
			rec.Task.Status, rec.Input = TaskStatusWorking, nil
		}
		rec.Task.LastUpdatedAt = now()
		rec.Revision++
		sctx, cancel := storeContext(ctx)
		ok, err := r.store.Update(sctx, rec)
		cancel()
		if err != nil {
			return nil, r.storeFailed(owner, rec.Task.TaskID, err)
		}
		if !ok {
			continue
		}
		if resumed {
			k := taskKey{owner.owner, rec.Task.TaskID}
			r.wake(k)
			if r.signal != nil {
				r.signal(taskSignal{Kind: taskResumed, Session: k.session, Task: k.id})
			}
			owner.taskChanged(rec.Task)
		}
		return taskAcknowledged(), nil
	}
	return nil, &rpc.Error{Code: rpc.CodeInternalError, Message: "the task changed too often to take the answers: try again"}
}

// taskAcknowledged is the answer of tasks/update and tasks/cancel: a
// complete result with nothing in it (decorate adds the server's _meta).
func taskAcknowledged() *tasksext.TaskAckResult {
	return &tasksext.TaskAckResult{ResultType: resultComplete}
}

// resultComplete is the resultType of a method's own result.
const resultComplete = "complete"

// maxUpdateAttempts bounds how often tasks/update reads a task again
// after another update won.
const maxUpdateAttempts = 8

// cancelTask answers the extension's tasks/cancel: the task becomes
// cancelled; cancelling a task that ended changes nothing and is answered
// alike.
func (s *Server) cancelTask(ctx context.Context, p *tasksext.TaskRequestParams) (*tasksext.TaskAckResult, error) {
	c, err := taskCall(ctx)
	if err != nil {
		return nil, err
	}
	r, owner := s.statelessTasksOf(ctx, c)
	if _, err := r.stop(ctx, owner, p.TaskID); err != nil && !errors.Is(err, errTaskEnded) {
		return nil, err
	}
	return taskAcknowledged(), nil
}
