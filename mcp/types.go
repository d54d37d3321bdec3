package mcp

import "github.com/schemarpc/schemarpc/mcp/v20251125"

// The protocol's types, as the 2025-11-25 bindings generated from
// schema/mcp/2025-11-25 define them. They are aliases: a value of one is a
// value of the other, and the documentation is on the v20251125 type.

type (
	// Annotations is [v20251125.Annotations].
	Annotations = v20251125.Annotations
	// AnyResourceContents is [v20251125.AnyResourceContents].
	AnyResourceContents = v20251125.AnyResourceContents
	// AnyResourceContentsVariant is [v20251125.AnyResourceContentsVariant].
	AnyResourceContentsVariant = v20251125.AnyResourceContentsVariant
	// AudioContent is [v20251125.AudioContent].
	AudioContent = v20251125.AudioContent
	// BlobResourceContents is [v20251125.BlobResourceContents].
	BlobResourceContents = v20251125.BlobResourceContents
	// CallToolOutcome is [v20251125.CallToolOutcome].
	CallToolOutcome = v20251125.CallToolOutcome
	// CallToolOutcomeVariant is [v20251125.CallToolOutcomeVariant].
	CallToolOutcomeVariant = v20251125.CallToolOutcomeVariant
	// CallToolRequestParams is [v20251125.CallToolRequestParams].
	CallToolRequestParams = v20251125.CallToolRequestParams
	// CallToolResult is [v20251125.CallToolResult].
	CallToolResult = v20251125.CallToolResult
	// CancelTaskRequestParams is [v20251125.CancelTaskRequestParams].
	CancelTaskRequestParams = v20251125.CancelTaskRequestParams
	// CancelTaskResult is [v20251125.CancelTaskResult].
	CancelTaskResult = v20251125.CancelTaskResult
	// CancelledNotificationParams is [v20251125.CancelledNotificationParams].
	CancelledNotificationParams = v20251125.CancelledNotificationParams
	// ClientCapabilities is [v20251125.ClientCapabilities].
	ClientCapabilities = v20251125.ClientCapabilities
	// ClientCapabilitiesElicitation is [v20251125.ClientCapabilitiesElicitation].
	ClientCapabilitiesElicitation = v20251125.ClientCapabilitiesElicitation
	// ClientCapabilitiesRoots is [v20251125.ClientCapabilitiesRoots].
	ClientCapabilitiesRoots = v20251125.ClientCapabilitiesRoots
	// ClientCapabilitiesSampling is [v20251125.ClientCapabilitiesSampling].
	ClientCapabilitiesSampling = v20251125.ClientCapabilitiesSampling
	// ClientCapabilitiesTasks is [v20251125.ClientCapabilitiesTasks].
	ClientCapabilitiesTasks = v20251125.ClientCapabilitiesTasks
	// ClientCapabilitiesTasksRequests is [v20251125.ClientCapabilitiesTasksRequests].
	ClientCapabilitiesTasksRequests = v20251125.ClientCapabilitiesTasksRequests
	// ClientCapabilitiesTasksRequestsElicitation is [v20251125.ClientCapabilitiesTasksRequestsElicitation].
	ClientCapabilitiesTasksRequestsElicitation = v20251125.ClientCapabilitiesTasksRequestsElicitation
	// ClientCapabilitiesTasksRequestsSampling is [v20251125.ClientCapabilitiesTasksRequestsSampling].
	ClientCapabilitiesTasksRequestsSampling = v20251125.ClientCapabilitiesTasksRequestsSampling
	// CompleteRequestParams is [v20251125.CompleteRequestParams].
	CompleteRequestParams = v20251125.CompleteRequestParams
	// CompleteRequestParamsArgument is [v20251125.CompleteRequestParamsArgument].
	CompleteRequestParamsArgument = v20251125.CompleteRequestParamsArgument
	// CompleteRequestParamsContext is [v20251125.CompleteRequestParamsContext].
	CompleteRequestParamsContext = v20251125.CompleteRequestParamsContext
	// CompleteRequestParamsRef is [v20251125.CompleteRequestParamsRef].
	CompleteRequestParamsRef = v20251125.CompleteRequestParamsRef
	// CompleteRequestParamsRefVariant is [v20251125.CompleteRequestParamsRefVariant].
	CompleteRequestParamsRefVariant = v20251125.CompleteRequestParamsRefVariant
	// CompleteResult is [v20251125.CompleteResult].
	CompleteResult = v20251125.CompleteResult
	// CompleteResultCompletion is [v20251125.CompleteResultCompletion].
	CompleteResultCompletion = v20251125.CompleteResultCompletion
	// ContentBlock is [v20251125.ContentBlock].
	ContentBlock = v20251125.ContentBlock
	// ContentBlockVariant is [v20251125.ContentBlockVariant].
	ContentBlockVariant = v20251125.ContentBlockVariant
	// CreateMessageRequestParams is [v20251125.CreateMessageRequestParams].
	CreateMessageRequestParams = v20251125.CreateMessageRequestParams
	// CreateMessageRequestParamsIncludeContext is [v20251125.CreateMessageRequestParamsIncludeContext].
	CreateMessageRequestParamsIncludeContext = v20251125.CreateMessageRequestParamsIncludeContext
	// CreateMessageResult is [v20251125.CreateMessageResult].
	CreateMessageResult = v20251125.CreateMessageResult
	// CreateMessageResultContent is [v20251125.CreateMessageResultContent].
	CreateMessageResultContent = v20251125.CreateMessageResultContent
	// CreateMessageResultContentArray is [v20251125.CreateMessageResultContentArray].
	CreateMessageResultContentArray = v20251125.CreateMessageResultContentArray
	// CreateMessageResultContentVariant is [v20251125.CreateMessageResultContentVariant].
	CreateMessageResultContentVariant = v20251125.CreateMessageResultContentVariant
	// CreateTaskResult is [v20251125.CreateTaskResult].
	CreateTaskResult = v20251125.CreateTaskResult
	// Cursor is [v20251125.Cursor].
	Cursor = v20251125.Cursor
	// ElicitRequestFormParams is [v20251125.ElicitRequestFormParams].
	ElicitRequestFormParams = v20251125.ElicitRequestFormParams
	// ElicitRequestParams is [v20251125.ElicitRequestParams].
	ElicitRequestParams = v20251125.ElicitRequestParams
	// ElicitRequestParamsVariant is [v20251125.ElicitRequestParamsVariant].
	ElicitRequestParamsVariant = v20251125.ElicitRequestParamsVariant
	// ElicitRequestURLParams is [v20251125.ElicitRequestURLParams].
	ElicitRequestURLParams = v20251125.ElicitRequestURLParams
	// ElicitResult is [v20251125.ElicitResult].
	ElicitResult = v20251125.ElicitResult
	// ElicitResultAction is [v20251125.ElicitResultAction].
	ElicitResultAction = v20251125.ElicitResultAction
	// ElicitResultContentValue is [v20251125.ElicitResultContentValue].
	ElicitResultContentValue = v20251125.ElicitResultContentValue
	// ElicitResultContentValueArray is [v20251125.ElicitResultContentValueArray].
	ElicitResultContentValueArray = v20251125.ElicitResultContentValueArray
	// ElicitResultContentValueBoolean is [v20251125.ElicitResultContentValueBoolean].
	ElicitResultContentValueBoolean = v20251125.ElicitResultContentValueBoolean
	// ElicitResultContentValueNumber is [v20251125.ElicitResultContentValueNumber].
	ElicitResultContentValueNumber = v20251125.ElicitResultContentValueNumber
	// ElicitResultContentValueString is [v20251125.ElicitResultContentValueString].
	ElicitResultContentValueString = v20251125.ElicitResultContentValueString
	// ElicitResultContentValueVariant is [v20251125.ElicitResultContentValueVariant].
	ElicitResultContentValueVariant = v20251125.ElicitResultContentValueVariant
	// ElicitationCompleteNotificationParams is [v20251125.ElicitationCompleteNotificationParams].
	ElicitationCompleteNotificationParams = v20251125.ElicitationCompleteNotificationParams
	// EmbeddedResource is [v20251125.EmbeddedResource].
	EmbeddedResource = v20251125.EmbeddedResource
	// EmptyResult is [v20251125.EmptyResult].
	EmptyResult = v20251125.EmptyResult
	// GetPromptRequestParams is [v20251125.GetPromptRequestParams].
	GetPromptRequestParams = v20251125.GetPromptRequestParams
	// GetPromptResult is [v20251125.GetPromptResult].
	GetPromptResult = v20251125.GetPromptResult
	// GetTaskPayloadRequestParams is [v20251125.GetTaskPayloadRequestParams].
	GetTaskPayloadRequestParams = v20251125.GetTaskPayloadRequestParams
	// GetTaskPayloadResult is [v20251125.GetTaskPayloadResult].
	GetTaskPayloadResult = v20251125.GetTaskPayloadResult
	// GetTaskRequestParams is [v20251125.GetTaskRequestParams].
	GetTaskRequestParams = v20251125.GetTaskRequestParams
	// GetTaskResult is [v20251125.GetTaskResult].
	GetTaskResult = v20251125.GetTaskResult
	// Icon is [v20251125.Icon].
	Icon = v20251125.Icon
	// IconTheme is [v20251125.IconTheme].
	IconTheme = v20251125.IconTheme
	// ImageContent is [v20251125.ImageContent].
	ImageContent = v20251125.ImageContent
	// Implementation is [v20251125.Implementation].
	Implementation = v20251125.Implementation
	// InitializeRequestParams is [v20251125.InitializeRequestParams].
	InitializeRequestParams = v20251125.InitializeRequestParams
	// InitializeResult is [v20251125.InitializeResult].
	InitializeResult = v20251125.InitializeResult
	// ListPromptsResult is [v20251125.ListPromptsResult].
	ListPromptsResult = v20251125.ListPromptsResult
	// ListResourceTemplatesResult is [v20251125.ListResourceTemplatesResult].
	ListResourceTemplatesResult = v20251125.ListResourceTemplatesResult
	// ListResourcesResult is [v20251125.ListResourcesResult].
	ListResourcesResult = v20251125.ListResourcesResult
	// ListRootsResult is [v20251125.ListRootsResult].
	ListRootsResult = v20251125.ListRootsResult
	// ListTasksResult is [v20251125.ListTasksResult].
	ListTasksResult = v20251125.ListTasksResult
	// ListToolsResult is [v20251125.ListToolsResult].
	ListToolsResult = v20251125.ListToolsResult
	// LoggingLevel is [v20251125.LoggingLevel].
	LoggingLevel = v20251125.LoggingLevel
	// LoggingMessageNotificationParams is [v20251125.LoggingMessageNotificationParams].
	LoggingMessageNotificationParams = v20251125.LoggingMessageNotificationParams
	// Meta is [v20251125.Meta].
	Meta = v20251125.Meta
	// ModelHint is [v20251125.ModelHint].
	ModelHint = v20251125.ModelHint
	// ModelPreferences is [v20251125.ModelPreferences].
	ModelPreferences = v20251125.ModelPreferences
	// NotificationParams is [v20251125.NotificationParams].
	NotificationParams = v20251125.NotificationParams
	// PaginatedRequestParams is [v20251125.PaginatedRequestParams].
	PaginatedRequestParams = v20251125.PaginatedRequestParams
	// ProgressNotificationParams is [v20251125.ProgressNotificationParams].
	ProgressNotificationParams = v20251125.ProgressNotificationParams
	// ProgressToken is [v20251125.ProgressToken].
	ProgressToken = v20251125.ProgressToken
	// ProgressTokenInteger is [v20251125.ProgressTokenInteger].
	ProgressTokenInteger = v20251125.ProgressTokenInteger
	// ProgressTokenString is [v20251125.ProgressTokenString].
	ProgressTokenString = v20251125.ProgressTokenString
	// ProgressTokenVariant is [v20251125.ProgressTokenVariant].
	ProgressTokenVariant = v20251125.ProgressTokenVariant
	// Prompt is [v20251125.Prompt].
	Prompt = v20251125.Prompt
	// PromptArgument is [v20251125.PromptArgument].
	PromptArgument = v20251125.PromptArgument
	// PromptMessage is [v20251125.PromptMessage].
	PromptMessage = v20251125.PromptMessage
	// PromptReference is [v20251125.PromptReference].
	PromptReference = v20251125.PromptReference
	// ReadResourceRequestParams is [v20251125.ReadResourceRequestParams].
	ReadResourceRequestParams = v20251125.ReadResourceRequestParams
	// ReadResourceResult is [v20251125.ReadResourceResult].
	ReadResourceResult = v20251125.ReadResourceResult
	// RequestID is [v20251125.RequestID].
	RequestID = v20251125.RequestID
	// RequestMeta is [v20251125.RequestMeta].
	RequestMeta = v20251125.RequestMeta
	// RequestParams is [v20251125.RequestParams].
	RequestParams = v20251125.RequestParams
	// Resource is [v20251125.Resource].
	Resource = v20251125.Resource
	// ResourceLink is [v20251125.ResourceLink].
	ResourceLink = v20251125.ResourceLink
	// ResourceTemplate is [v20251125.ResourceTemplate].
	ResourceTemplate = v20251125.ResourceTemplate
	// ResourceTemplateReference is [v20251125.ResourceTemplateReference].
	ResourceTemplateReference = v20251125.ResourceTemplateReference
	// ResourceUpdatedNotificationParams is [v20251125.ResourceUpdatedNotificationParams].
	ResourceUpdatedNotificationParams = v20251125.ResourceUpdatedNotificationParams
	// Result is [v20251125.Result].
	Result = v20251125.Result
	// Role is [v20251125.Role].
	Role = v20251125.Role
	// Root is [v20251125.Root].
	Root = v20251125.Root
	// SamplingMessage is [v20251125.SamplingMessage].
	SamplingMessage = v20251125.SamplingMessage
	// SamplingMessageContent is [v20251125.SamplingMessageContent].
	SamplingMessageContent = v20251125.SamplingMessageContent
	// SamplingMessageContentArray is [v20251125.SamplingMessageContentArray].
	SamplingMessageContentArray = v20251125.SamplingMessageContentArray
	// SamplingMessageContentBlock is [v20251125.SamplingMessageContentBlock].
	SamplingMessageContentBlock = v20251125.SamplingMessageContentBlock
	// SamplingMessageContentBlockVariant is [v20251125.SamplingMessageContentBlockVariant].
	SamplingMessageContentBlockVariant = v20251125.SamplingMessageContentBlockVariant
	// SamplingMessageContentVariant is [v20251125.SamplingMessageContentVariant].
	SamplingMessageContentVariant = v20251125.SamplingMessageContentVariant
	// ServerCapabilities is [v20251125.ServerCapabilities].
	ServerCapabilities = v20251125.ServerCapabilities
	// ServerCapabilitiesPrompts is [v20251125.ServerCapabilitiesPrompts].
	ServerCapabilitiesPrompts = v20251125.ServerCapabilitiesPrompts
	// ServerCapabilitiesResources is [v20251125.ServerCapabilitiesResources].
	ServerCapabilitiesResources = v20251125.ServerCapabilitiesResources
	// ServerCapabilitiesTasks is [v20251125.ServerCapabilitiesTasks].
	ServerCapabilitiesTasks = v20251125.ServerCapabilitiesTasks
	// ServerCapabilitiesTasksRequests is [v20251125.ServerCapabilitiesTasksRequests].
	ServerCapabilitiesTasksRequests = v20251125.ServerCapabilitiesTasksRequests
	// ServerCapabilitiesTasksRequestsTools is [v20251125.ServerCapabilitiesTasksRequestsTools].
	ServerCapabilitiesTasksRequestsTools = v20251125.ServerCapabilitiesTasksRequestsTools
	// ServerCapabilitiesTools is [v20251125.ServerCapabilitiesTools].
	ServerCapabilitiesTools = v20251125.ServerCapabilitiesTools
	// SetLevelRequestParams is [v20251125.SetLevelRequestParams].
	SetLevelRequestParams = v20251125.SetLevelRequestParams
	// SubscribeRequestParams is [v20251125.SubscribeRequestParams].
	SubscribeRequestParams = v20251125.SubscribeRequestParams
	// Task is [v20251125.Task].
	Task = v20251125.Task
	// TaskMetadata is [v20251125.TaskMetadata].
	TaskMetadata = v20251125.TaskMetadata
	// TaskStatus is [v20251125.TaskStatus].
	TaskStatus = v20251125.TaskStatus
	// TaskStatusNotificationParams is [v20251125.TaskStatusNotificationParams].
	TaskStatusNotificationParams = v20251125.TaskStatusNotificationParams
	// TextContent is [v20251125.TextContent].
	TextContent = v20251125.TextContent
	// TextResourceContents is [v20251125.TextResourceContents].
	TextResourceContents = v20251125.TextResourceContents
	// Tool is [v20251125.Tool].
	Tool = v20251125.Tool
	// ToolAnnotations is [v20251125.ToolAnnotations].
	ToolAnnotations = v20251125.ToolAnnotations
	// ToolChoice is [v20251125.ToolChoice].
	ToolChoice = v20251125.ToolChoice
	// ToolChoiceMode is [v20251125.ToolChoiceMode].
	ToolChoiceMode = v20251125.ToolChoiceMode
	// ToolExecution is [v20251125.ToolExecution].
	ToolExecution = v20251125.ToolExecution
	// ToolExecutionTaskSupport is [v20251125.ToolExecutionTaskSupport].
	ToolExecutionTaskSupport = v20251125.ToolExecutionTaskSupport
	// ToolResultContent is [v20251125.ToolResultContent].
	ToolResultContent = v20251125.ToolResultContent
	// ToolSchema is [v20251125.ToolSchema].
	ToolSchema = v20251125.ToolSchema
	// ToolUseContent is [v20251125.ToolUseContent].
	ToolUseContent = v20251125.ToolUseContent
	// UnknownAnyResourceContents is [v20251125.UnknownAnyResourceContents].
	UnknownAnyResourceContents = v20251125.UnknownAnyResourceContents
	// UnknownCallToolOutcome is [v20251125.UnknownCallToolOutcome].
	UnknownCallToolOutcome = v20251125.UnknownCallToolOutcome
	// UnknownCompleteRequestParamsRef is [v20251125.UnknownCompleteRequestParamsRef].
	UnknownCompleteRequestParamsRef = v20251125.UnknownCompleteRequestParamsRef
	// UnknownContentBlock is [v20251125.UnknownContentBlock].
	UnknownContentBlock = v20251125.UnknownContentBlock
	// UnknownCreateMessageResultContent is [v20251125.UnknownCreateMessageResultContent].
	UnknownCreateMessageResultContent = v20251125.UnknownCreateMessageResultContent
	// UnknownElicitRequestParams is [v20251125.UnknownElicitRequestParams].
	UnknownElicitRequestParams = v20251125.UnknownElicitRequestParams
	// UnknownElicitResultContentValue is [v20251125.UnknownElicitResultContentValue].
	UnknownElicitResultContentValue = v20251125.UnknownElicitResultContentValue
	// UnknownProgressToken is [v20251125.UnknownProgressToken].
	UnknownProgressToken = v20251125.UnknownProgressToken
	// UnknownSamplingMessageContent is [v20251125.UnknownSamplingMessageContent].
	UnknownSamplingMessageContent = v20251125.UnknownSamplingMessageContent
	// UnknownSamplingMessageContentBlock is [v20251125.UnknownSamplingMessageContentBlock].
	UnknownSamplingMessageContentBlock = v20251125.UnknownSamplingMessageContentBlock
	// UnsubscribeRequestParams is [v20251125.UnsubscribeRequestParams].
	UnsubscribeRequestParams = v20251125.UnsubscribeRequestParams
)

