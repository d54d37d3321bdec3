package auth

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"slices"
	"strconv"
	"time"
)

// TokenInfo is what a [Verifier] learned about an access token.
type TokenInfo struct {
	// Issuer is the authorization server that issued the token (its
	// iss), "" when unknown. A session is bound to it with the subject
	// and the client, so that equal subjects of two issuers stay apart.
	Issuer string
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

// identityOf names whom a token acts for, as mcp.WithPrincipal and the
// session binding want it: its issuer, subject and client, each quoted so
// that no two identities read alike, and so that state issued to one
// user, or to one client of the same user, opens for no other. A token
// with neither a subject nor a client identifies no one: it stands for
// itself alone (a digest of the token), so that two such tokens share
// nothing.
func identityOf(info *TokenInfo, token string) string {
	if info.Subject == "" && info.ClientID == "" {
		sum := sha256.Sum256([]byte(token))
		return "token " + hex.EncodeToString(sum[:])
	}
	return strconv.Quote(info.Issuer) + " " + strconv.Quote(info.Subject) + " " + strconv.Quote(info.ClientID)
}
