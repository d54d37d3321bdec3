package mcp

import (
	"context"
	"encoding/json"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// service implements the generated server interface of 2025-11-25: the
// generated code validates params against the schema and decodes them;
// service finds the session and hands the call to the feature that owns it.
type service struct {
	v20251125.UnimplementedMCPServer
	s *Server
}

// handshakeRouter returns the server's router with every method of the
// handshake era on it. The generated bindings are registered at the first
// handshake message rather than by NewServer, as the stateless router is at
// the first stateless one (statelessRouter): a process that serves one era
// does not run, nor keep, the other's registrations.
func (s *Server) handshakeRouter() *rpc.Router {
	s.handshakeOnce.Do(func() { v20251125.RegisterMCPServer(s.router, service{s: s}) })
	return s.router
}

// session returns the session of a call; the session's handler always
// puts it in the context.
func session(ctx context.Context) *ServerSession { return SessionFromContext(ctx) }

// emptyResult is the result of ping, logging/setLevel, resources/subscribe
// and resources/unsubscribe: exactly {}.
func emptyResult() *EmptyResult { return &EmptyResult{} }

func (v service) Initialize(ctx context.Context, p *InitializeRequestParams) (*InitializeResult, error) {
	return session(ctx).initialize(ctx, p)
}

func (v service) NotificationsInitialized(context.Context, *NotificationParams) error { return nil }

func (v service) Ping(context.Context, *RequestParams) (*EmptyResult, error) {
	return emptyResult(), nil
}

func (v service) ToolsList(ctx context.Context, p *PaginatedRequestParams) (*ListToolsResult, error) {
	return v.s.listTools(ctx, session(ctx), p)
}

func (v service) ToolsCall(ctx context.Context, p *CallToolRequestParams) (*CallToolOutcome, error) {
	return v.s.callTool(ctx, session(ctx), p)
}

func (v service) ResourcesList(ctx context.Context, p *PaginatedRequestParams) (*ListResourcesResult, error) {
	return v.s.listResources(ctx, session(ctx), p)
}

func (v service) ResourcesTemplatesList(ctx context.Context, p *PaginatedRequestParams) (*ListResourceTemplatesResult, error) {
	return v.s.listTemplates(ctx, session(ctx), p)
}

func (v service) ResourcesRead(ctx context.Context, p *ReadResourceRequestParams) (*ReadResourceResult, error) {
	return v.s.readResource(ctx, session(ctx), p)
}

func (v service) ResourcesSubscribe(ctx context.Context, p *SubscribeRequestParams) (*EmptyResult, error) {
	session(ctx).subscribe(p.URI, true)
	return emptyResult(), nil
}

func (v service) ResourcesUnsubscribe(ctx context.Context, p *UnsubscribeRequestParams) (*EmptyResult, error) {
	session(ctx).subscribe(p.URI, false)
	return emptyResult(), nil
}

func (v service) PromptsList(ctx context.Context, p *PaginatedRequestParams) (*ListPromptsResult, error) {
	return v.s.listPrompts(ctx, session(ctx), p)
}

func (v service) PromptsGet(ctx context.Context, p *GetPromptRequestParams) (*GetPromptResult, error) {
	return v.s.getPrompt(ctx, session(ctx), p)
}

func (v service) CompletionComplete(ctx context.Context, p *CompleteRequestParams) (*CompleteResult, error) {
	return v.s.completeArgument(ctx, session(ctx), p)
}

func (v service) LoggingSetLevel(ctx context.Context, p *SetLevelRequestParams) (*EmptyResult, error) {
	if err := session(ctx).setLogLevel(p.Level); err != nil {
		return nil, err
	}
	return emptyResult(), nil
}

func (v service) TasksGet(ctx context.Context, p *GetTaskRequestParams) (*GetTaskResult, error) {
	ss := session(ctx)
	return ss.taskRunner().get(ctx, ss, p.TaskID)
}

func (v service) TasksResult(ctx context.Context, p *GetTaskPayloadRequestParams) (*GetTaskPayloadResult, error) {
	ss := session(ctx)
	return ss.taskRunner().result(ctx, ss, p.TaskID)
}

func (v service) TasksList(ctx context.Context, p *PaginatedRequestParams) (*ListTasksResult, error) {
	ss := session(ctx)
	return ss.taskRunner().list(ctx, ss, p.Cursor, v.s.opts.PageSize)
}

func (v service) TasksCancel(ctx context.Context, p *CancelTaskRequestParams) (*CancelTaskResult, error) {
	ss := session(ctx)
	return ss.taskRunner().cancel(ctx, ss, p.TaskID)
}

// The notifications below are handled by the session before they reach
// the router (cancellation, roots); these only complete the interface.

func (v service) NotificationsCancelled(context.Context, *CancelledNotificationParams) error {
	return nil
}

func (v service) NotificationsProgress(context.Context, *ProgressNotificationParams) error {
	return nil
}

func (v service) NotificationsRootsListChanged(context.Context, *NotificationParams) error {
	return nil
}

func (v service) NotificationsTasksStatus(context.Context, *TaskStatusNotificationParams) error {
	return nil
}

// rawJSON marshals v, which is always one of our own encodable types.
func rawJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("mcp: cannot encode " + err.Error())
	}
	return b
}

var _ rpc.Handler = (*ServerSession)(nil)
