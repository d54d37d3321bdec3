package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
)

// Request is what a feature handler receives: the session the call came on
// and the call's params, decoded and validated against the schema. Its
// methods work in both eras, so that a handler never needs to know which
// one it serves: Log, Progress, CreateMessage, Elicit, ListRoots and
// ElicitationComplete talk to the client of a handshake session, and make a
// stateless (2026-07-28) request's notifications or input_required rounds.
type Request[P any] struct {
	// Session is the handshake session the call came on, for what only a
	// session has: its id, Ping, a logger for work that outlives the call
	// (ServerSession.Logger), resource subscriptions. It is nil for a
	// stateless request (2026-07-28), which has no session: to ask or tell
	// the client anything about the call, use the Request's methods.
	Session *ServerSession
	// Params are the call's params.
	Params P

	call *callState
	// args are a tools/call's arguments as the call began with them
	// (newToolRequest), which a strict reading has accepted; see
	// argsChecked.
	args json.RawMessage
}

// Stateless reports whether the request is one of the stateless protocol
// (2026-07-28), served without a session.
func (r *Request[P]) Stateless() bool { return r.call != nil && r.call.stateless }

// ProtocolVersion returns the version the request is served in: the one
// it names (stateless) or the one its session negotiated.
func (r *Request[P]) ProtocolVersion() string {
	if r.Session != nil {
		return r.Session.ProtocolVersion()
	}
	if r.call != nil {
		return r.call.version
	}
	return ""
}

// ClientCapabilities returns what the client declared: in the request's
// own _meta (stateless) or in its session's initialize.
func (r *Request[P]) ClientCapabilities() *ClientCapabilities {
	var caps ClientCapabilities
	switch {
	case r.Session != nil:
		r.Session.mu.Lock()
		caps = r.Session.declared
		r.Session.mu.Unlock()
	case r.call != nil:
		caps = r.call.caps
	}
	return &caps
}

// Log sends a log message about the request (notifications/message). In a
// session the client's logging/setLevel decides what is sent; a stateless
// request gets messages only at or above the level its _meta asked for
// (io.modelcontextprotocol/logLevel), on its own stream, and none when it
// asked for none.
func (r *Request[P]) Log(ctx context.Context, level LoggingLevel, logger string, data any) error {
	if r.Session != nil {
		return r.Session.Log(ctx, level, logger, data)
	}
	if r.call == nil || !r.call.stateless {
		return nil
	}
	n := severity(level)
	if n < 0 {
		return fmt.Errorf("mcp: unknown log level %q", level)
	}
	if r.call.logLevel < 0 || n < r.call.logLevel {
		return nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("mcp: log data: %w", err)
	}
	return r.call.sink.notify(ctx, "notifications/message", &LoggingMessageNotificationParams{Level: level, Logger: logger, Data: raw})
}

// Logger returns an slog.Logger whose records about the request go to the
// client as log messages (see [LogHandler]), in both eras: in a session as
// its logging/setLevel allows, in a stateless request at or above the level
// its _meta names. Use the handler's ctx with it, so that the messages
// travel with the request.
func (r *Request[P]) Logger(name string) *slog.Logger {
	if r.Session != nil {
		return r.Session.Logger(name)
	}
	return slog.New(&LogHandler{to: requestLog[P]{r}, logger: name})
}

// requestLog is the logTarget of a stateless request.
type requestLog[P any] struct{ r *Request[P] }

func (l requestLog[P]) minLevel() int {
	if l.r.call == nil || !l.r.call.stateless {
		return -1
	}
	return l.r.call.logLevel
}

func (l requestLog[P]) Log(ctx context.Context, level LoggingLevel, logger string, data any) error {
	return l.r.Log(ctx, level, logger, data)
}

// CallToolRequest is the request a tool handler receives: a [Request] whose
// Params are the [CallToolRequestParams].
type CallToolRequest = Request[*CallToolRequestParams]

// ReadResourceRequest is the request a resource handler receives: a [Request] whose
// Params are the [ReadResourceRequestParams].
type ReadResourceRequest = Request[*ReadResourceRequestParams]

// GetPromptRequest is the request a prompt handler receives: a [Request] whose
// Params are the [GetPromptRequestParams].
type GetPromptRequest = Request[*GetPromptRequestParams]

// CompleteRequest is the request a completion handler receives: a [Request] whose
// Params are the [CompleteRequestParams].
type CompleteRequest = Request[*CompleteRequestParams]

// Progress tells the client how far the call has come, when the client
// asked for progress (params._meta.progressToken); otherwise it does
// nothing. progress must grow with every call; total is 0 when unknown.
// The notification is on the wire before the call's response.
func (r *Request[P]) Progress(ctx context.Context, progress, total float64, message string) error {
	return NotifyProgress(ctx, progress, total, message)
}

// progressKey carries a call's progress state.
type progressKey struct{}

// progressState holds a request's params until a handler reports progress:
// only then is the progress token looked for, so requests that never
// report progress pay nothing for it. (The flags come last, packed, so
// that a request's context stays small: see statelessCall.)
type progressState struct {
	params json.RawMessage
	mu     sync.Mutex
	token  ProgressToken // valid when found
	last   float64
	read   bool // the params have been searched
	found  bool
	sent   bool
}

// tokenLocked finds the progress token in the params, once.
func (st *progressState) tokenLocked() (ProgressToken, bool) {
	if !st.read {
		st.read = true
		var p struct {
			Meta *struct {
				ProgressToken *ProgressToken `json:"progressToken"`
			} `json:"_meta"`
		}
		if len(st.params) > 0 && json.Unmarshal(st.params, &p) == nil && p.Meta != nil && p.Meta.ProgressToken != nil {
			st.token, st.found = *p.Meta.ProgressToken, true
		}
	}
	return st.token, st.found
}

// NotifyProgress sends a progress notification for the call ctx belongs
// to, as [Request.Progress] does; for use where only the context is at hand.
func NotifyProgress(ctx context.Context, progress, total float64, message string) error {
	st, _ := ctx.Value(progressKey{}).(*progressState)
	ss := SessionFromContext(ctx)
	c := callFromContext(ctx)
	stateless := c != nil && c.stateless
	if st == nil || (ss == nil && !stateless) {
		return nil
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	tok, ok := st.tokenLocked()
	if !ok {
		return nil
	}
	if st.sent && progress <= st.last {
		return fmt.Errorf("mcp: progress must increase: %v after %v", progress, st.last)
	}
	p := &ProgressNotificationParams{ProgressToken: tok, Progress: progress}
	if total > 0 {
		p.Total = &total
	}
	var err error
	if stateless {
		p.Message = message
		err = c.sink.notify(ctx, "notifications/progress", p)
	} else {
		if ss.features().progressText {
			p.Message = message
		}
		err = ss.conn.Notify(ctx, "notifications/progress", p)
	}
	if err != nil {
		return err
	}
	st.last, st.sent = progress, true
	return nil
}
