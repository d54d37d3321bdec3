package auth

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/schemarpc/schemarpc/mcp"
)

// SessionTokens remembers, for each MCP session of the handshake era
// (Streamable HTTP's Mcp-Session-Id), the token its latest request was
// admitted with, and binds the session to the identity of the token that
// opened it (its issuer, subject and client; the token itself when it
// names neither a subject nor a client): [Require] with
// RequireOptions.Sessions refuses (403) a request of the session that
// comes with another issuer's, user's or client's token, and, on a session
// opened by a token that identifies no one, any other token. Handlers see the token of their own request through
// [TokenInfoFromContext]; [SessionTokens.For] and [SessionTokens.Get] give
// the one a session last showed, outside a request too. Only sessions
// whose initialize passed through Require are recorded, so that made-up
// session ids cost nothing; entries of sessions not seen for the TTL are
// dropped.
type SessionTokens struct {
	ttl time.Duration
	now func() time.Time

	mu       sync.Mutex
	sessions map[string]*sessionEntry
}

type sessionEntry struct {
	info     *TokenInfo
	identity string // identityOf the opening token
	seen     time.Time
}

// NewSessionTokens returns an empty SessionTokens whose entries live ttl
// after their session's last request (0 means 24 hours).
func NewSessionTokens(ttl time.Duration) *SessionTokens {
	if ttl <= 0 {
		ttl = 24 * time.Hour
	}
	return &SessionTokens{ttl: ttl, now: time.Now, sessions: map[string]*sessionEntry{}}
}

// Get returns the token the session's latest request was admitted with,
// nil for an unknown session.
func (s *SessionTokens) Get(sessionID string) *TokenInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.sessions[sessionID]; ok {
		return e.info
	}
	return nil
}

// For returns the token of the request a handler serves: the one in ctx
// (a stateless 2026-07-28 request), else the one of session ss.
func (s *SessionTokens) For(ctx context.Context, ss *mcp.ServerSession) *TokenInfo {
	if info := TokenInfoFromContext(ctx); info != nil {
		return info
	}
	if s == nil || ss == nil || ss.ID() == "" {
		return nil
	}
	return s.Get(ss.ID())
}

// admit checks that info, of identity id, may be used in session sid (""
// for none) and records it; it reports false for a token of another
// identity than the one that opened the session.
func (s *SessionTokens) admit(sid string, info *TokenInfo, id string) bool {
	if sid == "" {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.sessions[sid]
	if !ok {
		// Not opened through this middleware, forgotten, or made up (the
		// MCP handler answers 404 for an id it does not know): nothing to
		// check it against, and nothing is recorded, so that a client
		// cannot grow the table with ids of its own.
		return true
	}
	if e.identity != id {
		return false
	}
	e.info, e.seen = info, s.now()
	return true
}

// opened records the session an initialize answer named, bound to the
// identity id of the token info that opened it.
func (s *SessionTokens) opened(sid string, info *TokenInfo, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	for id, e := range s.sessions {
		if now.Sub(e.seen) > s.ttl {
			delete(s.sessions, id)
		}
	}
	s.sessions[sid] = &sessionEntry{info: info, identity: id, seen: now}
}

// closed forgets a session.
func (s *SessionTokens) closed(sid string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, sid)
}

// sessionRecorder notes the status of an answer and calls onHeader with
// it before the header leaves, so that a session is known before its
// client can send the next request.
type sessionRecorder struct {
	http.ResponseWriter
	status   int
	onHeader func(status int, h http.Header)
}

func (w *sessionRecorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
		w.onHeader(code, w.Header())
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *sessionRecorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(b)
}

// Flush lets streaming answers through.
func (w *sessionRecorder) Flush() {
	if w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *sessionRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// serveSession runs next for an admitted request, keeping o.Sessions up
// to date, or answers 403 when the request's session belongs to another
// identity than ident, the one of the request's token info.
func (o *RequireOptions) serveSession(w http.ResponseWriter, r *http.Request, info *TokenInfo, ident string, next http.Handler) {
	sid := r.Header.Get(mcp.HeaderSessionID)
	if !o.Sessions.admit(sid, info, ident) {
		o.refuse(w, http.StatusForbidden, "", "the session was opened with another token's identity", nil)
		return
	}
	rec := &sessionRecorder{ResponseWriter: w, onHeader: func(status int, h http.Header) {
		if id := h.Get(mcp.HeaderSessionID); sid == "" && id != "" && status/100 == 2 {
			o.Sessions.opened(id, info, ident)
		}
	}}
	next.ServeHTTP(rec, r)
	if sid != "" && r.Method == http.MethodDelete && rec.status/100 == 2 {
		o.Sessions.closed(sid)
	}
}
