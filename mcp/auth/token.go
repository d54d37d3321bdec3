package auth

import (
	"context"
	"errors"
	"slices"
	"time"
)

// TokenInfo is what a [Verifier] learned about an access token.
type TokenInfo struct {
	// Subject is the resource owner (the token's sub), "" when unknown.
	Subject string
	// ClientID is the client the token was issued to.
	ClientID string
	// Scopes are the scopes the token grants.
	Scopes []string
	// Audience are the resources the token was issued for (RFC 8707).
	// [Require] with a Resource admits the token only when Audience
	// lists that resource.
	Audience []string
	// Expiry is when the token stops being valid; zero means never.
	Expiry time.Time
	// Extra holds whatever else the verifier wants handlers to see.
	Extra map[string]any
}

// HasScopes reports whether the token grants every one of scopes.
func (t *TokenInfo) HasScopes(scopes ...string) bool {
	for _, s := range scopes {
		if !slices.Contains(t.Scopes, s) {
			return false
		}
	}
	return true
}

// Verifier checks an access token. It returns an error wrapping
// [ErrInvalidToken] for a token it does not accept; any other error is a
// failure of the verifier itself (answered 500).
type Verifier interface {
	Verify(ctx context.Context, token string) (*TokenInfo, error)
}

// VerifierFunc is a function used as a [Verifier].
type VerifierFunc func(ctx context.Context, token string) (*TokenInfo, error)

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, token string) (*TokenInfo, error) {
	return f(ctx, token)
}

// ErrInvalidToken is the error a [Verifier] wraps for a token that is
// unknown, malformed, revoked or otherwise not accepted.
var ErrInvalidToken = errors.New("auth: invalid access token")

type tokenInfoKey struct{}

// WithTokenInfo returns a context carrying info, as [Require] gives it to
// the handler it protects.
func WithTokenInfo(ctx context.Context, info *TokenInfo) context.Context {
	return context.WithValue(ctx, tokenInfoKey{}, info)
}

// TokenInfoFromContext returns the token [Require] admitted the request
// with, or nil when the request did not pass through it.
func TokenInfoFromContext(ctx context.Context) *TokenInfo {
	info, _ := ctx.Value(tokenInfoKey{}).(*TokenInfo)
	return info
}

// principalOf names whom a token acts for, as mcp.WithPrincipal wants it:
// its subject and its client, so that state issued to one user, or to one
// client of the same user, opens for no other.
func principalOf(info *TokenInfo) string {
	return info.Subject + "\x00" + info.ClientID
}
