package app

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/schemarpc/schemarpc/mcp"
)

// The multi-round-trip tools and prompt of the 2026-07-28 input-required-result
// scenarios. Each handler asks for what it needs by returning *mcp.InputRequired and
// reads the answers of the next round with req.Elicited, req.Sampled, req.Roots and
// req.State. In a stateless request the client answers and retries; in a handshake
// session the server asks the client itself and calls the handler again, so the same
// tools serve both eras.

// The forms the scenarios expect, exactly.
const (
	nameForm    = `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`
	confirmForm = `{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"]}`
	colorForm   = `{"type":"object","properties":{"color":{"type":"string"}},"required":["color"]}`
	contextForm = `{"type":"object","properties":{"context":{"type":"string"}},"required":["context"]}`
)

// The requestState values of the tools that carry state between rounds. They are
// sealed by the server before they reach the client, so the client can neither read
// nor forge them.
const (
	stateConfirm  = "confirm-pending"
	stateMultiple = "multiple-inputs-pending"
	stateTampered = "tamper-check"
	stateRound1   = "round-1"
)

// addInputRequiredTools registers the eight test_input_required_result_* tools.
func addInputRequiredTools(s *mcp.Server) error {
	tools := []struct {
		name, description string
		handler           mcp.ToolHandler
	}{
		{"test_input_required_result_elicitation", "Asks the user's name (elicitation) and greets them.", irElicitation},
		{"test_input_required_result_sampling", "Asks the client's model for the capital of France (sampling).", irSampling},
		{"test_input_required_result_list_roots", "Asks the client for its roots and lists them.", irListRoots},
		{"test_input_required_result_request_state", "Asks for a confirmation and carries state to the next round.", irRequestState},
		{"test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots in one round.", irMultipleInputs},
		{"test_input_required_result_multi_round", "Asks for a name, then a favourite colour, in two rounds.", irMultiRound},
		{"test_input_required_result_tampered_state", "Asks for a name with integrity-protected state; tampered state is refused.", irTamperedState},
		{"test_input_required_result_capabilities", "Asks only for what the client declared it can answer.", irCapabilities},
	}
	for _, t := range tools {
		if err := s.AddTool(&mcp.Tool{Name: t.name, Description: t.description, InputSchema: json.RawMessage(emptyObjectSchema)}, t.handler); err != nil {
			return err
		}
	}
	return nil
}

// inputRequiredPrompt is the prompt of the input-required-result-non-tool-request
// scenario; addPrompts registers it.
var inputRequiredPrompt = mcp.Prompt{Name: "test_input_required_result_prompt",
	Description: "Asks the user for the context the prompt should use (elicitation)."}

// emptyObjectSchema is the input schema of a tool without arguments.
const emptyObjectSchema = `{"type":"object","properties":{}}`

// askName is the elicitation the basic, tampered-state and multiple-input tools ask.
func askName() mcp.InputRequest {
	return mcp.FormInput("What is your name?", json.RawMessage(nameForm))
}

// askSampling asks the client's model one question.
func askSampling(text string, maxTokens int64) mcp.InputRequest {
	return mcp.SampleInput(&mcp.CreateMessageRequestParams{
		Messages: []mcp.SamplingMessage{{
			Role:    "user",
			Content: mcp.SamplingMessageContent{Value: mcp.TextContent{Text: text}},
		}},
		MaxTokens: maxTokens,
	})
}

// formValue returns a field of an accepted form as text: strings as they are, other
// values as JSON; ok is false when the user did not accept or left the field out.
func formValue(res *mcp.ElicitResult, field string) (string, bool) {
	if res == nil || res.Action != "accept" {
		return "", false
	}
	v, ok := res.Content[field]
	if !ok || v.Value == nil {
		return "", false
	}
	if s, isString := v.Value.(mcp.ElicitResultContentValueString); isString {
		return string(s), true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	return string(raw), true
}

// sampledText is the text of a sampling answer, or a placeholder for other content.
func sampledText(res *mcp.CreateMessageResult) string {
	if t, ok := res.Content.AsText(); ok {
		return t.Text
	}
	return "(no text)"
}

// rootsText lists roots one per line.
func rootsText(res *mcp.ListRootsResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d root(s)", len(res.Roots))
	for _, r := range res.Roots {
		fmt.Fprintf(&b, "\n%s", r.URI)
		if r.Name != "" {
			fmt.Fprintf(&b, " (%s)", r.Name)
		}
	}
	return b.String()
}

// greeting answers an elicitation of the name form.
func greeting(res *mcp.ElicitResult) string {
	if name, ok := formValue(res, "name"); ok {
		return "Hello, " + name + "!"
	}
	return fmt.Sprintf("No name given (action: %s).", res.Action)
}

// irElicitation asks for the user's name until a valid answer comes: a missing, wrong
// or malformed answer gets the question again.
func irElicitation(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Elicited("user_name")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"user_name": askName()}}
	}
	return textResult(greeting(res)), nil
}

func irSampling(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Sampled("capital_question")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
			"capital_question": askSampling("What is the capital of France?", 100),
		}}
	}
	return textResult("The model answered: " + sampledText(res)), nil
}

