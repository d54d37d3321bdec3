package mcp

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/mcp/v20260728"
	"github.com/schemarpc/schemarpc/rpc"
)

// The routers of what a server sends a client, per era, built once: the
// generated callbacks registration (params validated against the era's
// schema) over the session found in the context.
var (
	handshakeClientRouter = sync.OnceValue(func() *rpc.Router {
		r := rpc.NewRouter()
		v20251125.RegisterMCPCallbacks(r, handshakeCallbacks{})
		return r
	})
	statelessClientRouter = sync.OnceValue(func() *rpc.Router {
		r := rpc.NewRouter()
		v20260728.RegisterMCPCallbacks(r, statelessCallbacks{})
		return r
	})
)

type clientSessionKey struct{}

// clientSessionFrom returns the session serving a server's message.
func clientSessionFrom(ctx context.Context) *ClientSession {
	s, _ := ctx.Value(clientSessionKey{}).(*ClientSession)
	return s
}

// handle serves the server's requests (handshake versions; notifications
// go through takeNote) with the router of the session's era. A request can
// be cancelled by the server's notifications/cancelled.
func (s *ClientSession) handle(ctx context.Context, req *rpc.Request) (any, error) {
	ctx = context.WithValue(ctx, clientSessionKey{}, s)
	_, stateless := s.state()
	router := handshakeClientRouter()
	if stateless {
		router = statelessClientRouter()
	}
	if req.IsNotification() {
		return s.dispatch(ctx, router, req)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	key := req.ID.String()
	s.mu.Lock()
	s.handling[key] = cancel
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.handling, key)
		s.mu.Unlock()
	}()
	return s.dispatch(ctx, router, req)
}

// dispatch serves one message of the server with the era's router, inside
// ClientOptions.Middleware.
func (s *ClientSession) dispatch(ctx context.Context, router *rpc.Router, req *rpc.Request) (any, error) {
	if len(s.client.opts.Middleware) == 0 {
		return router.Handle(ctx, req)
	}
	return chain(router, s.client.opts.Middleware).Handle(ctx, req)
}

// cancelled serves the server's notifications/cancelled: a request of the
// server's in flight stops; a listen of ours the server ends (2026-07-28
// on a stream) returns.
func (s *ClientSession) cancelled(id rpc.ID) {
	s.mu.Lock()
	cancel := s.handling[id.String()]
	l := s.listens[id.String()]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	if l != nil {
		l.endedByServer()
	}
}

// abandoned runs when a call's context ended before its answer: the
// server is told to stop, by closing the request's stream where the link
// can (2026-07-28 over HTTP), otherwise with notifications/cancelled
// (handshake versions, and 2026-07-28 on a stream). Nothing is cancelled
// while connecting (initialize never is; an unanswered discovery probe is
// left alone).
func (s *ClientSession) abandoned(_ context.Context, id rpc.ID, method string) {
	if !s.established.Load() || method == "initialize" {
		return
	}
	if s.link.cancel(id) {
		return
	}
	if s.Stateless() && s.link.isHTTP() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	err := s.conn.Notify(ctx, "notifications/cancelled", map[string]any{"requestId": id, "reason": "the client abandoned the request"})
	if err != nil {
		s.log.Debug("mcp: notifications/cancelled not sent", "id", id.String(), "error", err)
	}
}

// progressHandlerKey is the context key of a call's progress handler.
type progressHandlerKey struct{}

// WithProgressHandler returns a context whose calls ask the server for
// progress notifications (a progress token in params._meta) and deliver
// them to f, as well as to ClientOptions.OnProgress. f runs on the
// connection's reader, in order, and has seen every notification about a
// call by the time the call returns: it must be quick and must not call
// the session.
func WithProgressHandler(ctx context.Context, f func(p *ProgressNotificationParams)) context.Context {
	return context.WithValue(ctx, progressHandlerKey{}, f)
}

func progressHandlerFrom(ctx context.Context) func(*ProgressNotificationParams) {
	f, _ := ctx.Value(progressHandlerKey{}).(func(*ProgressNotificationParams))
	return f
}

// addProgress registers a call's progress handler under a new token.
func (s *ClientSession) addProgress(f func(*ProgressNotificationParams)) json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextToken++
	tok := rawJSON("progress-" + strconv.FormatInt(s.nextToken, 10))
	s.progress[string(tok)] = f
	return tok
}

// dropProgress forgets a finished call's progress handler.
func (s *ClientSession) dropProgress(token string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.progress, token)
}

// onProgress delivers a progress notification to OnProgress (the call's
// own handler has had it: see takeNote).
func (s *ClientSession) onProgress(ctx context.Context, p *ProgressNotificationParams) {
	if h := s.client.opts.OnProgress; h != nil {
		h(ctx, p)
	}
}

// handshakeCallbacks serves a handshake server's requests and notifications.
type handshakeCallbacks struct {
	v20251125.UnimplementedMCPCallbacks
}

func (handshakeCallbacks) Ping(context.Context, *RequestParams) (*EmptyResult, error) {
	return &EmptyResult{}, nil
}

func (handshakeCallbacks) SamplingCreateMessage(ctx context.Context, p *CreateMessageRequestParams) (*CreateMessageResult, error) {
	s := clientSessionFrom(ctx)
	res, err := s.sample(ctx, p)
	return downgradeSamplingResult(res, featuresOf(s.ProtocolVersion())), err
}

