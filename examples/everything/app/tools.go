package app

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// step is the pause between the notifications of the logging and progress tools, so
// that a client sees them arrive one by one before the response.
const step = 50 * time.Millisecond

// addTools registers every tool the conformance scenarios call, by their exact names.
func addTools(s *mcp.Server) error {
	raw := []struct {
		tool    mcp.Tool
		handler mcp.ToolHandler
	}{
		{mcp.Tool{Name: "test_simple_text", Description: "Returns one text block."}, simpleText},
		{mcp.Tool{Name: "test_image_content", Description: "Returns one PNG image block."}, imageContent},
		{mcp.Tool{Name: "test_audio_content", Description: "Returns one WAV audio block."}, audioContent},
		{mcp.Tool{Name: "test_embedded_resource", Description: "Returns one embedded text resource."}, embeddedResource},
		{mcp.Tool{Name: "test_multiple_content_types", Description: "Returns text, an image and an embedded JSON resource."}, multipleContentTypes},
		{mcp.Tool{Name: "test_tool_with_logging", Description: "Sends three log messages while it runs."}, withLogging},
		{mcp.Tool{Name: "test_tool_with_progress", Description: "Reports progress 0, 50 and 100 of 100 while it runs."}, withProgress},
		{mcp.Tool{Name: "test_error_handling", Description: "Always fails: returns a result with isError set."}, errorHandling},
		{mcp.Tool{Name: "test_elicitation_sep1034_defaults", Description: "Asks the user for a form whose fields all have defaults (SEP-1034)."}, elicitDefaults},
		{mcp.Tool{Name: "test_elicitation_sep1330_enums", Description: "Asks the user for a form with every enum style (SEP-1330)."}, elicitEnums},
		{mcp.Tool{Name: "test_elicitation_url", Description: "Sends the user to a URL to finish an interaction out of band (URL-mode elicitation)."}, elicitURL},
		{mcp.Tool{Name: "test_list_roots", Description: "Asks the client for its roots and lists them."}, listRoots},
		{mcp.Tool{Name: "test_reconnection", Description: "Closes its SSE stream mid-call and answers after a pause, to test stream resumption."}, reconnection},
		{mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Takes arguments described by a JSON Schema 2020-12 document with $defs.",
			InputSchema: json.RawMessage(jsonSchema202012)}, echoArguments},
	}
	for _, t := range raw {
		if err := s.AddTool(&t.tool, t.handler); err != nil {
			return err
		}
	}
	if err := mcp.AddTool(s, &mcp.Tool{Name: "test_sampling", Description: "Asks the client's model to answer a prompt."}, sampling); err != nil {
		return err
	}
	if err := mcp.AddTool(s, &mcp.Tool{Name: "test_elicitation", Description: "Asks the user for a username and an email address."}, elicitation); err != nil {
		return err
	}
	if err := addInputRequiredTools(s); err != nil {
		return err
	}
	return addDiagnosticTools(s)
}

func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(s)}}
}

func simpleText(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return textResult(textSimple), nil
}

func imageBlock() mcp.ContentBlock {
	return mcp.ContentBlock{Value: mcp.ImageContent{Data: pngBase64, MIMEType: "image/png"}}
}

func imageContent(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{imageBlock()}}, nil
}

func audioContent(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	block := mcp.ContentBlock{Value: mcp.AudioContent{Data: wavBase64, MIMEType: "audio/wav"}}
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{block}}, nil
}

func embeddedResource(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	block := mcp.Embedded(mcp.TextResource(uriEmbedded, "text/plain", textEmbedded))
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{block}}, nil
}

func multipleContentTypes(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{
		mcp.Text("Multiple content types test:"),
		imageBlock(),
		mcp.Embedded(mcp.TextResource(uriMixedContent, "application/json", `{"test":"data","value":123}`)),
	}}, nil
}

// pause waits for d or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func withLogging(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	messages := []string{"Tool execution started", "Tool processing data", "Tool execution completed"}
	for i, m := range messages {
		if i > 0 {
			if err := pause(ctx, step); err != nil {
				return nil, err
			}
		}
		if err := req.Log(ctx, "info", "everything", m); err != nil {
			return nil, err
		}
	}
	return textResult("Tool with logging executed successfully"), nil
}

func withProgress(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	for i, p := range []float64{0, 50, 100} {
		if i > 0 {
			if err := pause(ctx, step); err != nil {
				return nil, err
			}
		}
		if err := req.Progress(ctx, p, 100, fmt.Sprintf("%v%% done", p)); err != nil {
			return nil, err
		}
	}
	return textResult("Tool with progress executed successfully"), nil
}

func errorHandling(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.ToolError(textToolFailure), nil
}

// reconnection works a moment, ends the POST stream it answers on (over Streamable
// HTTP, in a 2025-11-25 session: the only version that lets a server end a stream before
// its response), and answers after another pause: the client gets the result by resuming
// with GET and Last-Event-ID. Elsewhere it just pauses.
func reconnection(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if err := pause(ctx, step); err != nil {
		return nil, err
	}
	mcp.CloseSSEStream(ctx)
	if err := pause(ctx, 2*step); err != nil {
		return nil, err
	}
	return textResult("Reconnection test completed successfully"), nil
}

// jsonSchema202012 keeps $schema, $defs (with an $anchor), additionalProperties, the
// composition keywords allOf/anyOf and the conditional if/then/else, which the
// json-schema-2020-12 scenario (and SEP-2106 at 2026-07-28) expects to find in tools/list
// exactly as written.
const jsonSchema202012 = `{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {
    "address": {
      "$anchor": "addressDef",
      "type": "object",
      "properties": {
        "street": {"type": "string"},
        "city": {"type": "string"}
      }
    }
  },
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "additionalProperties": false,
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]}
}`

