package mcp

import (
	"context"
	"encoding/json"
	"slices"
)

// change is a change of a list or of a resource, as one replica tells the
// others (see relay): every replica tells its own sessions and listens.
type change struct {
	From       string     `json:"from"`
	Kind       string     `json:"kind"` // changeList or changeResource
	Method     string     `json:"method,omitempty"`
	Capability capability `json:"capability,omitempty"`
	URI        string     `json:"uri,omitempty"`
}

const (
	changeList     = "list"     // notifications/*/list_changed
	changeResource = "resource" // notifications/resources/updated
)

// changesTopic is the broker topic where replicas announce changes.
const changesTopic = "mcp/changes"

// relay passes a change on to the other replicas, through every handler
// that shares the server with them.
func (s *Server) relay(c change) {
	s.mu.Lock()
	relays := s.relays
	s.mu.Unlock()
	for _, r := range relays {
		(*r)(c)
	}
}

// addRelay makes the server pass its changes on with publish, until the
// returned func is called.
func (s *Server) addRelay(publish func(change)) (remove func()) {
	r := &publish
	s.mu.Lock()
	s.relays = append(s.relays, r)
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		s.relays = slices.DeleteFunc(slices.Clone(s.relays), func(x *func(change)) bool { return x == r })
		s.mu.Unlock()
	}
}

// applyChange tells this process's sessions and listens of a change
// another replica announced.
func (s *Server) applyChange(c change) {
	switch c.Kind {
	case changeList:
		s.localListChanged(c.Method, c.Capability)
	case changeResource:
		s.localResourceUpdated(context.Background(), c.URI)
	}
}

// hearsBroadcasts reports whether a list change or a resource update
// should go to this session from this process. A session that other
// replicas share hears it from one replica only, the one its client's GET
// stream is connected to, so that it does not get one copy per replica.
func (ss *ServerSession) hearsBroadcasts() bool {
	return ss.hears == nil || ss.hears()
}

// fanOut connects the server's changes with the other replicas': what
// changes here is published, what is published elsewhere is applied here.
func (r *replicas) fanOut() {
	r.stopFanOut = func() {}
	if r.broker == nil {
		return
	}
	s := r.h.server
	removeRelay := s.addRelay(func(c change) {
		c.From = r.self
		out, _ := json.Marshal(c)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		defer cancel()
		if err := r.broker.Publish(ctx, changesTopic, out); err != nil {
			r.h.log.Warn("mcp: cannot tell the other replicas of a change", "error", err)
		}
	})
	stop, err := r.broker.Subscribe(context.Background(), changesTopic, func(msg []byte) {
		var c change
		if json.Unmarshal(msg, &c) != nil || c.From == r.self {
			return
		}
		s.applyChange(c)
	})
	if err != nil {
		r.h.log.Warn("mcp: cannot hear of the other replicas' changes", "error", err)
		stop = func() {}
	}
	r.stopFanOut = func() {
		removeRelay()
		stop()
	}
}
