package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"time"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
)

// Ping checks that the server answers (handshake versions only: 2026-07-28
// has no ping, and the call fails with ErrUnsupportedMethod without sending;
// Discover serves as a probe there).
func (s *ClientSession) Ping(ctx context.Context) error {
	_, err := s.calls.Ping(ctx, &RequestParams{})
	return err
}

// Discover asks a stateless server for its versions, capabilities and
// instructions (server/discover, 2026-07-28 only).
func (s *ClientSession) Discover(ctx context.Context) (*v20260728.DiscoverResult, error) {
	return s.modCall.ServerDiscover(ctx, &v20260728.RequestParams{})
}

// ListTools returns one page of the server's tools; p may be nil (the first
// page) or carry the cursor of the previous page's NextCursor. Over HTTP in
// 2026-07-28, a tool whose x-mcp-header annotations break the protocol's
// rules is left out (with a warning in the log): it could not be called
// correctly.
func (s *ClientSession) ListTools(ctx context.Context, p *PaginatedRequestParams) (*ListToolsResult, error) {
	res, err := s.calls.ToolsList(ctx, orEmpty(p))
	if err != nil || !s.Stateless() || !s.link.isHTTP() {
		return res, err
	}
	kept := res.Tools[:0:0]
	for _, tool := range res.Tools {
		if _, err := headerParams(tool.InputSchema); err != nil {
			s.log.Warn("mcp: leaving out a tool whose x-mcp-header annotations are invalid", "tool", tool.Name, "error", err)
			continue
		}
		kept = append(kept, tool)
	}
	res.Tools = kept
	return res, nil
}

// Tools iterates over every tool of the server, page by page. Iteration
// stops at the first error, which it yields.
func (s *ClientSession) Tools(ctx context.Context) iter.Seq2[*Tool, error] {
	return pages(ctx, s.ListTools, func(r *ListToolsResult) ([]Tool, Cursor) { return r.Tools, r.NextCursor })
}

// CallTool runs a tool. A tool that fails reports it in the result
// (IsError); an error is a protocol failure. In 2026-07-28 the server's
// requests for input are answered with the client's handlers and the call
// retried, up to ClientOptions.MaxInputRounds rounds. A call that asks for a
// task (2025-11-25) gets no CallToolResult: use the generated client for
// tasks.
func (s *ClientSession) CallTool(ctx context.Context, p *CallToolRequestParams) (*CallToolResult, error) {
	if p == nil {
		return nil, errors.New("mcp: CallTool needs params naming the tool")
	}
	out, err := s.calls.ToolsCall(ctx, p)
	if err != nil {
		return nil, err
	}
	switch v := out.Value.(type) {
	case CallToolResult:
		return &v, nil
	case *CallToolResult:
		return v, nil
	default:
		return nil, fmt.Errorf("mcp: tools/call answered with a %T, not a CallToolResult", out.Value)
	}
}

// ListResources returns one page of the server's resources.
func (s *ClientSession) ListResources(ctx context.Context, p *PaginatedRequestParams) (*ListResourcesResult, error) {
	return s.calls.ResourcesList(ctx, orEmpty(p))
}

// Resources iterates over every resource of the server, page by page.
func (s *ClientSession) Resources(ctx context.Context) iter.Seq2[*Resource, error] {
	return pages(ctx, s.ListResources, func(r *ListResourcesResult) ([]Resource, Cursor) { return r.Resources, r.NextCursor })
}

// ListResourceTemplates returns one page of the server's resource templates.
func (s *ClientSession) ListResourceTemplates(ctx context.Context, p *PaginatedRequestParams) (*ListResourceTemplatesResult, error) {
	return s.calls.ResourcesTemplatesList(ctx, orEmpty(p))
}

// ResourceTemplates iterates over every resource template, page by page.
func (s *ClientSession) ResourceTemplates(ctx context.Context) iter.Seq2[*ResourceTemplate, error] {
	return pages(ctx, s.ListResourceTemplates, func(r *ListResourceTemplatesResult) ([]ResourceTemplate, Cursor) {
		return r.ResourceTemplates, r.NextCursor
	})
}

// ReadResource returns a resource's contents.
func (s *ClientSession) ReadResource(ctx context.Context, p *ReadResourceRequestParams) (*ReadResourceResult, error) {
	if p == nil {
		return nil, errors.New("mcp: ReadResource needs params naming the resource")
	}
	return s.calls.ResourcesRead(ctx, p)
}

// ListPrompts returns one page of the server's prompts.
func (s *ClientSession) ListPrompts(ctx context.Context, p *PaginatedRequestParams) (*ListPromptsResult, error) {
	return s.calls.PromptsList(ctx, orEmpty(p))
}

