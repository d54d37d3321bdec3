package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/schemarpc/schemarpc/mcp"
)

// newServer returns the ask server with its one tool, logging to logger.
func newServer(logger *slog.Logger) (*mcp.Server, error) {
	s := mcp.NewServer(&mcp.Implementation{Name: "ask", Version: "1.0.0"}, &mcp.ServerOptions{Logger: logger})
	err := mcp.AddTool(s, &mcp.Tool{Name: "plan_trip", Description: "Plans a trip: asks the user's preferences and the client's model for an idea."}, planTrip)
	return s, err
}

// tripArgs are the arguments of plan_trip.
type tripArgs struct {
	Destination string `json:"destination" jsonschema:"where the trip goes"`
}

// preferencesForm is the form the user fills in.
const preferencesForm = `{
  "type": "object",
  "properties": {
    "nights": {"type": "integer", "minimum": 1, "description": "How many nights"},
    "budget": {"type": "string", "enum": ["low", "medium", "high"], "default": "medium", "description": "How much to spend"}
  },
  "required": ["nights"]
}`

// preferences are the user's answers to preferencesForm.
type preferences struct {
	Nights int    `json:"nights"`
	Budget string `json:"budget"`
}

// planTrip logs, asks the user for their preferences, asks the client's model for an
// idea, and answers with both. It never looks at the protocol version: the Request's
// methods do what the request's era asks.
func planTrip(ctx context.Context, req *mcp.CallToolRequest, in tripArgs) (*mcp.CallToolResult, any, error) {
	if err := req.Log(ctx, "info", "ask", "planning a trip to "+in.Destination); err != nil {
		return nil, nil, err
	}
	answer, err := req.Elicit(ctx, &mcp.ElicitRequestParams{Value: mcp.ElicitRequestFormParams{
		Message:         "How would you like to travel to " + in.Destination + "?",
		RequestedSchema: json.RawMessage(preferencesForm),
	}})
	if err != nil {
		return nil, nil, err
	}
	if answer.Action != "accept" {
		return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text("No trip planned: the user chose to " + string(answer.Action) + ".")}}, nil, nil
	}
	var prefs preferences
	raw, err := json.Marshal(answer.Content)
	if err != nil {
		return nil, nil, err
	}
	if err := json.Unmarshal(raw, &prefs); err != nil {
		return nil, nil, fmt.Errorf("reading the preferences: %w", err)
	}
	idea, err := req.CreateMessage(ctx, &mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{Role: "user", Content: mcp.SamplingMessageContent{Value: mcp.TextContent{
			Text: fmt.Sprintf("Suggest one thing to do in %s during %d nights on a %s budget.", in.Destination, prefs.Nights, prefs.Budget),
		}}}},
		MaxTokens: 200,
	})
	if err != nil {
		return nil, nil, err
	}
	text := "(the model answered with something other than text)"
	if t, ok := idea.Content.AsText(); ok {
		text = t.Text
	}
	if err := req.Log(ctx, "info", "ask", "trip planned"); err != nil {
		return nil, nil, err
	}
	summary := fmt.Sprintf("Trip to %s: %d nights, %s budget. Idea: %s", in.Destination, prefs.Nights, prefs.Budget, text)
	return &mcp.CallToolResult{Content: []mcp.ContentBlock{mcp.Text(summary)}}, nil, nil
}
