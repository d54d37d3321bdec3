package mcp

import (
	"context"

	"github.com/schemarpc/schemarpc/internal/logx"
)

// listChanged tells every initialized session that was offered the
// capability, and every stateless listen that asked for it, that a list
// changed. The notification is not about any request: on Streamable HTTP
// it travels on the session's own stream, or on the listen's.
func (s *Server) listChanged(method string, c capability) {
	s.localListChanged(method, c)
	s.relay(change{Kind: changeList, Method: method, Capability: c})
}

// localListChanged is listChanged for the sessions and listens of this
// process only.
func (s *Server) localListChanged(method string, c capability) {
	s.tellListChanged(method, c)
	for _, ss := range s.Sessions() {
		ss.mu.Lock()
		send := ss.state != stateNew && ss.offered.has(c)
		ss.mu.Unlock()
		if send && ss.hearsBroadcasts() {
			if err := ss.conn.Notify(context.Background(), method, map[string]any{}); err != nil {
				ss.log.Debug("mcp: list change not delivered", logx.Method, method, logx.Error, err)
			}
		}
	}
}
