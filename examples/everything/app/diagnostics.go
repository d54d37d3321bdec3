package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/schemarpc/schemarpc/mcp"
)

// The diagnostic tools of the 2026-07-28 server-stateless and http-custom-header
// scenarios: they exist so that the suite can provoke a behaviour (a missing client
// capability, a response stream, request-scoped logging, list changes, a mirrored
// header) by name.

// addDiagnosticTools registers the diagnostic tools; the triggers change the tool and
// prompt lists of s.
func addDiagnosticTools(s *mcp.Server) error {
	tools := []struct {
		tool    mcp.Tool
		handler mcp.ToolHandler
	}{
		{mcp.Tool{Name: "test_missing_capability", Description: "Needs the client's sampling capability: asks its model a question.",
			InputSchema: json.RawMessage(emptyObjectSchema)}, missingCapability},
		{mcp.Tool{Name: "test_streaming_elicitation", Description: "Asks the user for a confirmation while the call is in flight.",
			InputSchema: json.RawMessage(emptyObjectSchema)}, streamingElicitation},
		{mcp.Tool{Name: "test_logging_tool", Description: "Logs three messages about the call (only when the request asks for logs).",
			InputSchema: json.RawMessage(emptyObjectSchema)}, loggingTool},
		{mcp.Tool{Name: "test_header_region", Description: "Echoes its region argument, which clients mirror into the Mcp-Param-Region header.",
			InputSchema: json.RawMessage(regionSchema)}, headerRegion},
	}
	for _, t := range tools {
		if err := s.AddTool(&t.tool, t.handler); err != nil {
			return err
		}
	}
	return addTriggers(s)
}

// regionSchema has the one string property with an x-mcp-header annotation the
// http-custom-header-server-validation scenario looks for.
const regionSchema = `{
  "type": "object",
  "properties": {
    "region": {"type": "string", "description": "The region to report on", "x-mcp-header": "Region"}
  },
  "required": ["region"]
}`

// missingCapability asks the client's model a question. A stateless request that did
// not declare sampling gets -32021 naming {sampling: {}}; a session without sampling
// gets the error of the sampling request.
func missingCapability(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Sampled("answer")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"answer": askSampling("Say hello.", 20)}}
	}
	return textResult("The model answered: " + sampledText(res)), nil
}

// streamingElicitation asks for a confirmation. Stateless, the question travels as an
// input_required result on the call's own response, never as a request of its own.
func streamingElicitation(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Elicited("confirmation")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
			"confirmation": mcp.FormInput("Please confirm to continue", json.RawMessage(confirmForm)),
		}}
	}
	return textResult(fmt.Sprintf("Confirmation received: action=%s", res.Action)), nil
}

// loggingTool logs three messages about the call. A stateless request gets them only
// when its _meta asked for a log level; a session when its logging/setLevel allows.
func loggingTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	for _, m := range []string{"Logging tool started", "Logging tool working", "Logging tool finished"} {
		if err := req.Log(ctx, "info", "everything", m); err != nil {
			return nil, err
		}
	}
	return textResult("Logging tool done"), nil
}

// regionArgs are the arguments of test_header_region.
type regionArgs struct {
	Region string `json:"region"`
}

func headerRegion(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var in regionArgs
	if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
		return nil, err
	}
	return textResult("Region: " + in.Region), nil
}

// Triggers change a list without changing what it holds: each registers an entry again
// under its own name, so listeners hear of a change while tools/list and prompts/list
// keep the same names in the same order (the 2026-07-28 tools-list scenario compares two
// consecutive lists).
var (
	triggerToolChange   = mcp.Tool{Name: "test_trigger_tool_change", Description: "Changes the tool list: listeners get notifications/tools/list_changed.", InputSchema: json.RawMessage(emptyObjectSchema)}
	triggerPromptChange = mcp.Tool{Name: "test_trigger_prompt_change", Description: "Changes the prompt list: listeners get notifications/prompts/list_changed.", InputSchema: json.RawMessage(emptyObjectSchema)}
)

// addTriggers registers the two trigger tools of s.
func addTriggers(s *mcp.Server) error {
	var toolTrigger mcp.ToolHandler
	toolTrigger = func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		tool := triggerToolChange
		if err := s.AddTool(&tool, toolTrigger); err != nil {
			return nil, err
		}
		return textResult("The tool list changed."), nil
	}
	promptTrigger := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		p := simplePrompt
		if err := s.AddPrompt(&p, simplePromptHandler); err != nil {
			return nil, err
		}
		return textResult("The prompt list changed."), nil
	}
	tool := triggerToolChange
	if err := s.AddTool(&tool, toolTrigger); err != nil {
		return err
	}
	tool = triggerPromptChange
	return s.AddTool(&tool, promptTrigger)
}