// The protocol's enumerated values, as constants of the aliased types.
const (
	CreateMessageRequestParamsIncludeContextAllServers = v20251125.CreateMessageRequestParamsIncludeContextAllServers
	CreateMessageRequestParamsIncludeContextNone       = v20251125.CreateMessageRequestParamsIncludeContextNone
	CreateMessageRequestParamsIncludeContextThisServer = v20251125.CreateMessageRequestParamsIncludeContextThisServer
	ElicitResultActionAccept                           = v20251125.ElicitResultActionAccept
	ElicitResultActionCancel                           = v20251125.ElicitResultActionCancel
	ElicitResultActionDecline                          = v20251125.ElicitResultActionDecline
	IconThemeDark                                      = v20251125.IconThemeDark
	IconThemeLight                                     = v20251125.IconThemeLight
	LoggingLevelAlert                                  = v20251125.LoggingLevelAlert
	LoggingLevelCritical                               = v20251125.LoggingLevelCritical
	LoggingLevelDebug                                  = v20251125.LoggingLevelDebug
	LoggingLevelEmergency                              = v20251125.LoggingLevelEmergency
	LoggingLevelError                                  = v20251125.LoggingLevelError
	LoggingLevelInfo                                   = v20251125.LoggingLevelInfo
	LoggingLevelNotice                                 = v20251125.LoggingLevelNotice
	LoggingLevelWarning                                = v20251125.LoggingLevelWarning
	RoleAssistant                                      = v20251125.RoleAssistant
	RoleUser                                           = v20251125.RoleUser
	TaskStatusCancelled                                = v20251125.TaskStatusCancelled
	TaskStatusCompleted                                = v20251125.TaskStatusCompleted
	TaskStatusFailed                                   = v20251125.TaskStatusFailed
	TaskStatusInputRequired                            = v20251125.TaskStatusInputRequired
	TaskStatusWorking                                  = v20251125.TaskStatusWorking
	ToolChoiceModeAuto                                 = v20251125.ToolChoiceModeAuto
	ToolChoiceModeNone                                 = v20251125.ToolChoiceModeNone
	ToolChoiceModeRequired                             = v20251125.ToolChoiceModeRequired
	ToolExecutionTaskSupportForbidden                  = v20251125.ToolExecutionTaskSupportForbidden
	ToolExecutionTaskSupportOptional                   = v20251125.ToolExecutionTaskSupportOptional
	ToolExecutionTaskSupportRequired                   = v20251125.ToolExecutionTaskSupportRequired
)
