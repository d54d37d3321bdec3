package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/schemarpc/schemarpc/rpc"
)

// ErrNoHandler is returned (wrapped) when the server asks the client for
// something the client has no handler for (ClientOptions.CreateMessage,
// Elicit or ListRoots is nil).
var ErrNoHandler = errors.New("mcp: the client has no handler for the server's request")

// sample runs the sampling handler.
func (s *ClientSession) sample(ctx context.Context, p *CreateMessageRequestParams) (*CreateMessageResult, error) {
	h := s.client.opts.CreateMessage
	if h == nil {
		return nil, rpc.MethodNotFound(methodSampling)
	}
	if len(p.Tools) > 0 && !s.client.opts.SamplingTools && s.client.opts.Capabilities == nil {
		return nil, rpc.InvalidParams("the client did not declare sampling.tools")
	}
	return h(ctx, p)
}

// roots runs the roots handler.
func (s *ClientSession) roots(ctx context.Context) (*ListRootsResult, error) {
	h := s.client.opts.ListRoots
	if h == nil {
		return nil, rpc.MethodNotFound(methodRoots)
	}
	res, err := h(ctx)
	if err == nil && res != nil && res.Roots == nil {
		res.Roots = []Root{}
	}
	return res, err
}

// elicit runs the elicitation handler. An accepted form answer gets the
// requested schema's defaults for the fields it leaves out, and must then
// validate against the schema; otherwise the server gets an error instead
// of the answer.
func (s *ClientSession) elicit(ctx context.Context, p *ElicitRequestParams) (*ElicitResult, error) {
	h := s.client.opts.Elicit
	if h == nil {
		return nil, rpc.MethodNotFound(methodElicitation)
	}
	res, err := h(ctx, p)
	if err != nil || res == nil {
		if err == nil {
			err = errors.New("mcp: the elicitation handler returned no result")
		}
		return nil, err
	}
	form, ok := formParams(p)
	if !ok || res.Action != "accept" {
		return res, nil
	}
	content, err := completeForm(form.RequestedSchema, res.Content)
	if err != nil {
		return nil, rpc.NewError(rpc.CodeInternalError, "the client's elicitation answer does not match the requested schema: "+err.Error())
	}
	out := *res
	out.Content = content
	return &out, nil
}

// formParams returns the form of a form-mode elicitation.
func formParams(p *ElicitRequestParams) (*ElicitRequestFormParams, bool) {
	switch v := p.Value.(type) {
	case ElicitRequestFormParams:
		return &v, true
	case *ElicitRequestFormParams:
		return v, v != nil
	}
	return nil, false
}

// elicitSchemaURL names an elicitation's requested schema while it is
// compiled; nothing is ever fetched from it.
const elicitSchemaURL = "https://schemarpc.dev/mcp/elicitation/requestedSchema.json"

// completeForm fills in the defaults the requested schema gives for the
// fields content omits, then validates the whole against the schema.
func completeForm(requested json.RawMessage, content map[string]ElicitResultContentValue) (map[string]ElicitResultContentValue, error) {
	doc, err := decodeInstance(requested)
	if err != nil {
		return nil, fmt.Errorf("the requested schema is not JSON: %w", err)
	}
	sch, err := compileSelfContained(elicitSchemaURL, requested)
	if err != nil {
		return nil, fmt.Errorf("the requested schema does not compile: %w", err)
	}
	inst := map[string]any{}
	if content != nil {
		b, err := json.Marshal(content)
		if err != nil {
			return nil, err
		}
		v, err := decodeInstance(b)
		if err != nil {
			return nil, err
		}
		inst = v.(map[string]any)
	}
	// The requested schema is a flat object schema: its defaults are
	// those of its properties.
	top, _ := doc.(map[string]any)
	props, _ := top["properties"].(map[string]any)
	for name, prop := range props {
		p, _ := prop.(map[string]any)
		if def, has := p["default"]; has {
			if _, set := inst[name]; !set {
				inst[name] = def
			}
		}
	}
	if err := sch.Validate(inst); err != nil {
		return nil, err
	}
	var out map[string]ElicitResultContentValue
	if err := convertJSON(inst, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// pendingInput is what a 2026-07-28 server answers when it needs
// input: the questions by key, and state to echo.
type pendingInput struct {
	InputRequests map[string]json.RawMessage `json:"inputRequests"`
	RequestState  json.RawMessage            `json:"requestState"`
}

// answerInputs answers an InputRequiredResult with the client's handlers
// and returns the members of the retry: inputResponses (when there were
// questions) and requestState exactly as received (when there was one).
func (s *ClientSession) answerInputs(ctx context.Context, method string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var ir pendingInput
	if err := json.Unmarshal(raw, &ir); err != nil {
		return nil, &InvalidResultError{Method: method, Version: Version20260728, Err: err}
	}
	keys := make([]string, 0, len(ir.InputRequests))
	for k := range ir.InputRequests {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	answers := make(map[string]json.RawMessage, len(keys))
	for _, key := range keys {
		ans, err := s.answerInput(ctx, ir.InputRequests[key])
		if err != nil {
			return nil, fmt.Errorf("mcp: %s: answering the server's input request %q: %w", method, key, err)
		}
		answers[key] = ans
	}
	round := map[string]json.RawMessage{}
	if len(answers) > 0 {
		round["inputResponses"] = rawJSON(answers)
	}
	if len(ir.RequestState) > 0 && string(ir.RequestState) != "null" {
		round["requestState"] = ir.RequestState
	}
	return round, nil
}

// answerInput answers one input request with the matching handler.
func (s *ClientSession) answerInput(ctx context.Context, raw json.RawMessage) (json.RawMessage, error) {
	var req struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, err
	}
	decode := func(v any) error {
		if len(req.Params) == 0 {
			return nil
		}
		return rpc.DecodeJSON(req.Params, v)
	}
	opts := s.client.opts
	switch req.Method {
	case methodElicitation:
		if opts.Elicit == nil {
			return nil, fmt.Errorf("%w: elicitation/create (ClientOptions.Elicit is nil)", ErrNoHandler)
		}
		var p ElicitRequestParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		res, err := s.elicit(ctx, &p)
		if err != nil {
			return nil, err
		}
		return rawJSON(res), nil
	case methodSampling:
		if opts.CreateMessage == nil {
			return nil, fmt.Errorf("%w: sampling/createMessage (ClientOptions.CreateMessage is nil)", ErrNoHandler)
		}
		var p CreateMessageRequestParams
		if err := decode(&p); err != nil {
			return nil, err
		}
		res, err := s.sample(ctx, &p)
		if err != nil {
			return nil, err
		}
		return rawJSON(res), nil
	case methodRoots:
		if opts.ListRoots == nil {
			return nil, fmt.Errorf("%w: roots/list (ClientOptions.ListRoots is nil)", ErrNoHandler)
		}
		res, err := s.roots(ctx)
		if err != nil {
			return nil, err
		}
		return rawJSON(res), nil
	default:
		return nil, fmt.Errorf("unknown input request method %q", req.Method)
	}
}
