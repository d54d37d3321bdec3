package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
)

// Request is what a feature handler receives: the session the call came on
// and the call's params, decoded and validated against the schema.
type Request[P any] struct {
	// Session is the client's session: log to it, call it back.
	Session *ServerSession
	// Params are the call's params.
	Params P
}

// CallToolRequest is the request a tool handler receives.
type CallToolRequest = Request[*CallToolRequestParams]

// ReadResourceRequest is the request a resource handler receives.
type ReadResourceRequest = Request[*ReadResourceRequestParams]

// GetPromptRequest is the request a prompt handler receives.
type GetPromptRequest = Request[*GetPromptRequestParams]

// CompleteRequest is the request a completion handler receives.
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
// report progress pay nothing for it.
type progressState struct {
	params json.RawMessage
	mu     sync.Mutex
	read   bool          // the params have been searched
	token  ProgressToken // valid when found
	found  bool
	last   float64
	sent   bool
}

// withProgress keeps a request's params for a later progress report.
func withProgress(ctx context.Context, params json.RawMessage) context.Context {
	return context.WithValue(ctx, progressKey{}, &progressState{params: params})
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
	if st == nil || ss == nil {
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
	p := ProgressNotificationParams{ProgressToken: tok, Progress: progress}
	if total > 0 {
		p.Total = &total
	}
	if ss.features().progressText {
		p.Message = message
	}
	if err := ss.conn.Notify(ctx, "notifications/progress", p); err != nil {
		return err
	}
	st.last, st.sent = progress, true
	return nil
}
