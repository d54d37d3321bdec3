package mcp

import (
	"context"

	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
)

// tasksService implements the generated server interface of the 2026-07-28
// tasks extension: the generated code validates params against the
// extension's schema (schema/mcp/extensions/tasks) and decodes them;
// tasksService runs the request on the server's tasks and makes its result
// what the stateless protocol sends (statelessResult), read back into the
// generated type.
type tasksService struct {
	tasksext.UnimplementedTasksServer
	s *Server
}

func (v tasksService) TasksGet(ctx context.Context, p *tasksext.TaskRequestParams) (*tasksext.GetTaskResult, error) {
	return decodeResult[tasksext.GetTaskResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.getTask(ctx, p)
	}))
}

func (v tasksService) TasksUpdate(ctx context.Context, p *tasksext.UpdateTaskRequestParams) (*tasksext.TaskAckResult, error) {
	return decodeResult[tasksext.TaskAckResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.updateTask(ctx, p)
	}))
}

func (v tasksService) TasksCancel(ctx context.Context, p *tasksext.TaskRequestParams) (*tasksext.TaskAckResult, error) {
	return decodeResult[tasksext.TaskAckResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.cancelTask(ctx, p)
	}))
}
