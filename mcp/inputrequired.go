package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sort"
	"strings"

	"github.com/schemarpc/schemarpc/internal/logx"
	"github.com/schemarpc/schemarpc/rpc"
)

// InputRequired is what a tool, prompt or resource handler returns, as its
// error, to ask the client for input before it can answer: a sampling
// request, an elicitation or a roots listing, each under a key of the
// handler's choosing. The handler is called again with the answers
// (Request.Elicited, Request.Sampled, Request.Roots, Request.InputResponse)
// and with State (Request.State).
//
// In the stateless protocol the server answers with an InputRequiredResult
// (resultType "input_required"); State travels to the client sealed (see
// [StateSealer]) and bound to this request, and the client retries with the
// answers. In a handshake session the server sends the requests to the
// client itself and calls the handler again: one handler serves both eras.
type InputRequired struct {
	// Requests are the questions for the client, by key.
	Requests map[string]InputRequest
	// State is carried to the next round unchanged; nil sends none.
	State []byte
}

// Error describes the pending requests.
func (e *InputRequired) Error() string {
	keys := make([]string, 0, len(e.Requests))
	for k := range e.Requests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return "mcp: input required: " + strings.Join(keys, ", ")
}

// InputRequest is one question for the client: a method the client serves
// and its params.
type InputRequest struct {
	// Method is sampling/createMessage, elicitation/create or roots/list.
	Method string
	// Params are the method's params (a *CreateMessageRequestParams, an
	// *ElicitRequestParams, or nil for roots/list).
	Params any
}

// The methods an InputRequest may name.
const (
	methodSampling    = "sampling/createMessage"
	methodElicitation = "elicitation/create"
	methodRoots       = "roots/list"
)

// ElicitInput asks the user, through the client, for information.
func ElicitInput(p *ElicitRequestParams) InputRequest {
	return InputRequest{Method: methodElicitation, Params: p}
}

// FormInput asks the user to fill in a form: a message and a flat JSON
// Schema object describing the fields.
func FormInput(message string, requestedSchema json.RawMessage) InputRequest {
	return ElicitInput(&ElicitRequestParams{Value: ElicitRequestFormParams{Message: message, RequestedSchema: requestedSchema}})
}

// SampleInput asks the client's language model for a completion.
func SampleInput(p *CreateMessageRequestParams) InputRequest {
	if p.Messages == nil {
		p.Messages = []SamplingMessage{}
	}
	return InputRequest{Method: methodSampling, Params: p}
}

// RootsInput asks the client for its roots.
func RootsInput() InputRequest {
	return InputRequest{Method: methodRoots, Params: map[string]any{}}
}

// maxInputRounds bounds the rounds a handshake session goes through for one
// request before the server gives up on a handler that keeps asking.
const maxInputRounds = 16

// InputResponse returns the client's raw answer under key in this round,
// and whether there is one.
func (r *Request[P]) InputResponse(key string) (json.RawMessage, bool) {
	if r.call == nil {
		return nil, false
	}
	v, ok := r.call.inputs[key]
	return v, ok && len(v) > 0 && string(v) != "null"
}

// Elicited returns the answer to the elicitation asked under key, when the
// client gave one that is a valid elicitation result.
func (r *Request[P]) Elicited(key string) (*ElicitResult, bool) {
	return answer[ElicitResult](r, key, "ElicitResult")
}

// Sampled returns the answer to the sampling request asked under key, when
// the client gave one that is a valid sampling result.
func (r *Request[P]) Sampled(key string) (*CreateMessageResult, bool) {
	return answer[CreateMessageResult](r, key, "CreateMessageResult")
}

// Roots returns the answer to the roots listing asked under key, when the
// client gave one that is a valid roots result.
func (r *Request[P]) Roots(key string) (*ListRootsResult, bool) {
	return answer[ListRootsResult](r, key, "ListRootsResult")
}