func (handshakeCallbacks) ElicitationCreate(ctx context.Context, p *ElicitRequestParams) (*ElicitResult, error) {
	s := clientSessionFrom(ctx)
	res, err := s.elicit(ctx, p)
	if err != nil {
		s.log.Warn("mcp: elicitation not answered", "error", err)
	}
	return res, err
}

func (handshakeCallbacks) RootsList(ctx context.Context, _ *RequestParams) (*ListRootsResult, error) {
	s := clientSessionFrom(ctx)
	res, err := s.roots(ctx)
	return downgradeRoots(res, featuresOf(s.ProtocolVersion())), err
}

func (handshakeCallbacks) NotificationsCancelled(ctx context.Context, p *CancelledNotificationParams) error {
	if p.RequestID != nil {
		clientSessionFrom(ctx).cancelled(*p.RequestID)
	}
	return nil
}

func (handshakeCallbacks) NotificationsProgress(ctx context.Context, p *ProgressNotificationParams) error {
	clientSessionFrom(ctx).onProgress(ctx, p)
	return nil
}

func (handshakeCallbacks) NotificationsMessage(ctx context.Context, p *LoggingMessageNotificationParams) error {
	if h := clientSessionFrom(ctx).client.opts.OnLog; h != nil {
		h(ctx, p)
	}
	return nil
}

func (handshakeCallbacks) NotificationsToolsListChanged(ctx context.Context, _ *NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnToolsListChanged)
	return nil
}

func (handshakeCallbacks) NotificationsPromptsListChanged(ctx context.Context, _ *NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnPromptsListChanged)
	return nil
}

func (handshakeCallbacks) NotificationsResourcesListChanged(ctx context.Context, _ *NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnResourcesListChanged)
	return nil
}

func (handshakeCallbacks) NotificationsResourcesUpdated(ctx context.Context, p *ResourceUpdatedNotificationParams) error {
	if h := clientSessionFrom(ctx).client.opts.OnResourceUpdated; h != nil {
		h(ctx, p)
	}
	return nil
}

func (handshakeCallbacks) NotificationsElicitationComplete(ctx context.Context, p *ElicitationCompleteNotificationParams) error {
	if h := clientSessionFrom(ctx).client.opts.OnElicitationComplete; h != nil {
		h(ctx, p)
	}
	return nil
}

func (handshakeCallbacks) NotificationsTasksStatus(context.Context, *TaskStatusNotificationParams) error {
	return nil
}

// callIf calls f when it is set.
func callIf(ctx context.Context, f func(context.Context)) {
	if f != nil {
		f(ctx)
	}
}

// statelessCallbacks serves what a stateless server sends: notifications
// about a request (progress, log), on a listen stream (acknowledgement,
// changes), and notifications/cancelled ending a listen on a stream.
type statelessCallbacks struct {
	v20260728.UnimplementedMCPCallbacks
}

func (statelessCallbacks) NotificationsCancelled(ctx context.Context, p *v20260728.CancelledNotificationParams) error {
	clientSessionFrom(ctx).cancelled(p.RequestID)
	return nil
}

func (statelessCallbacks) NotificationsProgress(ctx context.Context, p *v20260728.ProgressNotificationParams) error {
	var q ProgressNotificationParams
	if err := convertJSON(p, &q); err != nil {
		return err
	}
	clientSessionFrom(ctx).onProgress(ctx, &q)
	return nil
}

func (statelessCallbacks) NotificationsMessage(ctx context.Context, p *v20260728.LoggingMessageNotificationParams) error {
	h := clientSessionFrom(ctx).client.opts.OnLog
	var q LoggingMessageNotificationParams
	if h == nil || convertJSON(p, &q) != nil {
		return nil
	}
	h(ctx, &q)
	return nil
}

func (statelessCallbacks) NotificationsSubscriptionsAcknowledged(ctx context.Context, p *v20260728.SubscriptionsAcknowledgedNotificationParams) error {
	if p.Meta == nil || p.Meta.SubscriptionID == nil {
		return nil
	}
	clientSessionFrom(ctx).acknowledged(*p.Meta.SubscriptionID, p.Notifications)
	return nil
}

func (statelessCallbacks) NotificationsToolsListChanged(ctx context.Context, _ *v20260728.NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnToolsListChanged)
	return nil
}

func (statelessCallbacks) NotificationsPromptsListChanged(ctx context.Context, _ *v20260728.NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnPromptsListChanged)
	return nil
}

func (statelessCallbacks) NotificationsResourcesListChanged(ctx context.Context, _ *v20260728.NotificationParams) error {
	callIf(ctx, clientSessionFrom(ctx).client.opts.OnResourcesListChanged)
	return nil
}

func (statelessCallbacks) NotificationsResourcesUpdated(ctx context.Context, p *v20260728.ResourceUpdatedNotificationParams) error {
	h := clientSessionFrom(ctx).client.opts.OnResourceUpdated
	var q ResourceUpdatedNotificationParams
	if h == nil || convertJSON(p, &q) != nil {
		return nil
	}
	h(ctx, &q)
	return nil
}
