package mcp

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"
)

// ErrStateInvalid reports a sealed request state that does not open: not a
// token this sealer made, changed in transit, made with another key, or
// presented for another request than the one it was sealed for.
var ErrStateInvalid = errors.New("mcp: invalid request state")

// ErrStateExpired reports a sealed request state that is authentic but
// older than the sealer's time to live.
var ErrStateExpired = errors.New("mcp: expired request state")

// sealerDefaultTTL is how long a sealed state stays valid unless told.
const sealerDefaultTTL = 10 * time.Minute

// sealerAADPrefix starts the additional data of every seal, so that a token made
// for something else with the same key never opens as request state.
const sealerAADPrefix = "mcp/requestState/v1\x00"

// StateSealer seals the requestState of a multi-round-trip (MRTR) answer:
// the state a handler keeps between the rounds of one request travels
// through the client, which echoes it on its retry, so the server must not
// trust what comes back. A sealed state is encrypted and authenticated
// (AES-GCM): the client can neither read nor change it, and forge none
// without the key. The seal also binds an expiry, so that an old state
// cannot be replayed forever, and a binding string naming the request it
// belongs to (method, target, a digest of the arguments, the principal…),
// so that a state issued for one request is refused on another.
//
// A sealer is safe for concurrent use. Servers behind a load balancer
// share one key, so that any instance opens what another sealed.
type StateSealer struct {
	// aead is the cipher, made at the first seal or open when the key is
	// random: a process that never answers with requestState never
	// draws the key nor sets the cipher up.
	aead func() cipher.AEAD
	ttl  time.Duration
	now  func() time.Time // the clock; tests replace it
}

// NewStateSealer returns a sealer with an AES key of 16, 24 or 32 bytes;
// nil means 32 random bytes, good for one process. A ttl of zero or less
// means 10 minutes.
func NewStateSealer(key []byte, ttl time.Duration) (*StateSealer, error) {
	if ttl <= 0 {
		ttl = sealerDefaultTTL
	}
	if key == nil {
		return &StateSealer{aead: sync.OnceValue(randomKeyAEAD), ttl: ttl, now: time.Now}, nil
	}
	aead, err := newAEAD(key)
	if err != nil {
		return nil, err
	}
	return &StateSealer{aead: func() cipher.AEAD { return aead }, ttl: ttl, now: time.Now}, nil
}

// randomKeyAEAD is the cipher of a sealer with 32 random bytes for a key.
func randomKeyAEAD() cipher.AEAD {
	key := make([]byte, 32)
	rand.Read(key)
	aead, err := newAEAD(key)
	if err != nil {
		panic("mcp: " + err.Error()) // a 32-byte key always makes one
	}
	return aead
}

// newAEAD returns AES-GCM with key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("mcp: state key: want 16, 24 or 32 bytes, have %d", len(key))
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("mcp: state key: %w", err)
	}
	return aead, nil
}

// Seal returns state sealed for the request named by binding, as URL-safe
// base64 without padding. Each call uses a fresh random nonce, so sealing
// the same state twice gives different tokens.
func (s *StateSealer) Seal(state []byte, binding string) (string, error) {
	aead := s.aead()
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+8+len(state)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("mcp: sealing request state: %w", err)
	}
	plain := binary.BigEndian.AppendUint64(make([]byte, 0, 8+len(state)), uint64(s.now().Add(s.ttl).UnixMilli()))
	plain = append(plain, state...)
	sealed := aead.Seal(nonce, nonce, plain, []byte(sealerAADPrefix+binding))
	return base64.RawURLEncoding.EncodeToString(sealed), nil
}

// Open returns the state a token seals when it was sealed by this key for
// the same binding and has not expired. The error wraps ErrStateInvalid
// or ErrStateExpired.
func (s *StateSealer) Open(token, binding string) ([]byte, error) {
	raw, err := base64.RawURLEncoding.Strict().DecodeString(token)
	if err != nil {
		return nil, fmt.Errorf("%w: not URL-safe base64", ErrStateInvalid)
	}
	aead := s.aead()
	n := aead.NonceSize()
	if len(raw) < n+8+aead.Overhead() {
		return nil, fmt.Errorf("%w: too short", ErrStateInvalid)
	}
	plain, err := aead.Open(nil, raw[:n], raw[n:], []byte(sealerAADPrefix+binding))
	if err != nil {
		return nil, fmt.Errorf("%w: it fails authentication", ErrStateInvalid)
	}
	expiry := time.UnixMilli(int64(binary.BigEndian.Uint64(plain)))
	if !s.now().Before(expiry) {
		return nil, fmt.Errorf("%w: it expired at %s", ErrStateExpired, expiry.UTC().Format(time.RFC3339))
	}
	return plain[8:], nil
}
