package mcp

import "context"

type principalKey struct{}

// WithPrincipal returns ctx naming who the request acts for: a user, a
// client, or both, in any form that is stable across the user's requests
// (auth.Require sets the token's issuer, subject and client id, or a
// digest of the token when it names neither subject nor client). The server binds
// the requestState it seals for a 2026-07-28 multi-round-trip request to
// it, so that state issued to one principal opens for no other. Set it in
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
