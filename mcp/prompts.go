package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/schemarpc/schemarpc/rpc"
)

// PromptHandler renders a prompt with the arguments in req.Params.
type PromptHandler func(ctx context.Context, req *GetPromptRequest) (*GetPromptResult, error)

type promptEntry struct {
	prompt  Prompt
	cache   *CacheHint
	handler PromptHandler
}

// AddPrompt registers a prompt, replacing one with the same name. Sessions
// are told that the list changed.
func (s *Server) AddPrompt(p *Prompt, h PromptHandler, opts ...RegisterOption) error {
	if p.Name == "" || h == nil {
		return fmt.Errorf("mcp: prompt %q: name and handler are required", p.Name)
	}
	s.prompts.put(p.Name, &promptEntry{prompt: *p, handler: h, cache: applyOptions(opts).cache})
	s.listChanged("notifications/prompts/list_changed", capPrompts)
	return nil
}

// RemovePrompts unregisters prompts by name.
func (s *Server) RemovePrompts(names ...string) {
	if s.prompts.remove(names...) {
		s.listChanged("notifications/prompts/list_changed", capPrompts)
	}
}

func (s *Server) listPrompts(ctx context.Context, ss *ServerSession, p *PaginatedRequestParams) (*ListPromptsResult, error) {
	page, next, err := s.prompts.page(string(p.Cursor), s.opts.PageSize)
	if err != nil {
		return nil, err
	}
	setCache(ctx, pageHint(s.opts.Cache, page, func(e *promptEntry) *CacheHint { return e.cache }))
	f := ss.features()
	out := &ListPromptsResult{Prompts: make([]Prompt, 0, len(page)), NextCursor: Cursor(next)}
	for _, e := range page {
		out.Prompts = append(out.Prompts, downgradePrompt(e.prompt, f))
	}
	return out, nil
}

// getPrompt answers prompts/get: an unknown prompt or a missing required
// argument is -32602.
func (s *Server) getPrompt(ctx context.Context, ss *ServerSession, p *GetPromptRequestParams) (*GetPromptResult, error) {
	paramsDecoded(ctx, p.Meta, nil)
	e, ok := s.prompts.get(p.Name)
	if !ok {
		return nil, rpc.InvalidParams(fmt.Sprintf("unknown prompt %q", p.Name))
	}
	var missing []string
	for _, a := range e.prompt.Arguments {
		if a.Required != nil && *a.Required {
			if _, ok := p.Arguments[a.Name]; !ok {
				missing = append(missing, a.Name)
			}
		}
	}
	if len(missing) > 0 {
		return nil, rpc.InvalidParams(fmt.Sprintf("prompt %q: missing required arguments: %s", p.Name, strings.Join(missing, ", ")))
	}
	c := callOf(ctx, ss)
	req := &GetPromptRequest{Session: ss, Params: p, call: c}
	res, err := runWithInput(ctx, ss, c, func(ctx context.Context) (*GetPromptResult, error) { return e.handler(ctx, req) })
	if err != nil {
		return nil, asRPC(err)
	}
	if res == nil {
		res = &GetPromptResult{}
	}
	if res.Messages == nil {
		res.Messages = []PromptMessage{}
	}
	f := ss.features()
	for i := range res.Messages {
		res.Messages[i].Content = downgradeContent([]ContentBlock{res.Messages[i].Content}, f)[0]
	}
	return res, nil
}