func echoArguments(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return textResult("Received arguments: " + string(req.Params.Arguments)), nil
}

// samplingArgs are the arguments of test_sampling.
type samplingArgs struct {
	Prompt string `json:"prompt" jsonschema:"the prompt to send to the client's model"`
}

func sampling(ctx context.Context, req *mcp.CallToolRequest, in samplingArgs) (*mcp.CallToolResult, any, error) {
	res, err := req.CreateMessage(ctx, &mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{
			Role:    "user",
			Content: mcp.SamplingMessageContent{Value: mcp.TextContent{Text: in.Prompt}},
		}},
		MaxTokens: 100,
	})
	if err != nil {
		return nil, nil, err
	}
	answer := "(no text)"
	if t, ok := res.Content.AsText(); ok {
		answer = t.Text
	}
	return textResult("LLM response: " + answer), nil, nil
}

// elicitationArgs are the arguments of test_elicitation.
type elicitationArgs struct {
	Message string `json:"message" jsonschema:"the message shown to the user"`
}

const userSchema = `{
  "type": "object",
  "properties": {
    "username": {"type": "string", "description": "Your username"},
    "email": {"type": "string", "description": "Your email address"}
  },
  "required": ["username", "email"]
}`

func elicitation(ctx context.Context, req *mcp.CallToolRequest, in elicitationArgs) (*mcp.CallToolResult, any, error) {
	res, err := elicitForm(ctx, req, in.Message, userSchema)
	return res, nil, err
}

const defaultsSchema = `{
  "type": "object",
  "properties": {
    "name": {"type": "string", "description": "User name", "default": "John Doe"},
    "age": {"type": "integer", "description": "User age", "default": 30},
    "score": {"type": "number", "description": "User score", "default": 95.5},
    "status": {"type": "string", "description": "User status", "enum": ["active", "inactive", "pending"], "default": "active"},
    "verified": {"type": "boolean", "description": "Verification status", "default": true}
  }
}`

func elicitDefaults(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return elicitForm(ctx, req, "Please review and update the form fields with defaults", defaultsSchema)
}

const enumsSchema = `{
  "type": "object",
  "properties": {
    "untitledSingle": {"type": "string", "description": "Choose one option", "enum": ["option1", "option2", "option3"]},
    "titledSingle": {"type": "string", "description": "Choose one titled option", "oneOf": [
      {"const": "value1", "title": "First Option"},
      {"const": "value2", "title": "Second Option"},
      {"const": "value3", "title": "Third Option"}
    ]},
    "legacyEnum": {"type": "string", "description": "Choose one (legacy enumNames)", "enum": ["opt1", "opt2", "opt3"],
      "enumNames": ["Option One", "Option Two", "Option Three"]},
    "untitledMulti": {"type": "array", "description": "Choose several options",
      "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
    "titledMulti": {"type": "array", "description": "Choose several titled options",
      "items": {"anyOf": [
        {"const": "value1", "title": "First Choice"},
        {"const": "value2", "title": "Second Choice"},
        {"const": "value3", "title": "Third Choice"}
      ]}}
  }
}`

func elicitEnums(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return elicitForm(ctx, req, "Please pick from the enum fields", enumsSchema)
}

func listRoots(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, err := req.ListRoots(ctx)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The client has %d root(s)", len(res.Roots))
	for _, r := range res.Roots {
		fmt.Fprintf(&b, "\n%s (%s)", r.URI, r.Name)
	}
	return textResult(b.String()), nil
}

// consentURL is the page test_elicitation_url sends the user to; nothing is served there.
const consentURL = "https://example.com/everything/consent"

func elicitURL(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	id := make([]byte, 8)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	res, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestURLParams{
		Mode:          "url",
		Message:       "Please open the page to give your consent",
		ElicitationID: hex.EncodeToString(id),
		URL:           consentURL,
	}})
	if err != nil {
		return nil, err
	}
	if res.Action == "accept" {
		// The consent page "finished" at once: say so, as URL mode asks.
		if err := req.ElicitationComplete(ctx, hex.EncodeToString(id)); err != nil {
			return nil, err
		}
	}
	return textResult(fmt.Sprintf("User response: action=%s", res.Action)), nil
}

// elicitForm asks the user to fill in the form described by schema and reports the answer.
func elicitForm(ctx context.Context, req *mcp.CallToolRequest, message, schema string) (*mcp.CallToolResult, error) {
	res, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{
		Message:         message,
		RequestedSchema: json.RawMessage(schema),
	}})
	if err != nil {
		return nil, err
	}
	content, err := json.Marshal(res.Content)
	if err != nil {
		return nil, err
	}
	return textResult(fmt.Sprintf("User response: action=%s, content=%s", res.Action, content)), nil
}

// dynamicTool is registered only after the server has run for a while, so that sessions
// see notifications/tools/list_changed and a longer list.
var dynamicTool = mcp.Tool{Name: "test_dynamic_tool", Description: "Appears some time after the server starts."}

// addDynamicToolAfter registers the dynamic tool once d has passed, unless ctx ends first.
func addDynamicToolAfter(ctx context.Context, s *mcp.Server, d time.Duration, logger *slog.Logger) {
	if err := pause(ctx, d); err != nil {
		return
	}
	if err := s.AddTool(&dynamicTool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return textResult("This tool was added while the server was running."), nil
	}); err != nil {
		logger.Error("cannot add the dynamic tool", "error", err)
	}
}
