package mcp

import "encoding/json"

// initialize answers the handshake: it fixes the session's version (the
// client's when supported, else the latest), records the client's
// capabilities and offers the server's.
func (ss *ServerSession) initialize(p *InitializeRequestParams) *InitializeResult {
	v := negotiate(p.ProtocolVersion)
	offered := ss.server.offer(v)
	caps := rawJSON(p.Capabilities)
	ss.mu.Lock()
	ss.state = stateInitialized
	ss.version = v
	ss.clientCaps = caps
	ss.clientInfo = rawJSON(p.ClientInfo)
	ss.caps = decodeClientCaps(caps)
	ss.offered = offered
	ss.mu.Unlock()
	return &InitializeResult{
		ProtocolVersion: v,
		Capabilities:    offered.capabilities(),
		ServerInfo:      ss.server.info,
		Instructions:    ss.server.opts.Instructions,
	}
}

// decodeClientCaps reads the client capabilities the server acts on. An
// empty elicitation object means form mode only.
func decodeClientCaps(raw json.RawMessage) clientCaps {
	var c struct {
		Sampling *struct {
			Tools json.RawMessage `json:"tools"`
		} `json:"sampling"`
		Elicitation *struct {
			Form json.RawMessage `json:"form"`
			URL  json.RawMessage `json:"url"`
		} `json:"elicitation"`
		Roots json.RawMessage `json:"roots"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return clientCaps{}
	}
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
