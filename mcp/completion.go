package mcp

import "context"

// CompletionHandler suggests values for a prompt argument or a resource
// template variable (completion/complete). At most 100 values are sent.
type CompletionHandler func(ctx context.Context, req *CompleteRequest) (*CompleteResult, error)

// maxCompletions is the protocol's bound on completion values.
const maxCompletions = 100

// SetCompletionHandler installs the completion handler; sessions that
// initialize afterwards are offered the completions capability.
func (s *Server) SetCompletionHandler(h CompletionHandler) {
	s.mu.Lock()
	s.complete = h
	s.mu.Unlock()
}

func (s *Server) completeArgument(ctx context.Context, ss *ServerSession, p *CompleteRequestParams) (*CompleteResult, error) {
	paramsDecoded(ctx, p.Meta, nil)
	s.mu.Lock()
	h := s.complete
	s.mu.Unlock()
	res := &CompleteResult{}
	if h != nil {
		r, err := h(ctx, &CompleteRequest{Session: ss, Params: p, call: callOf(ctx, ss)})
		if err != nil {
			return nil, asRPC(err)
		}
		if r != nil {
			res = r
		}
	}
	c := &res.Completion
	if c.Values == nil {
		c.Values = []string{}
	}
	if len(c.Values) > maxCompletions {
		total := int64(len(c.Values))
		if c.Total == nil {
			c.Total = &total
		}
		more := true
		c.HasMore = &more
		c.Values = c.Values[:maxCompletions]
	}
	return res, nil
}
