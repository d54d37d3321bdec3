package mcpredis

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/mcp"
)

// sessionStore is an mcp.SessionStore keeping each session's state in a
// string key that expires with it.
type sessionStore struct {
	rdb    redis.UniversalClient
	prefix string
}

// Put stores state with SET … PX; a ttl of zero or less stores nothing
// and drops what was there, as the state would expire at once.
func (s *sessionStore) Put(ctx context.Context, id string, state []byte, ttl time.Duration) error {
	var err error
	if ttl <= 0 {
		err = s.rdb.Del(ctx, s.prefix+id).Err()
	} else {
		err = s.rdb.Do(ctx, "SET", s.prefix+id, state, "PX", milliseconds(ttl)).Err()
	}
	if err != nil {
		return fmt.Errorf("mcpredis: storing session %q: %w", id, err)
	}
	return nil
}

// Get reads the state with GET.
func (s *sessionStore) Get(ctx context.Context, id string) ([]byte, error) {
	state, err := s.rdb.Get(ctx, s.prefix+id).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, mcp.ErrSessionNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("mcpredis: reading session %q: %w", id, err)
	}
	return state, nil
}

// Touch restarts the expiry with PEXPIRE.
func (s *sessionStore) Touch(ctx context.Context, id string, ttl time.Duration) error {
	ms := int64(0)
	if ttl > 0 {
		ms = milliseconds(ttl)
	}
	ok, err := s.rdb.Do(ctx, "PEXPIRE", s.prefix+id, ms).Bool()
	if err != nil {
		return fmt.Errorf("mcpredis: touching session %q: %w", id, err)
	}
	if !ok {
		return mcp.ErrSessionNotFound
	}
	return nil
}

// Delete drops the state with DEL.
func (s *sessionStore) Delete(ctx context.Context, id string) error {
	if err := s.rdb.Del(ctx, s.prefix+id).Err(); err != nil {
		return fmt.Errorf("mcpredis: deleting session %q: %w", id, err)
	}
	return nil
}
