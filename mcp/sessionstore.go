package mcp

import (
	"context"
	"errors"
	"sync"
	"time"
)

// SessionStore keeps the state of handshake-era Streamable HTTP sessions
// where every replica of a server can read it, so that a session's
// requests may land on any replica behind a load balancer. A replica that
// receives a request for a session it does not hold loads the session's
// state from the store and serves the request as the replica that
// initialized it would.
//
// The state is an opaque document the handler writes (see
// HTTPOptions.Sessions); a store keeps it as given. Each entry expires
// when it has not been put or touched for its ttl. Implementations must
// be safe for concurrent use.
type SessionStore interface {
	// Put stores state under a session id, replacing what was there, to
	// expire after ttl.
	Put(ctx context.Context, id string, state []byte, ttl time.Duration) error
	// Get returns the state stored under id. An id never stored, deleted
	// or expired is an error matching ErrSessionNotFound.
	Get(ctx context.Context, id string) ([]byte, error)
	// Touch restarts the expiry of the state under id at ttl, an error
	// matching ErrSessionNotFound when there is none.
	Touch(ctx context.Context, id string, ttl time.Duration) error
	// Delete drops the state under id; deleting an absent id is not an
	// error.
	Delete(ctx context.Context, id string) error
}

// ErrSessionNotFound reports a session id a SessionStore holds no state
// for: never stored, deleted, or expired.
var ErrSessionNotFound = errors.New("mcp: session not found")

// MemorySessionStore is a SessionStore in process memory: the state of one
// process's sessions, or, shared by several handlers, of replicas in one
// process (tests). The zero value is not usable; call NewMemorySessionStore.
type MemorySessionStore struct {
	mu        sync.Mutex
	entries   map[string]memorySession
	nextSweep time.Time
}

type memorySession struct {
	state   []byte
	expires time.Time
}

// NewMemorySessionStore returns an empty MemorySessionStore.
func NewMemorySessionStore() *MemorySessionStore {
	return &MemorySessionStore{entries: map[string]memorySession{}}
}

// Put stores a copy of state under id until ttl has passed.
func (m *MemorySessionStore) Put(_ context.Context, id string, state []byte, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweepLocked()
	m.entries[id] = memorySession{state: append([]byte(nil), state...), expires: time.Now().Add(ttl)}
	return nil
}

// Get returns a copy of the state under id.
func (m *MemorySessionStore) Get(_ context.Context, id string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(id)
	if !ok {
		return nil, ErrSessionNotFound
	}
	return append([]byte(nil), e.state...), nil
}

// Touch moves the expiry of the state under id to ttl from now.
func (m *MemorySessionStore) Touch(_ context.Context, id string, ttl time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.live(id)
	if !ok {
		return ErrSessionNotFound
	}
	e.expires = time.Now().Add(ttl)
	m.entries[id] = e
	return nil
}

// Delete drops the state under id.
func (m *MemorySessionStore) Delete(_ context.Context, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.entries, id)
	return nil
}

// live returns the entry under id unless it has expired (and then drops it).
func (m *MemorySessionStore) live(id string) (memorySession, bool) {
	e, ok := m.entries[id]
	if ok && !time.Now().Before(e.expires) {
		delete(m.entries, id)
		return memorySession{}, false
	}
	return e, ok
}

// sweepLocked drops expired entries, at most once a minute, so that
// sessions nobody asks for again do not accumulate.
func (m *MemorySessionStore) sweepLocked() {
	now := time.Now()
	if now.Before(m.nextSweep) {
		return
	}
	m.nextSweep = now.Add(time.Minute)
	for id, e := range m.entries {
		if !now.Before(e.expires) {
			delete(m.entries, id)
		}
	}
}
