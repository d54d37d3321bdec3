package mcp

import (
	"context"
	"log/slog"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// initialize answers the handshake: it fixes the session's version (the
// client's when supported, else the latest), records the client's
// capabilities and offers the server's. A server configured without any
// handshake version refuses with -32022 and the versions it serves, so
// that a client can switch to the stateless protocol. The session is
// bound to the principal of ctx (WithPrincipal), when there is one.
func (ss *ServerSession) initialize(ctx context.Context, p *InitializeRequestParams) (*InitializeResult, error) {
	if !ss.server.servesHandshake() {
		return nil, ss.server.unsupportedVersion(p.ProtocolVersion)
	}
	v := ss.server.negotiate(p.ProtocolVersion)
	offered := ss.server.offer(v)
	ss.mu.Lock()
	ss.state = stateInitialized
	ss.setInitialized(v)
	ss.clientCaps = rawJSON(p.Capabilities)
	ss.clientInfo = rawJSON(p.ClientInfo)
	ss.caps = clientCapsOf(p.Capabilities)
	ss.declared = p.Capabilities
	ss.offered = offered
	ss.principal = PrincipalFromContext(ctx)
	ss.mu.Unlock()
	ss.stateChanged()
	if ss.log.Enabled(context.Background(), slog.LevelInfo) {
		ss.log.LogAttrs(context.Background(), slog.LevelInfo, "mcp: session initialized",
			slog.String(logx.Version, v), slog.String("client", p.ClientInfo.Name), slog.String("client_version", p.ClientInfo.Version))
	}
	f := featuresOf(v)
	return &InitializeResult{
		ProtocolVersion: v,
		Capabilities:    offered.capabilities(f),
		ServerInfo:      downgradeImplementation(ss.server.info, f),
		Instructions:    ss.server.opts.Instructions,
	}, nil
}

// clientCapsOf reads the client capabilities the server acts on. An
// empty elicitation object means form mode only.
func clientCapsOf(c ClientCapabilities) clientCaps {
	out := clientCaps{roots: c.Roots != nil}
	if c.Sampling != nil {
		out.sampling = true
		out.samplingTools = c.Sampling.Tools != nil
	}
	if e := c.Elicitation; e != nil {
		out.elicitURL = e.URL != nil
		out.elicitForm = e.Form != nil || e.URL == nil
	}
	return out
}