// Prompts iterates over every prompt of the server, page by page.
func (s *ClientSession) Prompts(ctx context.Context) iter.Seq2[*Prompt, error] {
	return pages(ctx, s.ListPrompts, func(r *ListPromptsResult) ([]Prompt, Cursor) { return r.Prompts, r.NextCursor })
}

// GetPrompt expands a prompt with arguments.
func (s *ClientSession) GetPrompt(ctx context.Context, p *GetPromptRequestParams) (*GetPromptResult, error) {
	if p == nil {
		return nil, errors.New("mcp: GetPrompt needs params naming the prompt")
	}
	return s.calls.PromptsGet(ctx, p)
}

// Complete asks for completions of a prompt argument or a resource
// template variable.
func (s *ClientSession) Complete(ctx context.Context, p *CompleteRequestParams) (*CompleteResult, error) {
	if p == nil {
		return nil, errors.New("mcp: Complete needs params")
	}
	return s.calls.CompletionComplete(ctx, p)
}

// SetLoggingLevel asks for the server's log messages from level up. In a
// handshake session it sends logging/setLevel; in 2026-07-28, where the
// level travels with each request, the session keeps it and sends it in
// every later request's _meta (the server then logs about that request
// only). The server must offer logging.
func (s *ClientSession) SetLoggingLevel(ctx context.Context, level LoggingLevel) error {
	if severity(level) < 0 {
		return fmt.Errorf("mcp: unknown logging level %q", level)
	}
	vs, stateless := s.state()
	if stateless {
		if caps := s.ServerCapabilities(); caps == nil || caps.Logging == nil {
			return fmt.Errorf("mcp: the server does not offer logging (protocol version %s)", vs.version)
		}
		s.mu.Lock()
		s.logLevel = level
		s.mu.Unlock()
		return nil
	}
	_, err := s.calls.LoggingSetLevel(ctx, &SetLevelRequestParams{Level: level})
	return err
}

// Subscribe asks to be told when the resource at uri changes
// (resources/subscribe, handshake versions; OnResourceUpdated is told). In
// 2026-07-28 subscriptions are Listen filters.
func (s *ClientSession) Subscribe(ctx context.Context, uri string) error {
	_, err := s.calls.ResourcesSubscribe(ctx, &SubscribeRequestParams{URI: uri})
	return err
}

// Unsubscribe cancels a Subscribe.
func (s *ClientSession) Unsubscribe(ctx context.Context, uri string) error {
	_, err := s.calls.ResourcesUnsubscribe(ctx, &UnsubscribeRequestParams{URI: uri})
	return err
}

// NotifyRootsListChanged tells the server that the client's roots changed
// (handshake versions; 2026-07-28 has no such notification).
func (s *ClientSession) NotifyRootsListChanged(ctx context.Context) error {
	return s.calls.NotificationsRootsListChanged(ctx, &NotificationParams{})
}

// orEmpty returns p, or empty params for a nil p.
func orEmpty(p *PaginatedRequestParams) *PaginatedRequestParams {
	if p == nil {
		return &PaginatedRequestParams{}
	}
	return p
}

// maxPages bounds the pages an iterator fetches, against a server whose
// cursors never end.
const maxPages = 10000

// pages iterates over the items of a paginated list until a page comes
// without nextCursor. (2026-07-28 allows an empty nextCursor as a cursor;
// the generated types cannot tell it from an absent one, so it ends the
// list too.)
func pages[R any, T any](ctx context.Context, list func(context.Context, *PaginatedRequestParams) (*R, error),
	split func(*R) ([]T, Cursor)) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) {
		p := &PaginatedRequestParams{}
		for range maxPages {
			res, err := list(ctx, p)
			if err != nil {
				yield(nil, err)
				return
			}
			items, next := split(res)
			for i := range items {
				if !yield(&items[i], nil) {
					return
				}
			}
			if next == "" {
				return
			}
			p = &PaginatedRequestParams{Cursor: next}
		}
		yield(nil, fmt.Errorf("mcp: the server's list did not end after %d pages", maxPages))
	}
}

// ResultCacheHint reads the caching hints of a 2026-07-28 result from its
// Extra members (ttlMs, cacheScope): how long the result may be reused and
// by whom. ok is false for results without hints (handshake sessions, and
// the results that are never cacheable).
func ResultCacheHint(extra map[string]json.RawMessage) (hint CacheHint, ok bool) {
	rawTTL, hasTTL := extra["ttlMs"]
	rawScope, hasScope := extra["cacheScope"]
	if !hasTTL && !hasScope {
		return CacheHint{}, false
	}
	var ms int64
	if json.Unmarshal(rawTTL, &ms) == nil && ms > 0 {
		hint.TTL = time.Duration(ms) * time.Millisecond
	}
	var scope CacheScope
	if json.Unmarshal(rawScope, &scope) == nil && scope == CachePublic {
		hint.Scope = CachePublic
	} else {
		hint.Scope = CachePrivate
	}
	return hint, true
}
