package v20251125_test

import (
	mcp "github.com/schemarpc/schemarpc/mcp/v20251125"
)

// binding holds constructors of the Go types of one method's params and
// result.
type binding struct {
	params func() any
	result func() any // nil for notifications
}

// bindings maps every method of the index to its generated types.
var bindings = map[string]binding{
	mcp.MethodInitialize:                        {func() any { return new(mcp.InitializeRequestParams) }, func() any { return new(mcp.InitializeResult) }},
	mcp.MethodNotificationsInitialized:          {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodPing:                              {func() any { return new(mcp.RequestParams) }, func() any { return new(mcp.EmptyResult) }},
	mcp.MethodToolsList:                         {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListToolsResult) }},
	mcp.MethodToolsCall:                         {func() any { return new(mcp.CallToolRequestParams) }, func() any { return new(mcp.CallToolOutcome) }},
	mcp.MethodResourcesList:                     {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListResourcesResult) }},
	mcp.MethodResourcesTemplatesList:            {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListResourceTemplatesResult) }},
	mcp.MethodResourcesRead:                     {func() any { return new(mcp.ReadResourceRequestParams) }, func() any { return new(mcp.ReadResourceResult) }},
	mcp.MethodResourcesSubscribe:                {func() any { return new(mcp.SubscribeRequestParams) }, func() any { return new(mcp.EmptyResult) }},
	mcp.MethodResourcesUnsubscribe:              {func() any { return new(mcp.UnsubscribeRequestParams) }, func() any { return new(mcp.EmptyResult) }},
	mcp.MethodPromptsList:                       {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListPromptsResult) }},
	mcp.MethodPromptsGet:                        {func() any { return new(mcp.GetPromptRequestParams) }, func() any { return new(mcp.GetPromptResult) }},
	mcp.MethodCompletionComplete:                {func() any { return new(mcp.CompleteRequestParams) }, func() any { return new(mcp.CompleteResult) }},
	mcp.MethodLoggingSetLevel:                   {func() any { return new(mcp.SetLevelRequestParams) }, func() any { return new(mcp.EmptyResult) }},
	mcp.MethodSamplingCreateMessage:             {func() any { return new(mcp.CreateMessageRequestParams) }, func() any { return new(mcp.CreateMessageResult) }},
	mcp.MethodElicitationCreate:                 {func() any { return new(mcp.ElicitRequestParams) }, func() any { return new(mcp.ElicitResult) }},
	mcp.MethodRootsList:                         {func() any { return new(mcp.RequestParams) }, func() any { return new(mcp.ListRootsResult) }},
	mcp.MethodTasksGet:                          {func() any { return new(mcp.GetTaskRequestParams) }, func() any { return new(mcp.GetTaskResult) }},
	mcp.MethodTasksResult:                       {func() any { return new(mcp.GetTaskPayloadRequestParams) }, func() any { return new(mcp.GetTaskPayloadResult) }},
	mcp.MethodTasksList:                         {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListTasksResult) }},
	mcp.MethodTasksCancel:                       {func() any { return new(mcp.CancelTaskRequestParams) }, func() any { return new(mcp.CancelTaskResult) }},
	mcp.MethodNotificationsCancelled:            {func() any { return new(mcp.CancelledNotificationParams) }, nil},
	mcp.MethodNotificationsProgress:             {func() any { return new(mcp.ProgressNotificationParams) }, nil},
	mcp.MethodNotificationsMessage:              {func() any { return new(mcp.LoggingMessageNotificationParams) }, nil},
	mcp.MethodNotificationsToolsListChanged:     {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsPromptsListChanged:   {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsResourcesListChanged: {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsResourcesUpdated:     {func() any { return new(mcp.ResourceUpdatedNotificationParams) }, nil},
	mcp.MethodNotificationsRootsListChanged:     {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsElicitationComplete:  {func() any { return new(mcp.ElicitationCompleteNotificationParams) }, nil},
	mcp.MethodNotificationsTasksStatus:          {func() any { return new(mcp.TaskStatusNotificationParams) }, nil},
}
