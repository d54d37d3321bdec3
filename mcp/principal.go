package mcp

import (
	"context"
	"errors"
	"net/http"
)

type principalKey struct{}

// WithPrincipal returns ctx naming who the request acts for: a user, a
// client, or both, in any form that is stable across the user's requests
// (auth.Require sets the token's issuer, subject and client id, or a
// digest of the token when it names neither subject nor client). The server binds
// the requestState it seals for a 2026-07-28 multi-round-trip request to
// it, so that state issued to one principal opens for no other, and the
// Streamable HTTP handler binds a handshake-era session initialized with a
// principal to it: a request of the session for another principal, or for
// none, is refused with 403, at every replica. Set it in
// the HTTP middleware in front of the handler when authentication is one
// of your own.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// PrincipalFromContext returns the principal set with [WithPrincipal], ""
// when there is none.
func PrincipalFromContext(ctx context.Context) string {
	p, _ := ctx.Value(principalKey{}).(string)
	return p
}

// admits reports whether a request acting for the principal of ctx may
// use the session: the session was opened for no principal, or for this
// one. A session opened for a principal refuses every other, and a
// request that names none; the binding travels with the session's shared
// state, so that it holds at every replica.
func (ss *ServerSession) admits(ctx context.Context) bool {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.principal == "" || ss.principal == PrincipalFromContext(ctx)
}

// admitted passes on what finding a session gave, or refuses (403) the
// session found when it was opened for another principal than ctx's.
func admitted(ctx context.Context, sess *httpSession, status int, err error) (*httpSession, int, error) {
	if sess != nil && !sess.ss.admits(ctx) {
		return nil, http.StatusForbidden, errors.New("the session was opened for another principal")
	}
	return sess, status, err
}
