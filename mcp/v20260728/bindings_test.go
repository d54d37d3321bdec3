package v20260728_test

import (
	mcp "github.com/schemarpc/schemarpc/mcp/v20260728"
)

// binding holds constructors of the Go types of one method's params and
// result.
type binding struct {
	params func() any
	result func() any // nil for notifications
}

// bindings maps every method of the index to its generated types.
var bindings = map[string]binding{
	mcp.MethodServerDiscover:                         {func() any { return new(mcp.RequestParams) }, func() any { return new(mcp.DiscoverResult) }},
	mcp.MethodToolsList:                              {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListToolsResult) }},
	mcp.MethodToolsCall:                              {func() any { return new(mcp.CallToolRequestParams) }, func() any { return new(mcp.CallToolOutcome) }},
	mcp.MethodResourcesList:                          {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListResourcesResult) }},
	mcp.MethodResourcesTemplatesList:                 {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListResourceTemplatesResult) }},
	mcp.MethodResourcesRead:                          {func() any { return new(mcp.ReadResourceRequestParams) }, func() any { return new(mcp.ReadResourceOutcome) }},
	mcp.MethodPromptsList:                            {func() any { return new(mcp.PaginatedRequestParams) }, func() any { return new(mcp.ListPromptsResult) }},
	mcp.MethodPromptsGet:                             {func() any { return new(mcp.GetPromptRequestParams) }, func() any { return new(mcp.GetPromptOutcome) }},
	mcp.MethodCompletionComplete:                     {func() any { return new(mcp.CompleteRequestParams) }, func() any { return new(mcp.CompleteResult) }},
	mcp.MethodSubscriptionsListen:                    {func() any { return new(mcp.SubscriptionsListenRequestParams) }, func() any { return new(mcp.SubscriptionsListenResult) }},
	mcp.MethodNotificationsCancelled:                 {func() any { return new(mcp.CancelledNotificationParams) }, nil},
	mcp.MethodNotificationsProgress:                  {func() any { return new(mcp.ProgressNotificationParams) }, nil},
	mcp.MethodNotificationsMessage:                   {func() any { return new(mcp.LoggingMessageNotificationParams) }, nil},
	mcp.MethodNotificationsSubscriptionsAcknowledged: {func() any { return new(mcp.SubscriptionsAcknowledgedNotificationParams) }, nil},
	mcp.MethodNotificationsToolsListChanged:          {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsPromptsListChanged:        {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsResourcesListChanged:      {func() any { return new(mcp.NotificationParams) }, nil},
	mcp.MethodNotificationsResourcesUpdated:          {func() any { return new(mcp.ResourceUpdatedNotificationParams) }, nil},
}
