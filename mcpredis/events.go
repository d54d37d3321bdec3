package mcpredis

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/schemarpc/schemarpc/mcp"
)

// eventStore is an mcp.EventStore keeping each session's events in one
// Redis stream, oldest first, each entry holding the event's stream name
// (field "s") and data (field "d"). A counter key beside it holds the
// bytes of data the stream keeps. Both expire ttl after the last Append.
type eventStore struct {
	rdb                 redis.UniversalClient
	prefix              string
	maxEvents, maxBytes int
	ttl                 time.Duration
}

// replayPage is how many entries Replay reads from Redis at a time.
const replayPage = 256

// appendScript adds an event to a session's stream and drops the oldest
// entries past the bounds, in one step, so that concurrent appends from
// several replicas keep the count of bytes exact.
//
// KEYS: the session's stream, its byte counter. ARGV: the event's stream
// name, its data, the bounds in events and bytes, the expiry in ms.
var appendScript = redis.NewScript(`
local id = redis.call('XADD', KEYS[1], '*', 's', ARGV[1], 'd', ARGV[2])
local bytes = redis.call('INCRBY', KEYS[2], #ARGV[2])
local n = redis.call('XLEN', KEYS[1])
local maxEvents, maxBytes = tonumber(ARGV[3]), tonumber(ARGV[4])
while n > 1 and (n > maxEvents or bytes > maxBytes) do
	local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
	local fields, size = oldest[2], 0
	for i = 1, #fields, 2 do
		if fields[i] == 'd' then size = #fields[i + 1] end
	end
	redis.call('XDEL', KEYS[1], oldest[1])
	bytes = redis.call('DECRBY', KEYS[2], size)
	n = n - 1
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('PEXPIRE', KEYS[2], ARGV[5])
return id
`)

// keys returns the keys of a session's stream and byte counter. The
// session id is a hash tag, never empty, so that a Redis Cluster keeps
// both keys in one slot, as the script needs.
func (e *eventStore) keys(session string) (stream, bytes string) {
	stream = e.prefix + "{s:" + session + "}"
	return stream, stream + ":bytes"
}

// Append stores the event and trims the session's oldest events.
func (e *eventStore) Append(ctx context.Context, session, stream string, data []byte) (string, error) {
	key, bytesKey := e.keys(session)
	if data == nil {
		data = []byte{}
	}
	entry, err := appendScript.Run(ctx, e.rdb, []string{key, bytesKey},
		stream, data, e.maxEvents, e.maxBytes, milliseconds(e.ttl)).Text()
	if err != nil {
		return "", fmt.Errorf("mcpredis: storing an event of session %q: %w", session, err)
	}
	return formatEventID(stream, entry), nil
}

// Replay reads the session's stream after lastEventID's entry, up to its
// last entry as Replay began, a page at a time, and calls fn for the
// entries of lastEventID's stream. Each page is read together with the
// entry before it: as entries are only dropped oldest first, that entry
// still being there means nothing after it was dropped.
func (e *eventStore) Replay(ctx context.Context, session, lastEventID string, fn func(id string, data []byte) error) (string, error) {
	stream, cursor, ok := parseEventID(lastEventID)
	if !ok {
		return "", mcp.ErrEventNotFound
	}
	key, _ := e.keys(session)
	var at, last *redis.XMessageSliceCmd
	_, err := e.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		at = p.XRange(ctx, key, cursor, cursor)
		last = p.XRevRangeN(ctx, key, "+", "-", 1)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("mcpredis: replaying events of session %q: %w", session, err)
	}
	if len(at.Val()) == 0 || field(at.Val()[0], "s") != stream {
		return "", mcp.ErrEventNotFound
	}
	end := last.Val()[0].ID
	for cursor != end {
		var page *redis.XMessageSliceCmd
		_, err := e.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			at = p.XRange(ctx, key, cursor, cursor)
			page = p.XRangeN(ctx, key, "("+cursor, end, replayPage)
			return nil
		})
		if err != nil {
			return stream, fmt.Errorf("mcpredis: replaying events of session %q: %w", session, err)
		}
		if len(at.Val()) == 0 || len(page.Val()) == 0 {
			// Dropped while the replay went on.
			return stream, mcp.ErrEventNotFound
		}
		for _, m := range page.Val() {
			if field(m, "s") == stream {
				if err := fn(formatEventID(stream, m.ID), []byte(field(m, "d"))); err != nil {
					return stream, err
				}
			}
			cursor = m.ID
		}
	}
	return stream, nil
}

// field returns a field of an entry, "" when it is missing.
func field(m redis.XMessage, name string) string {
	s, _ := m.Values[name].(string)
	return s
}

// Forget drops the session's stream and counter.
func (e *eventStore) Forget(ctx context.Context, session string) error {
	key, bytesKey := e.keys(session)
	if err := e.rdb.Del(ctx, key, bytesKey).Err(); err != nil {
		return fmt.Errorf("mcpredis: forgetting the events of session %q: %w", session, err)
	}
	return nil
}
