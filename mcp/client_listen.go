package mcp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// ListenFilter says what a 2026-07-28 listen asks to hear about.
type ListenFilter struct {
	ToolsListChanged     bool // notifications/tools/list_changed → OnToolsListChanged
	PromptsListChanged   bool // notifications/prompts/list_changed → OnPromptsListChanged
	ResourcesListChanged bool // notifications/resources/list_changed → OnResourcesListChanged
	// ResourceSubscriptions are the URIs whose changes are reported
	// (notifications/resources/updated → OnResourceUpdated).
	ResourceSubscriptions []string
	// Acknowledged, when set, is called with what the server agreed to send
	// (the part of the filter it honours), before any change arrives.
	Acknowledged func(honoured ListenFilter)
}

// listenState is one Listen in flight.
type listenState struct {
	filter *ListenFilter

	mu  sync.Mutex
	end func() // fails the listen call
}

// errListenEnded ends a listen the server stopped with
// notifications/cancelled.
var errListenEnded = errors.New("mcp: the server ended the listen")

// endedByServer ends the listen call: the server cancelled it.
func (l *listenState) endedByServer() {
	l.mu.Lock()
	end := l.end
	l.mu.Unlock()
	if end != nil {
		end()
	}
}

// Listen opens a 2026-07-28 subscriptions/listen and delivers what the
// filter asks for to the ClientOptions handlers (OnToolsListChanged, …,
// OnResourceUpdated) until ctx ends (the listen is then cancelled: its
// stream closed over HTTP, notifications/cancelled on a stream) or the
// server ends it. It returns nil when the server ended the listen and
// ctx's error when ctx ended. Handshake sessions have no listen (use the
// OnX handlers and Subscribe there): ErrUnsupportedMethod.
func (s *ClientSession) Listen(ctx context.Context, f *ListenFilter) error {
	if f == nil {
		f = &ListenFilter{}
	}
	vs, stateless := s.state()
	if vs == nil {
		return errors.New("mcp: Listen before the session is established")
	}
	if !stateless {
		_, err := vs.clientMethod(v20260728.MethodSubscriptionsListen)
		return err
	}
	l := &listenState{filter: f}
	var key string
	ctx = withIDSink(ctx, func(id rpc.ID) {
		key = id.String()
		l.mu.Lock()
		l.end = func() { s.conn.Fail(id, errListenEnded) }
		l.mu.Unlock()
		s.mu.Lock()
		s.listens[key] = l
		s.mu.Unlock()
	})
	defer func() {
		s.mu.Lock()
		delete(s.listens, key)
		s.mu.Unlock()
	}()
	yes := func(b bool) *bool {
		if !b {
			return nil
		}
		return &b
	}
	_, err := s.modCall.SubscriptionsListen(ctx, &v20260728.SubscriptionsListenRequestParams{
		Notifications: v20260728.SubscriptionFilter{
			ToolsListChanged:      yes(f.ToolsListChanged),
			PromptsListChanged:    yes(f.PromptsListChanged),
			ResourcesListChanged:  yes(f.ResourcesListChanged),
			ResourceSubscriptions: f.ResourceSubscriptions,
		},
	})
	switch {
	case errors.Is(err, errListenEnded):
		return nil
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return fmt.Errorf("mcp: listen: %w", err)
	}
	return nil
}

// acknowledged delivers a listen's acknowledgement.
func (s *ClientSession) acknowledged(id rpc.ID, honoured v20260728.SubscriptionFilter) {
	s.mu.Lock()
	l := s.listens[id.String()]
	s.mu.Unlock()
	if l == nil || l.filter.Acknowledged == nil {
		return
	}
	is := func(b *bool) bool { return b != nil && *b }
	l.filter.Acknowledged(ListenFilter{
		ToolsListChanged:      is(honoured.ToolsListChanged),
		PromptsListChanged:    is(honoured.PromptsListChanged),
		ResourcesListChanged:  is(honoured.ResourcesListChanged),
		ResourceSubscriptions: honoured.ResourceSubscriptions,
	})
}