func irListRoots(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Roots("client_roots")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{"client_roots": mcp.RootsInput()}}
	}
	return textResult("The client has " + rootsText(res)), nil
}

// irRequestState asks for a confirmation together with state, and completes only when
// both the answer and its own state come back.
func irRequestState(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Elicited("confirm")
	if !ok || string(req.State()) != stateConfirm {
		return nil, &mcp.InputRequired{
			Requests: map[string]mcp.InputRequest{"confirm": mcp.FormInput("Please confirm", json.RawMessage(confirmForm))},
			State:    []byte(stateConfirm),
		}
	}
	okValue, _ := formValue(res, "ok")
	return textResult(fmt.Sprintf("state-ok: the request state came back intact; action=%s, ok=%s", res.Action, okValue)), nil
}

// irMultipleInputs asks for three things in one round and completes when all three
// answers and its state come back.
func irMultipleInputs(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, okName := req.Elicited("user_name")
	greet, okGreet := req.Sampled("greeting")
	roots, okRoots := req.Roots("client_roots")
	if !okName || !okGreet || !okRoots || string(req.State()) != stateMultiple {
		return nil, &mcp.InputRequired{
			Requests: map[string]mcp.InputRequest{
				"user_name":    askName(),
				"greeting":     askSampling("Generate a greeting", 50),
				"client_roots": mcp.RootsInput(),
			},
			State: []byte(stateMultiple),
		}
	}
	return textResult(fmt.Sprintf("%s The model says: %s. The client has %s",
		greeting(name), sampledText(greet), rootsText(roots))), nil
}

// multiRoundState is the state of the second round of test_input_required_result_multi_round.
type multiRoundState struct {
	Round int    `json:"round"`
	Name  string `json:"name"`
}

// irMultiRound asks for a name, then (with the name in its state) for a colour.
func irMultiRound(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var st multiRoundState
	if prev := req.State(); prev != nil && string(prev) != stateRound1 {
		if err := json.Unmarshal(prev, &st); err != nil {
			return nil, fmt.Errorf("unreadable state: %w", err)
		}
	}
	if st.Round == 2 {
		if res, ok := req.Elicited("step2"); ok {
			color, _ := formValue(res, "color")
			return textResult(fmt.Sprintf("%s's favourite colour is %s.", st.Name, color)), nil
		}
		return nil, askColor(st)
	}
	if string(req.State()) == stateRound1 {
		if res, ok := req.Elicited("step1"); ok {
			name, _ := formValue(res, "name")
			return nil, askColor(multiRoundState{Round: 2, Name: name})
		}
	}
	return nil, &mcp.InputRequired{
		Requests: map[string]mcp.InputRequest{"step1": mcp.FormInput("Step 1: What is your name?", json.RawMessage(nameForm))},
		State:    []byte(stateRound1),
	}
}

// askColor is the second round of the multi-round tool; its state differs from the first.
func askColor(st multiRoundState) error {
	raw, err := json.Marshal(st)
	if err != nil {
		return err
	}
	return &mcp.InputRequired{
		Requests: map[string]mcp.InputRequest{"step2": mcp.FormInput("Step 2: What is your favorite color?", json.RawMessage(colorForm))},
		State:    raw,
	}
}

// irTamperedState asks for a name with state; the server refuses a retry whose sealed
// state was changed before the handler runs again.
func irTamperedState(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	res, ok := req.Elicited("user_name")
	if !ok || string(req.State()) != stateTampered {
		return nil, &mcp.InputRequired{
			Requests: map[string]mcp.InputRequest{"user_name": askName()},
			State:    []byte(stateTampered),
		}
	}
	return textResult(greeting(res) + " The request state was verified."), nil
}

// irCapabilities asks only for what the request (or session) declared it can answer:
// sampling, elicitation, roots. A client that declared none of them gets -32021.
func irCapabilities(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	caps := req.ClientCapabilities()
	asks := map[string]mcp.InputRequest{}
	if caps.Sampling != nil {
		asks["capability_sampling"] = askSampling("Say hello.", 20)
	}
	if caps.Elicitation != nil {
		asks["capability_elicitation"] = askName()
	}
	if caps.Roots != nil {
		asks["capability_roots"] = mcp.RootsInput()
	}
	if len(asks) == 0 {
		return nil, mcp.MissingCapability(&mcp.ClientCapabilities{Sampling: &mcp.ClientCapabilitiesSampling{}})
	}
	var answered []string
	for key := range asks {
		if _, ok := req.InputResponse(key); ok {
			answered = append(answered, key)
		}
	}
	if len(answered) < len(asks) {
		return nil, &mcp.InputRequired{Requests: asks}
	}
	sort.Strings(answered)
	return textResult("Answered: " + strings.Join(answered, ", ")), nil
}

// irPrompt asks for the context the prompt should use, then builds the prompt with it.
func irPrompt(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	res, ok := req.Elicited("user_context")
	if !ok {
		return nil, &mcp.InputRequired{Requests: map[string]mcp.InputRequest{
			"user_context": mcp.FormInput("What context should the prompt use?", json.RawMessage(contextForm)),
		}}
	}
	ctxText, ok := formValue(res, "context")
	if !ok {
		ctxText = "(none given)"
	}
	return messages(mcp.Text("Answer with this context in mind: " + ctxText)), nil
}