// answer decodes the answer under key as T after checking it against the
// schema definition def.
func answer[T, P any](r *Request[P], key, def string) (*T, bool) {
	raw, ok := r.InputResponse(key)
	if !ok || !validDef(def, raw) {
		return nil, false
	}
	v := new(T)
	if err := json.Unmarshal(raw, v); err != nil {
		return nil, false
	}
	return v, true
}

// State returns the state the handler attached to its previous round
// (InputRequired.State), opened and verified by the server; nil on the
// first round.
func (r *Request[P]) State() []byte {
	if r.call == nil || askedState(r.call.state) {
		return nil
	}
	return r.call.state
}

// required returns the client capabilities the requests need that c does
// not declare, as a ClientCapabilities object, or nil when all are there.
func (e *InputRequired) required(c ClientCapabilities) map[string]any {
	missing := map[string]any{}
	decl := clientCapsOf(c)
	for _, q := range e.Requests {
		switch q.Method {
		case methodSampling:
			if !decl.sampling {
				missing["sampling"] = map[string]any{}
			} else if p, ok := q.Params.(*CreateMessageRequestParams); ok && len(p.Tools) > 0 && !decl.samplingTools {
				missing["sampling"] = map[string]any{"tools": map[string]any{}}
			}
		case methodElicitation:
			if isURLElicitation(q.Params) {
				if !decl.elicitURL {
					missing["elicitation"] = map[string]any{"url": map[string]any{}}
				}
			} else if !decl.elicitForm {
				missing["elicitation"] = map[string]any{"form": map[string]any{}}
			}
		case methodRoots:
			if !decl.roots {
				missing["roots"] = map[string]any{}
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	return missing
}

// isURLElicitation reports whether elicitation params ask for URL mode.
func isURLElicitation(p any) bool {
	switch v := p.(type) {
	case *ElicitRequestParams:
		return v != nil && isURLElicitation(v.Value)
	case ElicitRequestParams:
		return isURLElicitation(v.Value)
	case ElicitRequestURLParams, *ElicitRequestURLParams:
		return true
	}
	return false
}

// check rejects requests the server cannot send: no request at all, or a
// method that is not one of the three.
func (e *InputRequired) check() error {
	if len(e.Requests) == 0 && e.State == nil {
		return errors.New("mcp: InputRequired without requests or state")
	}
	for k, q := range e.Requests {
		if !slices.Contains([]string{methodSampling, methodElicitation, methodRoots}, q.Method) {
			return fmt.Errorf("mcp: input request %q: method %q cannot be asked of a client", k, q.Method)
		}
	}
	return nil
}

// inputRequiredResult is the stateless answer of a request that needs
// input.
type inputRequiredResult struct {
	ResultType    string                     `json:"resultType"`
	InputRequests map[string]json.RawMessage `json:"inputRequests,omitempty"`
	RequestState  string                     `json:"requestState,omitempty"`
	Meta          map[string]json.RawMessage `json:"_meta"`
}

// statelessInputRequired turns a handler's InputRequired into the
// InputRequiredResult of a stateless request: its requests as forClient
// writes them, the state sealed and bound to the request.
func (s *Server) statelessInputRequired(c *callState, e *InputRequired) (json.RawMessage, error) {
	reqs, err := e.forClient(s.log, c, logx.Method, c.method)
	if err != nil {
		return nil, err
	}
	out := inputRequiredResult{ResultType: "input_required", InputRequests: reqs, Meta: map[string]json.RawMessage{metaServerInfo: s.infoJSON()}}
	if e.State != nil {
		tok, err := s.sealer.Seal(e.State, c.binding())
		if err != nil {
			return nil, err
		}
		out.RequestState = tok
	}
	return rpc.AppendJSONValue(nil, out)
}

// inputRequired returns what ends a round of the stateless request or
// task c: the question the handler asked through its Request, whatever
// the handler made of the error it got, or the InputRequired it returned;
// nil when the round ended otherwise.
func (c *callState) inputRequired(err error) *InputRequired {
	if q := c.pendingQuestion(); q != nil {
		return q
	}
	if err == nil {
		return nil // before ir, which errors.As moves to the heap
	}
	var ir *InputRequired
	if errors.As(err, &ir) {
		return ir
	}
	return nil
}

// forClient checks a handler's InputRequired for the client of the
// stateless request or task c and writes its requests as the protocol's
// inputRequests: -32603 (logged with attrs) when it asks what no client
// can be asked, -32021 when it needs a capability c did not declare.
func (e *InputRequired) forClient(log *slog.Logger, c *callState, attrs ...any) (map[string]json.RawMessage, error) {
	if err := e.check(); err != nil {
		log.Error("mcp: handler asked for input it cannot get", append(attrs, logx.Code, rpc.CodeInternalError, logx.Error, err)...)
		return nil, rpc.InternalError()
	}
	if missing := e.required(c.caps); missing != nil {
		return nil, missingCapability(missing)
	}
	return encodeInputRequests(e.Requests)
}

// encodeInputRequests writes input requests as the protocol's
// inputRequests map: each a method and its params.
func encodeInputRequests(reqs map[string]InputRequest) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(reqs))
	for k, q := range reqs {
		b, err := json.Marshal(struct {
			Method string `json:"method"`
			Params any    `json:"params"`
		}{q.Method, q.Params})
		if err != nil {
			return nil, fmt.Errorf("mcp: input request %q: %w", k, err)
		}
		out[k] = b
	}
	return out, nil
}

// runWithInput runs one handler call of a request and, in a handshake
// session, answers the handler's InputRequired itself: it asks the client
// and calls the handler again with the answers, up to maxInputRounds. In
// the stateless protocol the InputRequired is returned for the dispatcher
// to send.
func runWithInput[T any](ctx context.Context, ss *ServerSession, c *callState, run func(ctx context.Context) (T, error)) (T, error) {
	for round := 0; ; round++ {
		res, err := run(ctx)
		if err == nil || c.stateless {
			return res, err // before ir, which errors.As moves to the heap
		}
		var ir *InputRequired
		if !errors.As(err, &ir) {
			return res, err
		}
		var zero T
		if round+1 >= maxInputRounds {
			return zero, fmt.Errorf("mcp: the handler still asked for input after %d rounds", maxInputRounds)
		}
		if err := ir.check(); err != nil {
			return zero, err
		}
		if missing := ir.required(c.caps); missing != nil {
			return zero, &notDeclaredError{missing}
		}
		inputs, err := ss.askClient(ctx, ir.Requests)
		if err != nil {
			return zero, err
		}
		c.inputs, c.state = inputs, ir.State
	}
}

// askClient sends the input requests of a handshake-era handler to the
// client, one after the other in key order, and collects the answers.
func (ss *ServerSession) askClient(ctx context.Context, reqs map[string]InputRequest) (map[string]json.RawMessage, error) {
	keys := make([]string, 0, len(reqs))
	for k := range reqs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]json.RawMessage, len(reqs))
	for _, k := range keys {
		q := reqs[k]
		var res any
		var err error
		switch q.Method {
		case methodSampling:
			p, ok := q.Params.(*CreateMessageRequestParams)
			if !ok {
				return nil, fmt.Errorf("mcp: input request %q: params must be *CreateMessageRequestParams", k)
			}
			res, err = ss.CreateMessage(ctx, p)
		case methodElicitation:
			var p *ElicitRequestParams
			switch v := q.Params.(type) {
			case *ElicitRequestParams:
				p = v
			case ElicitRequestParams:
				p = &v
			default:
				return nil, fmt.Errorf("mcp: input request %q: params must be *ElicitRequestParams", k)
			}
			res, err = ss.Elicit(ctx, p)
		case methodRoots:
			res, err = ss.ListRoots(ctx)
		}
		if err != nil {
			return nil, fmt.Errorf("mcp: input request %q: %w", k, err)
		}
		out[k] = rawJSON(res)
	}
	return out, nil
}
