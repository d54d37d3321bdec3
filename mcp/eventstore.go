package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// EventStore keeps the SSE events a Streamable HTTP session sent, so that a
// client whose stream broke can resume it with GET and Last-Event-ID and
// receive what it missed. Each session has several streams (its GET stream
// and one per POSTed request); an event id names both the event and its
// stream. Implementations must be safe for concurrent use.
type EventStore interface {
	// Append stores data as the next event of a stream of a session and
	// returns the event's id: visible ASCII, unique within the session,
	// and telling Replay which stream it belongs to.
	Append(ctx context.Context, session, stream string, data []byte) (id string, err error)
	// Replay calls fn, in order, for every event stored after lastEventID
	// on lastEventID's stream, and returns that stream. An id that was
	// never issued, or whose later events are no longer all stored, is an
	// error matching ErrEventNotFound. An error from fn stops the replay
	// and is returned.
	Replay(ctx context.Context, session, lastEventID string, fn func(id string, data []byte) error) (stream string, err error)
	// Forget drops everything stored for a session that ended.
	Forget(ctx context.Context, session string) error
}

// ErrEventNotFound reports a Last-Event-ID the store cannot resume from: it
// was never issued in that session, or events after it were discarded.
var ErrEventNotFound = errors.New("mcp: event not found")

// MemoryEventStoreOptions bound a MemoryEventStore. The zero value is
// usable.
type MemoryEventStoreOptions struct {
	// MaxEvents is how many events a session keeps; the oldest go first,
	// and a resumption from before an event that went gets
	// ErrEventNotFound (400 on Streamable HTTP). 0 means DefaultMaxEvents
	// (1000).
	MaxEvents int
	// MaxBytes is how many bytes of event data a session keeps; the oldest
	// events go first, as with MaxEvents, but the newest event is always
	// kept. 0 means DefaultMaxEventBytes (16 MiB).
	MaxBytes int
}

// MemoryEventStore is an EventStore in process memory, bounded per
// session. Event ids have the form "<stream>-<n>", n counting the session's
// events.
type MemoryEventStore struct {
	maxEvents, maxBytes int
	// mem counts the events against a server's memory budget, under the
	// session's account; nil until a StreamableHTTPHandler uses the store.
	mem *budget

	mu       sync.Mutex
	sessions map[string]*eventLog
}

// eventLog is one session's stored events, oldest first.
type eventLog struct {
	next   uint64 // number of the next event
	events []storedEvent
	bytes  int
	// evicted holds, per stream, the number of the newest event of that
	// stream that was discarded; a replay from before it would miss events.
	// nil until an event is discarded: most sessions never lose one.
	evicted map[string]uint64
	// floor is the newest number forgotten from evicted when it grew too
	// big: replays from before it are refused, as events may be missing.
	floor uint64
}

// storedEvent is one event of an eventLog.
type storedEvent struct {
	stream string
	n      uint64
	data   []byte
}

// NewMemoryEventStore returns an empty in-memory store. opts may be nil.
func NewMemoryEventStore(opts *MemoryEventStoreOptions) *MemoryEventStore {
	m := &MemoryEventStore{maxEvents: DefaultMaxEvents, maxBytes: DefaultMaxEventBytes, sessions: map[string]*eventLog{}}
	if opts != nil {
		if opts.MaxEvents > 0 {
			m.maxEvents = opts.MaxEvents
		}
		if opts.MaxBytes > 0 {
			m.maxBytes = opts.MaxBytes
		}
	}
	return m
}

// Append stores an event; the oldest events of the session go when the
// bounds are passed.
func (m *MemoryEventStore) Append(_ context.Context, session, stream string, data []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil {
		l = &eventLog{next: 1}
		m.sessions[session] = l
	}
	n := l.next
	l.next++
	m.count(session, l, len(data))
	l.events = append(l.events, storedEvent{stream: stream, n: n, data: append([]byte(nil), data...)})
	l.bytes += len(data)
	for len(l.events) > m.maxEvents || (l.bytes > m.maxBytes && len(l.events) > 1) {
		m.uncount(session, l.evict(m.maxEvents))
	}
	return formatEventID(stream, n), nil
}

// count counts size bytes of a new event of a session against the memory
// budget, discarding the session's oldest events while they do not fit;
// the new event is always kept, and counted. m.mu is held.
func (m *MemoryEventStore) count(session string, l *eventLog, size int) {
	if m.mem == nil {
		return
	}
	a := eventAccount(session)
	for !m.mem.fits(a, int64(size)) {
		if len(l.events) == 0 {
			m.mem.force(a, int64(size))
			return
		}
		m.uncount(session, l.evict(m.maxEvents))
	}
}

// uncount gives size bytes of a session's events back to the budget.
func (m *MemoryEventStore) uncount(session string, size int) {
	if m.mem != nil && size > 0 {
		m.mem.give(eventAccount(session), int64(size))
	}
}

// eventAccount is the budget account of a session's stored events.
func eventAccount(session string) account { return account{"events", session} }

