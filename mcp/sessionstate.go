package mcp

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strconv"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// sharedState is what a SessionStore keeps of a
// handshake-era session: what initialize negotiated and what the client
// changed since, enough for another replica to serve the session's next
// request as this one would.
type sharedState struct {
	Version      string          `json:"protocolVersion"`
	Capabilities json.RawMessage `json:"capabilities,omitempty"`
	ClientInfo   json.RawMessage `json:"clientInfo,omitempty"`
	Ready        bool            `json:"ready,omitempty"` // notifications/initialized arrived
	LogLevel     int             `json:"logLevel"`        // index in logLevels; -1: off
	Subscribed   []string        `json:"subscribed,omitempty"`
	Principal    string          `json:"principal,omitempty"` // see ServerSession.admits
	// Revision counts the changes of the state: a copy leaves a state of
	// its own revision or older unapplied, so that a state read or
	// published before a change does not undo it.
	Revision uint64 `json:"revision,omitempty"`
}

// snapshot returns the session's shared state as its next revision; ok
// is false before initialize has been answered.
func (ss *ServerSession) snapshot() (st sharedState, ok bool) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state == stateNew {
		return sharedState{}, false
	}
	ss.revision++
	return sharedState{
		Revision:     ss.revision,
		Version:      ss.version,
		Capabilities: ss.clientCaps,
		ClientInfo:   ss.clientInfo,
		Ready:        ss.state == stateReady,
		LogLevel:     ss.logLevel,
		Subscribed:   slices.Sorted(maps.Keys(ss.subscribed)),
		Principal:    ss.principal,
	}, true
}

// errBadSharedState reports a stored session state this server cannot
// take up: not the document it writes, or a version it does not serve.
var errBadSharedState = errors.New("mcp: the stored session state is not usable")

// restore takes up a session initialized elsewhere from its shared state,
// or brings a copy up to date with what another replica changed: after it
// the session is as the state says, log level and subscriptions included.
// Once the copy holds a state, one of its own revision or older changes
// nothing: it was read or published before a change the copy already has
// (possibly one made here and not yet saved).
func (ss *ServerSession) restore(doc []byte) error {
	if ss.holdsRevisionOf(doc) {
		return nil
	}
	var st sharedState
	if err := json.Unmarshal(doc, &st); err != nil || st.Version == "" || !ss.server.serves(st.Version) || st.LogLevel < -1 || st.LogLevel >= len(logLevels) {
		return errBadSharedState
	}
	var caps ClientCapabilities
	if len(st.Capabilities) > 0 {
		if err := json.Unmarshal(st.Capabilities, &caps); err != nil {
			return errBadSharedState
		}
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.state != stateNew && st.Revision <= ss.revision {
		return nil
	}
	ss.revision = st.Revision
	ss.state = stateInitialized
	if st.Ready {
		ss.state = stateReady
	}
	ss.setInitialized(st.Version)
	ss.clientCaps = st.Capabilities
	ss.clientInfo = st.ClientInfo
	ss.caps = clientCapsOf(caps)
	ss.declared = caps
	ss.offered = ss.server.offer(st.Version)
	ss.logLevel = st.LogLevel
	ss.principal = st.Principal
	clear(ss.subscribed)
	if ss.subscribed == nil && len(st.Subscribed) > 0 {
		ss.subscribed = make(map[string]bool, len(st.Subscribed))
	}
	for _, uri := range st.Subscribed {
		ss.subscribed[uri] = true
	}
	return nil
}

// holdsRevisionOf reports whether the copy already holds a state of doc's
// revision or a later one, reading only the revision: a replica reads the
// state before each request of a session, and mostly finds the one it
// holds, which need not be decoded again. A doc whose revision cannot be
// read gets false, and restore's full reading.
func (ss *ServerSession) holdsRevisionOf(doc []byte) bool {
	v, ok := jsonscan.Member(doc, "revision")
	if !ok {
		return false
	}
	rev, err := strconv.ParseUint(string(v), 10, 64)
	if err != nil {
		return false
	}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.state != stateNew && rev <= ss.revision
}

// stateChanged tells whoever shares the session's state (the Streamable
// HTTP handler of a replicated server) that it changed.
func (ss *ServerSession) stateChanged() {
	if f := ss.onChange; f != nil {
		f()
	}
}
