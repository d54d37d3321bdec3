package mcp

import (
	"context"
	"encoding/json"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// statelessService implements the generated server interface of
// 2026-07-28: the generated code validates params against the schema and
// decodes them; statelessService hands the call to the feature that owns
// it (the same one the handshake era calls, with no session) and makes
// its result what the stateless protocol sends (statelessResult).
//
// The features speak the 2025-11-25 types the server's API is written in,
// so the params are copied into those, and a result reaches the generated
// type through its JSON: the decorated result travels as the raw variant
// of a union result (Unknown…, "sent on unchanged"), marked Compact since
// statelessResult made it so, and is read into a struct result.
type statelessService struct {
	v20260728.UnimplementedMCPServer
	s *Server
}

func (v statelessService) ServerDiscover(ctx context.Context, _ *v20260728.RequestParams) (*v20260728.DiscoverResult, error) {
	return decodeResult[v20260728.DiscoverResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.discover(ctx), nil
	}))
}

func (v statelessService) ToolsList(ctx context.Context, p *v20260728.PaginatedRequestParams) (*v20260728.ListToolsResult, error) {
	q := &PaginatedRequestParams{Meta: handshakeMeta(&p.Meta), Cursor: Cursor(p.Cursor)}
	return decodeResult[v20260728.ListToolsResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.listTools(ctx, nil, q)
	}))
}

func (v statelessService) ToolsCall(ctx context.Context, p *v20260728.CallToolRequestParams) (*v20260728.CallToolOutcome, error) {
	// One allocation for the params the feature takes and the outcome.
	call := &struct {
		q   CallToolRequestParams
		out v20260728.CallToolOutcome
		raw v20260728.UnknownCallToolOutcome
	}{q: CallToolRequestParams{Meta: handshakeMeta(&p.Meta), Name: p.Name, Arguments: p.Arguments}}
	raw, err := v.s.statelessResult(ctx, func() (any, error) {
		out, err := v.s.callTool(ctx, nil, &call.q)
		if err != nil {
			return nil, err
		}
		return out.Value, nil
	})
	if err != nil {
		return nil, err
	}
	call.raw = v20260728.UnknownCallToolOutcome{Raw: raw, Compact: true}
	call.out.Value = &call.raw
	return &call.out, nil
}

func (v statelessService) ResourcesList(ctx context.Context, p *v20260728.PaginatedRequestParams) (*v20260728.ListResourcesResult, error) {
	q := &PaginatedRequestParams{Meta: handshakeMeta(&p.Meta), Cursor: Cursor(p.Cursor)}
	return decodeResult[v20260728.ListResourcesResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.listResources(ctx, nil, q)
	}))
}

func (v statelessService) ResourcesTemplatesList(ctx context.Context, p *v20260728.PaginatedRequestParams) (*v20260728.ListResourceTemplatesResult, error) {
	q := &PaginatedRequestParams{Meta: handshakeMeta(&p.Meta), Cursor: Cursor(p.Cursor)}
	return decodeResult[v20260728.ListResourceTemplatesResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.listTemplates(ctx, nil, q)
	}))
}

func (v statelessService) ResourcesRead(ctx context.Context, p *v20260728.ReadResourceRequestParams) (*v20260728.ReadResourceOutcome, error) {
	q := &ReadResourceRequestParams{Meta: handshakeMeta(&p.Meta), URI: p.URI}
	raw, err := v.s.statelessResult(ctx, func() (any, error) {
		return v.s.readResource(ctx, nil, q)
	})
	if err != nil {
		return nil, err
	}
	return &v20260728.ReadResourceOutcome{Value: v20260728.UnknownReadResourceOutcome{Raw: raw, Compact: true}}, nil
}

func (v statelessService) PromptsList(ctx context.Context, p *v20260728.PaginatedRequestParams) (*v20260728.ListPromptsResult, error) {
	q := &PaginatedRequestParams{Meta: handshakeMeta(&p.Meta), Cursor: Cursor(p.Cursor)}
	return decodeResult[v20260728.ListPromptsResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.listPrompts(ctx, nil, q)
	}))
}