// useBudget makes the store count its events against b, and thin them
// when b is short, unless it counts against a budget already. It returns
// what takes the thinning off b again (a no-op when this call did not put
// it there): the store keeps counting what it holds.
func (m *MemoryEventStore) useBudget(b *budget) (stop func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mem != nil {
		return func() {}
	}
	m.mem = b
	return b.onPressure(m.thin)
}

// thin discards the older half, by bytes, of every session's events: what
// is stored is there only for clients that resume, the first thing to go
// when the memory budget is short.
func (m *MemoryEventStore) thin() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for session, l := range m.sessions {
		keep := l.bytes / 2
		for l.bytes > keep && len(l.events) > 1 {
			m.uncount(session, l.evict(m.maxEvents))
		}
	}
}

// evict discards the oldest event, remembers that its stream lost it, and
// returns its size. The per-stream record is bounded: past limit streams,
// the oldest records are folded into floor.
func (l *eventLog) evict(limit int) int {
	e := l.events[0]
	l.events[0] = storedEvent{}
	l.events = l.events[1:]
	l.bytes -= len(e.data)
	if l.evicted == nil {
		l.evicted = map[string]uint64{}
	}
	l.evicted[e.stream] = e.n
	if len(l.evicted) <= 4*limit {
		return len(e.data)
	}
	// Keep the newer half of the records.
	cut := l.medianEvicted()
	for s, n := range l.evicted {
		if n <= cut {
			l.floor = max(l.floor, n)
			delete(l.evicted, s)
		}
	}
	return len(e.data)
}

// medianEvicted returns the median of the evicted numbers.
func (l *eventLog) medianEvicted() uint64 {
	ns := make([]uint64, 0, len(l.evicted))
	for _, n := range l.evicted {
		ns = append(ns, n)
	}
	slices.Sort(ns)
	return ns[len(ns)/2]
}

// Replay calls fn for the events of lastEventID's stream stored after it.
func (m *MemoryEventStore) Replay(_ context.Context, session, lastEventID string, fn func(id string, data []byte) error) (string, error) {
	stream, n, ok := parseEventID(lastEventID)
	if !ok {
		return "", ErrEventNotFound
	}
	m.mu.Lock()
	l := m.sessions[session]
	if l == nil || n == 0 || n >= l.next || n < l.floor || l.evicted[stream] > n {
		m.mu.Unlock()
		return "", ErrEventNotFound
	}
	var out []storedEvent
	for _, e := range l.events {
		if e.n > n && e.stream == stream {
			out = append(out, e)
		}
	}
	m.mu.Unlock()
	for _, e := range out {
		// A copy: what fn does with data must not change the store.
		if err := fn(formatEventID(e.stream, e.n), append([]byte(nil), e.data...)); err != nil {
			return stream, err
		}
	}
	return stream, nil
}

// forgetStream drops the events of a session's stream that the client
// acknowledged having, when they are all the events the session has had
// (its initialize stream, acknowledged by notifications/initialized): a
// replay from before the stream's last event is refused from then on, as
// one from before an evicted event is, and one from its last event
// replays nothing. Otherwise it does nothing, so that no other stream's
// replay is refused.
func (m *MemoryEventStore) forgetStream(session, stream string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	l := m.sessions[session]
	if l == nil || l.evicted != nil || uint64(len(l.events)) != l.next-1 {
		return
	}
	for _, e := range l.events {
		if e.stream != stream {
			return
		}
	}
	m.uncount(session, l.bytes)
	l.events, l.bytes = nil, 0
	l.floor = l.next - 1
}

// Forget drops a session's events.
func (m *MemoryEventStore) Forget(_ context.Context, session string) error {
	m.mu.Lock()
	if l := m.sessions[session]; l != nil {
		m.uncount(session, l.bytes)
	}
	delete(m.sessions, session)
	m.mu.Unlock()
	return nil
}

// formatEventID names event n of a stream. A stream name's bytes outside
// visible ASCII, and '%', are written %XX, so that the id is visible
// ASCII whatever the name.
func formatEventID(stream string, n uint64) string {
	var b strings.Builder
	for i := 0; i < len(stream); i++ {
		if c := stream[i]; c < 0x21 || c > 0x7e || c == '%' {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(stream[i])
	}
	return b.String() + "-" + strconv.FormatUint(n, 10)
}

// parseEventID splits an id made by formatEventID.
func parseEventID(id string) (stream string, n uint64, ok bool) {
	i := strings.LastIndexByte(id, '-')
	if i < 0 {
		return "", 0, false
	}
	n, err := strconv.ParseUint(id[i+1:], 10, 64)
	if err != nil {
		return "", 0, false
	}
	name := id[:i]
	if !strings.Contains(name, "%") {
		return name, n, true
	}
	var b strings.Builder
	for j := 0; j < len(name); j++ {
		if name[j] != '%' {
			b.WriteByte(name[j])
			continue
		}
		if j+2 >= len(name) {
			return "", 0, false
		}
		c, err := strconv.ParseUint(name[j+1:j+3], 16, 8)
		if err != nil {
			return "", 0, false
		}
		b.WriteByte(byte(c))
		j += 2
	}
	return b.String(), n, true
}
