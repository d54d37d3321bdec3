package mcpredis

import (
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/mcp"
)

// Options configure a Store. The zero value is usable.
type Options struct {
	// Prefix starts every Redis key and pub/sub channel the Store uses,
	// so that several servers, or a server and other programs, can share
	// one Redis. Replicas of one server must use the same Prefix. Empty
	// means "mcp:".
	Prefix string
	// MaxEvents is how many SSE events a session keeps; the oldest go
	// first, and resuming from before an event that went is refused with
	// mcp.ErrEventNotFound. 0 means mcp.DefaultMaxEvents.
	MaxEvents int
	// MaxEventBytes is how many bytes of event data a session keeps; the
	// oldest events go first, but the newest is always kept. 0 means
	// mcp.DefaultMaxEventBytes.
	MaxEventBytes int
	// EventTTL is how long a session's events are kept after its last
	// event was stored, so that sessions that end without Forget do not
	// fill Redis. 0 means DefaultEventTTL.
	EventTTL time.Duration
	// SubscribeTimeout bounds how long Subscribe waits for Redis to
	// confirm a subscription when its context has no earlier deadline. 0
	// means DefaultSubscribeTimeout.
	SubscribeTimeout time.Duration
}

// Defaults of Options.
const (
	// DefaultPrefix starts the keys and channels of a Store whose
	// Options.Prefix is empty.
	DefaultPrefix = "mcp:"
	// DefaultEventTTL is how long an event log outlives its last event.
	DefaultEventTTL = 24 * time.Hour
	// DefaultSubscribeTimeout bounds the wait for a subscription.
	DefaultSubscribeTimeout = 10 * time.Second
)

// Store holds the shared state of a server's replicas in Redis. Its parts
// are plugged into the mcp package's options: Sessions, Broker, Events
// and Tasks.
// A Store is safe for concurrent use; it does not close the client it was
// given.
type Store struct {
	sessions *sessionStore
	broker   *broker
	events   *eventStore
	tasks    *taskStore
}

// New returns a Store on client: a *redis.Client, a *redis.ClusterClient
// or a failover client. Redis 6.2 or later is needed.
func New(client redis.UniversalClient, opts Options) *Store {
	if opts.Prefix == "" {
		opts.Prefix = DefaultPrefix
	}
	if opts.MaxEvents <= 0 {
		opts.MaxEvents = mcp.DefaultMaxEvents
	}
	if opts.MaxEventBytes <= 0 {
		opts.MaxEventBytes = mcp.DefaultMaxEventBytes
	}
	if opts.EventTTL <= 0 {
		opts.EventTTL = DefaultEventTTL
	}
	if opts.SubscribeTimeout <= 0 {
		opts.SubscribeTimeout = DefaultSubscribeTimeout
	}
	return &Store{
		sessions: &sessionStore{rdb: client, prefix: opts.Prefix + "session:"},
		broker:   newBroker(client, opts.Prefix+"topic:", opts.SubscribeTimeout),
		events: &eventStore{
			rdb: client, prefix: opts.Prefix + "events:",
			maxEvents: opts.MaxEvents, maxBytes: opts.MaxEventBytes, ttl: opts.EventTTL,
		},
		tasks: &taskStore{rdb: client, prefix: opts.Prefix + "task:"},
	}
}

// Sessions returns the store of handshake-era session state.
func (s *Store) Sessions() mcp.SessionStore { return s.sessions }

// Broker returns the broker of messages between replicas.
func (s *Store) Broker() mcp.Broker { return s.broker }

// Events returns the store of SSE events for resumption.
func (s *Store) Events() mcp.EventStore { return s.events }

// milliseconds rounds a positive duration up to whole milliseconds, the
// unit of Redis expiries.
func milliseconds(d time.Duration) int64 {
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}