func (v statelessService) PromptsGet(ctx context.Context, p *v20260728.GetPromptRequestParams) (*v20260728.GetPromptOutcome, error) {
	q := &GetPromptRequestParams{Meta: handshakeMeta(&p.Meta), Name: p.Name, Arguments: p.Arguments}
	raw, err := v.s.statelessResult(ctx, func() (any, error) {
		return v.s.getPrompt(ctx, nil, q)
	})
	if err != nil {
		return nil, err
	}
	return &v20260728.GetPromptOutcome{Value: v20260728.UnknownGetPromptOutcome{Raw: raw, Compact: true}}, nil
}

func (v statelessService) CompletionComplete(ctx context.Context, p *v20260728.CompleteRequestParams) (*v20260728.CompleteResult, error) {
	q := &CompleteRequestParams{
		Meta:     handshakeMeta(&p.Meta),
		Ref:      completionRef(p.Ref),
		Argument: CompleteRequestParamsArgument(p.Argument),
	}
	if p.Context != nil {
		q.Context = (*CompleteRequestParamsContext)(p.Context)
	}
	return decodeResult[v20260728.CompleteResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.completeArgument(ctx, nil, q)
	}))
}

func (v statelessService) SubscriptionsListen(ctx context.Context, p *v20260728.SubscriptionsListenRequestParams) (*v20260728.SubscriptionsListenResult, error) {
	id := requestOf(ctx).ID
	return decodeResult[v20260728.SubscriptionsListenResult](v.s.statelessResult(ctx, func() (any, error) {
		return v.s.listen(ctx, callFromContext(ctx), id, p)
	}))
}

// completionRef copies a completion reference into the 2025-11-25 union;
// its variants have the same members in both versions.
func completionRef(r v20260728.CompleteRequestParamsRef) CompleteRequestParamsRef {
	switch x := r.Value.(type) {
	case v20260728.PromptReference:
		return CompleteRequestParamsRef{Value: PromptReference(x)}
	case *v20260728.PromptReference:
		return CompleteRequestParamsRef{Value: (*PromptReference)(x)}
	case v20260728.ResourceTemplateReference:
		return CompleteRequestParamsRef{Value: ResourceTemplateReference(x)}
	case *v20260728.ResourceTemplateReference:
		return CompleteRequestParamsRef{Value: (*ResourceTemplateReference)(x)}
	case v20260728.UnknownCompleteRequestParamsRef:
		return CompleteRequestParamsRef{Value: UnknownCompleteRequestParamsRef{Raw: x.Raw}}
	}
	return CompleteRequestParamsRef{}
}

// handshakeMeta copies what the features read of a stateless request's
// _meta into the params they take: the progress token, and the members the
// protocol does not define. nil when there is neither, as for a handshake
// request without _meta.
func handshakeMeta(m *v20260728.RequestMetaObject) *RequestMeta {
	if m.ProgressToken == nil && m.Extra == nil {
		return nil
	}
	out := &RequestMeta{Extra: m.Extra}
	if m.ProgressToken != nil {
		out.ProgressToken = &ProgressToken{Value: progressTokenVariant(m.ProgressToken.Value)}
	}
	return out
}

// progressTokenVariant copies a progress token's variant into 2025-11-25's.
func progressTokenVariant(v v20260728.ProgressTokenVariant) ProgressTokenVariant {
	switch x := v.(type) {
	case v20260728.ProgressTokenString:
		return ProgressTokenString(x)
	case *v20260728.ProgressTokenString:
		return ProgressTokenString(*x)
	case v20260728.ProgressTokenInteger:
		return ProgressTokenInteger(x)
	case *v20260728.ProgressTokenInteger:
		return ProgressTokenInteger(*x)
	case v20260728.UnknownProgressToken:
		return UnknownProgressToken{Raw: x.Raw}
	case *v20260728.UnknownProgressToken:
		return UnknownProgressToken{Raw: x.Raw}
	}
	return nil
}

// requestOf returns the request ctx serves, until its handler decoded its
// params (paramsDecoded).
func requestOf(ctx context.Context) *rpc.Request {
	if c, _ := ctx.Value(requestContextKey{}).(*requestContext); c != nil {
		return c.req
	}
	return nil
}

// decodeResult reads a decorated stateless result into the generated type
// of a struct result.
func decodeResult[T any](raw json.RawMessage, err error) (*T, error) {
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := rpc.DecodeJSON(raw, out); err != nil {
		return nil, err
	}
	return out, nil
}
