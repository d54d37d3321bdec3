package mcp

// initialize answers the handshake: it fixes the session's version (the
// client's when supported, else the latest), records the client's
// capabilities and offers the server's.
func (ss *ServerSession) initialize(p *InitializeRequestParams) *InitializeResult {
	v := negotiate(p.ProtocolVersion)
	offered := ss.server.offer(v)
	ss.mu.Lock()
	ss.state = stateInitialized
	ss.version = v
	ss.clientCaps = rawJSON(p.Capabilities)
	ss.clientInfo = rawJSON(p.ClientInfo)
	ss.caps = clientCapsOf(p.Capabilities)
	ss.offered = offered
	ss.mu.Unlock()
	return &InitializeResult{
		ProtocolVersion: v,
		Capabilities:    offered.capabilities(),
		ServerInfo:      ss.server.info,
		Instructions:    ss.server.opts.Instructions,
	}
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
