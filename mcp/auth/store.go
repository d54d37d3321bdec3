package auth

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Token is an access token the client holds for one resource.
type Token struct {
	// AccessToken is the token itself.
	AccessToken string `json:"access_token"`
	// TokenType is "Bearer", or "DPoP" for a token bound to the client's
	// DPoP key.
	TokenType string `json:"token_type,omitempty"`
	// RefreshToken gets a new access token without the user, "" when
	// none was issued.
	RefreshToken string `json:"refresh_token,omitempty"`
	// Expiry is when the access token expires; zero when unknown.
	Expiry time.Time `json:"expiry,omitzero"`
	// Scopes are the scopes granted (or, when the server did not say,
	// requested).
	Scopes []string `json:"scopes,omitempty"`
	// Issuer is the authorization server that issued the token.
	Issuer string `json:"issuer,omitempty"`
}

// expiresWithin reports whether the token expires within d of now.
func (t *Token) expiresWithin(now time.Time, d time.Duration) bool {
	return !t.Expiry.IsZero() && now.Add(d).After(t.Expiry)
}

// ClientInfo is how the client is known to one authorization server: a
// registration (dynamic or pre-arranged) or a client ID metadata
// document URL.
type ClientInfo struct {
	// ClientID is the client identifier at the server.
	ClientID string `json:"client_id"`
	// ClientSecret is "" for a public client.
	ClientSecret string `json:"client_secret,omitempty"`
	// SecretExpiry is when the secret expires; zero means never.
	SecretExpiry time.Time `json:"client_secret_expires_at,omitzero"`
	// TokenEndpointAuthMethod is how the client authenticates at the
	// token endpoint ("client_secret_basic", "client_secret_post",
	// "private_key_jwt", "none"); "" lets the client choose from the
	// server's metadata.
	TokenEndpointAuthMethod string `json:"token_endpoint_auth_method,omitempty"`
}

// TokenStore keeps tokens by resource and client registrations by issuer,
// so that credentials of one authorization server are never offered to
// another. Implementations must be safe for concurrent use; a lookup
// that finds nothing returns nil and no error.
type TokenStore interface {
	// Token returns the token held for resource.
	Token(ctx context.Context, resource string) (*Token, error)
	// SaveToken records the token for resource; nil forgets it.
	SaveToken(ctx context.Context, resource string, t *Token) error
	// Client returns the registration held at issuer.
	Client(ctx context.Context, issuer string) (*ClientInfo, error)
	// SaveClient records the registration at issuer; nil forgets it.
	SaveClient(ctx context.Context, issuer string, c *ClientInfo) error
}

// MemoryStore is a [TokenStore] in memory, safe for concurrent use.
type MemoryStore struct {
	mu      sync.Mutex
	tokens  map[string]Token
	clients map[string]ClientInfo
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{tokens: map[string]Token{}, clients: map[string]ClientInfo{}}
}

// Token returns a copy of the token held for resource.
func (m *MemoryStore) Token(ctx context.Context, resource string) (*Token, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tokens[canonicalResource(resource)]
	if !ok {
		return nil, nil
	}
	t.Scopes = slices.Clone(t.Scopes)
	return &t, nil
}

// SaveToken records a copy of t for resource.
func (m *MemoryStore) SaveToken(ctx context.Context, resource string, t *Token) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	key := canonicalResource(resource)
	if t == nil {
		delete(m.tokens, key)
		return nil
	}
	c := *t
	c.Scopes = slices.Clone(t.Scopes)
	m.tokens[key] = c
	return nil
}

// Client returns a copy of the registration held at issuer.
func (m *MemoryStore) Client(ctx context.Context, issuer string) (*ClientInfo, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.clients[issuer]
	if !ok {
		return nil, nil
	}
	return &c, nil
}

// SaveClient records a copy of c at issuer.
func (m *MemoryStore) SaveClient(ctx context.Context, issuer string, c *ClientInfo) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if c == nil {
		delete(m.clients, issuer)
		return nil
	}
	m.clients[issuer] = *c
	return nil
}
