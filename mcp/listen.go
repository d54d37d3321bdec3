package mcp

import (
	"context"
	"slices"
	"sync"

	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/mcp/v20260728/tasksext"
	"github.com/schemarpc/schemarpc/rpc"
)

// subscriptionFilter is what a listen hears about: the part of its
// request's filter the server honours.
type subscriptionFilter struct {
	ToolsListChanged      bool
	PromptsListChanged    bool
	ResourcesListChanged  bool
	ResourceSubscriptions []string
}

// listener is one open subscriptions/listen.
type listener struct {
	// meta tags each notification of the listen with its request's id, the
	// subscriptionId.
	meta   *v20260728.NotificationMetaObject
	filter subscriptionFilter
	sink   statelessSink
	ctx    context.Context
	// tasks is the task owner whose notifications/tasks the listen hears
	// (its request declared the tasks extension); "" hears none.
	tasks string
	end   chan struct{} // closed to end the listen gracefully

	mu sync.Mutex // orders the acknowledgement before everything else
}

// listen serves subscriptions/listen, request id with params p (checked
// against the schema and decoded by the generated bindings): it
// acknowledges the part of the filter the server honours (only kinds whose
// capability it offers), then forwards the matching notifications, each
// tagged with the listen's id as subscriptionId, until the client goes
// away (the stream closes on HTTP, notifications/cancelled on stdio: no
// answer then) or the server ends the listen (the listen result).
func (s *Server) listen(ctx context.Context, c *callState, id rpc.ID, p *v20260728.SubscriptionsListenRequestParams) (any, error) {
	offered := s.offer(Version20260728)
	want := p.Notifications
	l := &listener{meta: &v20260728.NotificationMetaObject{SubscriptionID: &id}, sink: c.sink, ctx: ctx, end: make(chan struct{})}
	l.filter = subscriptionFilter{
		ToolsListChanged:     isTrue(want.ToolsListChanged) && offered.has(capTools),
		PromptsListChanged:   isTrue(want.PromptsListChanged) && offered.has(capPrompts),
		ResourcesListChanged: isTrue(want.ResourcesListChanged) && offered.has(capResources),
	}
	if offered.has(capTasksExtension) && declaresTasks(c.caps) {
		l.tasks = statelessTaskOwner(c.principal)
	}
	if offered.has(capSubscribe) {
		l.filter.ResourceSubscriptions = slices.Compact(slices.Sorted(slices.Values(want.ResourceSubscriptions)))
	}
	l.mu.Lock()
	s.mu.Lock()
	s.listens[l] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.listens, l)
		s.mu.Unlock()
	}()
	ack := &v20260728.SubscriptionsAcknowledgedNotificationParams{Meta: l.meta, Notifications: v20260728.SubscriptionFilter{
		ToolsListChanged:      trueOrNil(l.filter.ToolsListChanged),
		PromptsListChanged:    trueOrNil(l.filter.PromptsListChanged),
		ResourcesListChanged:  trueOrNil(l.filter.ResourcesListChanged),
		ResourceSubscriptions: l.filter.ResourceSubscriptions,
	}}
	err := l.sink.notify(ctx, v20260728.MethodNotificationsSubscriptionsAcknowledged, ack)
	l.mu.Unlock()
	if err != nil {
		return nil, rpc.ErrNoResponse
	}
	select {
	case <-ctx.Done():
		return nil, rpc.ErrNoResponse
	case <-l.end:
		// decorate adds resultType and the server's identity.
		return &struct {
			Meta v20260728.SubscriptionsListenResultMetaObject `json:"_meta"`
		}{v20260728.SubscriptionsListenResultMetaObject{SubscriptionID: id}}, nil
	}
}

// isTrue reports whether an optional flag is set and true.
func isTrue(b *bool) bool { return b != nil && *b }

// trueOrNil is the optional flag that is true when b is, and absent
// otherwise.
func trueOrNil(b bool) *bool {
	if !b {
		return nil
	}
	return &b
}

// CloseSubscriptions ends every open subscriptions/listen gracefully: each
// gets its listen result, which ends its stream. Call it before shutting a
// server down.
func (s *Server) CloseSubscriptions() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for l := range s.listens {
		select {
		case <-l.end:
		default:
			close(l.end)
		}
		delete(s.listens, l)
	}
}

// listeners returns the open listens that match.
func (s *Server) listeners(match func(*listener) bool) []*listener {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*listener
	for l := range s.listens {
		if match(l) {
			out = append(out, l)
		}
	}
	return out
}

// tell sends one notification on a listen stream; its params carry the
// listen's subscriptionId (l.meta).
func (l *listener) tell(method string, params any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sink.notify(l.ctx, method, params)
}

// tellListChanged forwards a list change to the listens that asked for it.
func (s *Server) tellListChanged(method string, c capability) {
	match := func(l *listener) bool {
		f := l.filter
		switch c {
		case capTools:
			return f.ToolsListChanged
		case capPrompts:
			return f.PromptsListChanged
		case capResources:
			return f.ResourcesListChanged
		}
		return false
	}
	for _, l := range s.listeners(match) {
		if err := l.tell(method, &v20260728.NotificationParams{Meta: l.meta}); err != nil {
			s.log.Debug("mcp: list change not delivered to a listen", "method", method, "error", err)
		}
	}
}

// tellResourceUpdated forwards a resource change to the listens that
// subscribed to the resource.
func (s *Server) tellResourceUpdated(uri string) {
	match := func(l *listener) bool { return slices.Contains(l.filter.ResourceSubscriptions, uri) }
	for _, l := range s.listeners(match) {
		if err := l.tell(v20260728.MethodNotificationsResourcesUpdated, &v20260728.ResourceUpdatedNotificationParams{Meta: l.meta, URI: uri}); err != nil {
			s.log.Debug("mcp: resource update not delivered to a listen", "uri", uri, "error", err)
		}
	}
}

// notifyTaskListeners sends notifications/tasks, a task's new state, to
// the listens of its owner that declared the tasks extension.
func (s *Server) notifyTaskListeners(owner string, t Task) {
	for _, l := range s.listeners(func(l *listener) bool { return l.tasks == owner }) {
		params := &tasksext.TaskStatusNotificationParams{TaskID: t.TaskID, Status: tasksext.TaskStatus(t.Status),
			StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt, LastUpdatedAt: t.LastUpdatedAt,
			TTLMs: t.TTL, PollIntervalMs: t.PollInterval, Meta: l.meta}
		if err := l.tell(methodTaskNotification, params); err != nil {
			s.log.Debug("mcp: task status not delivered to a listen", "task", t.TaskID, "error", err)
		}
	}
}

// methodTaskNotification is the tasks extension's status notification.
const methodTaskNotification = "notifications/tasks"
