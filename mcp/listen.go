package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/schemarpc/schemarpc/rpc"
)

// subscriptionFilter is what a subscriptions/listen asks to hear about, and
// what the acknowledgement says the server will send.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// listener is one open subscriptions/listen.
type listener struct {
	id     json.RawMessage // the listen request's id: the subscriptionId
	filter subscriptionFilter
	sink   statelessSink
	ctx    context.Context
	// tasks is the task owner whose notifications/tasks the listen hears
	// (its request declared the tasks extension); "" hears none.
	tasks string
	end   chan struct{} // closed to end the listen gracefully

	mu sync.Mutex // orders the acknowledgement before everything else
}

// listen serves subscriptions/listen: it acknowledges the part of the
// filter the server honours (only kinds whose capability it offers), then
// forwards the matching notifications, each tagged with the listen's id as
// subscriptionId, until the client goes away (the stream closes on HTTP,
// notifications/cancelled on stdio: no answer then) or the server ends the
// listen (the listen result).
func (s *Server) listen(ctx context.Context, c *callState, req *rpc.Request) (any, error) {
	var p struct {
		Notifications subscriptionFilter `json:"notifications"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		return nil, rpc.InvalidParams(rpc.DecodeReason(err))
	}
	offered := s.offer(Version20260728)
	want := p.Notifications
	l := &listener{id: rawJSON(req.ID), sink: c.sink, ctx: ctx, end: make(chan struct{})}
	l.filter = subscriptionFilter{
		ToolsListChanged:     want.ToolsListChanged && offered.has(capTools),
		PromptsListChanged:   want.PromptsListChanged && offered.has(capPrompts),
		ResourcesListChanged: want.ResourcesListChanged && offered.has(capResources),
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
	ack := struct {
		Notifications subscriptionFilter         `json:"notifications"`
		Meta          map[string]json.RawMessage `json:"_meta"`
	}{l.filter, map[string]json.RawMessage{metaSubscriptionID: l.id}}
	err := l.sink.notify(ctx, "notifications/subscriptions/acknowledged", ack)
	l.mu.Unlock()
	if err != nil {
		return nil, rpc.ErrNoResponse
	}
	select {
	case <-ctx.Done():
		return nil, rpc.ErrNoResponse
	case <-l.end:
		// decorate adds resultType and the server's identity.
		return map[string]any{"_meta": map[string]json.RawMessage{metaSubscriptionID: l.id}}, nil
	}
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

// tell sends one notification on a listen stream, tagged with its
// subscriptionId.
func (l *listener) tell(method string, params map[string]any) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if params == nil {
		params = map[string]any{}
	}
	params["_meta"] = map[string]json.RawMessage{metaSubscriptionID: l.id}
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
		if err := l.tell(method, nil); err != nil {
			s.log.Debug("mcp: list change not delivered to a listen", "method", method, "error", err)
		}
	}
}

// tellResourceUpdated forwards a resource change to the listens that
// subscribed to the resource.
func (s *Server) tellResourceUpdated(uri string) {
	match := func(l *listener) bool { return slices.Contains(l.filter.ResourceSubscriptions, uri) }
	for _, l := range s.listeners(match) {
		if err := l.tell("notifications/resources/updated", map[string]any{"uri": uri}); err != nil {
			s.log.Debug("mcp: resource update not delivered to a listen", "uri", uri, "error", err)
		}
	}
}

// notifyTaskListeners sends notifications/tasks, a task's new state, to
// the listens of its owner that declared the tasks extension.
func (s *Server) notifyTaskListeners(owner string, t Task) {
	st := stateOf(t)
	for _, l := range s.listeners(func(l *listener) bool { return l.tasks == owner }) {
		params := map[string]any{"taskId": st.TaskID, "status": st.Status, "createdAt": st.CreatedAt,
			"lastUpdatedAt": st.LastUpdatedAt, "ttlMs": st.TTLMs}
		if st.StatusMessage != "" {
			params["statusMessage"] = st.StatusMessage
		}
		if st.PollIntervalMs != nil {
			params["pollIntervalMs"] = *st.PollIntervalMs
		}
		if err := l.tell(methodTaskNotification, params); err != nil {
			s.log.Debug("mcp: task status not delivered to a listen", "task", t.TaskID, "error", err)
		}
	}
}

// methodTaskNotification is the tasks extension's status notification.
const methodTaskNotification = "notifications/tasks"
