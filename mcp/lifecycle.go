package mcp

import (
	"context"
	"encoding/json"
)

// initialize answers the handshake: it fixes the session's version (the
// client's when supported, else the latest), records the client's
// capabilities and offers the server's.
func (ss *ServerSession) initialize(ctx context.Context, version string, caps, info json.RawMessage) (map[string]any, error) {
	v := negotiate(version)
	offered := ss.server.offer(v)
	ss.mu.Lock()
	ss.state = stateInitialized
	ss.version = v
	ss.clientCaps = caps
	ss.clientInfo = info
	ss.caps = decodeClientCaps(caps)
	ss.offered = offered
	ss.mu.Unlock()
	res := map[string]any{
		"protocolVersion": v,
		"capabilities":    offered.capabilitiesJSON(),
		"serverInfo":      ss.server.info,
	}
	if ss.server.opts.Instructions != "" {
		res["instructions"] = ss.server.opts.Instructions
	}
	return res, nil
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
