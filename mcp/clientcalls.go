package mcp

import (
	"context"
	"errors"
	"time"

	"github.com/schemarpc/schemarpc/mcp/v20251125"
	"github.com/schemarpc/schemarpc/rpc"
)

// ErrNotDeclared is returned (wrapped) when a handler asks the client for
// something it did not declare in its capabilities, or that the session's
// version does not have; nothing is sent then.
var ErrNotDeclared = errors.New("mcp: the client did not declare this capability")

// abandoned runs when a request of the server's ended before the client
// answered it, because the call it serves was cancelled (the client's
// notifications/cancelled, or its stream closed) or ended: the client is
// told to stop with notifications/cancelled, on the way the request went,
// as the client does for its own calls (ClientSession.abandoned).
func (ss *ServerSession) abandoned(ctx context.Context, id rpc.ID, method string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	err := ss.conn.Notify(ctx, "notifications/cancelled", &CancelledNotificationParams{RequestID: &id, Reason: "the call that asked was cancelled"})
	if err != nil {
		ss.log.Debug("mcp: notifications/cancelled not sent", "id", id.String(), "method", method, "error", err)
	}
}

// callbacks is the generated client of the methods the client serves.
func (ss *ServerSession) callbacks() *v20251125.MCPCallbacksClient {
	return v20251125.NewMCPCallbacksClient(ss.conn)
}

// awaitClient marks the client request ctx serves as waiting for the
// client's answer to a request of the server's, until the returned func
// is called: a session whose client is gone cancels such calls (see
// cancelAwaiting).
func awaitClient(ctx context.Context) (done func()) {
	rc, _ := ctx.Value(requestContextKey{}).(*requestContext)
	if rc == nil {
		return func() {}
	}
	rc.awaiting.Add(1)
	return func() { rc.awaiting.Add(-1) }
}

// CreateMessage asks the client to sample its language model
// (sampling/createMessage). The client must have declared sampling, and
// sampling.tools when params offer tools. Use the handler's ctx: on
// Streamable HTTP the request then travels on the stream of the call being
// served.
func (ss *ServerSession) CreateMessage(ctx context.Context, p *CreateMessageRequestParams) (*CreateMessageResult, error) {
	ss.mu.Lock()
	caps := ss.caps
	ss.mu.Unlock()
	if !caps.sampling {
		return nil, notDeclared("sampling")
	}
	if len(p.Tools) > 0 && (!caps.samplingTools || !ss.features().samplingTools) {
		return nil, notDeclared("sampling", "tools")
	}
	if p.Messages == nil {
		p.Messages = []SamplingMessage{}
	}
	defer awaitClient(ctx)()
	return ss.callbacks().SamplingCreateMessage(ctx, p)
}

// Elicit asks the user, through the client, for information
// (elicitation/create): a form described by a flat JSON Schema, or (from
// 2025-11-25) a URL to visit. The client must have declared the mode.
func (ss *ServerSession) Elicit(ctx context.Context, p *ElicitRequestParams) (*ElicitResult, error) {
	ss.mu.Lock()
	caps := ss.caps
	ss.mu.Unlock()
	f := ss.features()
	switch p.Value.(type) {
	case ElicitRequestURLParams, *ElicitRequestURLParams:
		if !f.urlElicit || !caps.elicitURL {
			return nil, notDeclared("elicitation", "url")
		}
	default:
		if !f.elicitation || !caps.elicitForm {
			return nil, notDeclared("elicitation", "form")
		}
		p = downgradeElicit(p, f)
	}
	defer awaitClient(ctx)()
	return ss.callbacks().ElicitationCreate(ctx, p)
}

// ListRoots asks the client for its roots (roots/list). The client must
// have declared roots.
func (ss *ServerSession) ListRoots(ctx context.Context) (*ListRootsResult, error) {
	ss.mu.Lock()
	ok := ss.caps.roots
	ss.mu.Unlock()
	if !ok {
		return nil, notDeclared("roots")
	}
	defer awaitClient(ctx)()
	return ss.callbacks().RootsList(ctx, &RequestParams{})
}

// Ping checks that the client answers.
func (ss *ServerSession) Ping(ctx context.Context) error {
	defer awaitClient(ctx)()
	_, err := ss.callbacks().Ping(ctx, &RequestParams{})
	return err
}

// ElicitationComplete tells the client that the out-of-band interaction of
// a URL-mode elicitation has finished (notifications/elicitation/complete,
// 2025-11-25). The client must have declared elicitation.url.
func (ss *ServerSession) ElicitationComplete(ctx context.Context, elicitationID string) error {
	ss.mu.Lock()
	ok := ss.caps.elicitURL
	ss.mu.Unlock()
	if !ss.features().urlElicit || !ok {
		return notDeclared("elicitation", "url")
	}
	return ss.conn.Notify(ctx, "notifications/elicitation/complete", &ElicitationCompleteNotificationParams{ElicitationID: elicitationID})
}
