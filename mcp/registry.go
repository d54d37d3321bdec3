package mcp

import (
	"encoding/base64"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/schemarpc/schemarpc/rpc"
)

// registry holds named registrations in the order they were added; a name
// added again replaces the entry in place. Its count is also kept apart,
// read without the lock: every stateless request asks whether the server
// offers the kind at all (Server.offers), and concurrent readers of one
// lock take turns at its reader count.
type registry[T any] struct {
	mu    sync.RWMutex
	names []string
	items map[string]T
	n     atomic.Int64 // len(names), set under mu
}

func newRegistry[T any]() *registry[T] {
	return &registry[T]{items: map[string]T{}}
}

// put adds or replaces an entry.
func (r *registry[T]) put(name string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.items[name]; !ok {
		r.names = append(r.names, name)
		r.n.Store(int64(len(r.names)))
	}
	r.items[name] = v
}

// remove deletes entries and reports whether any existed.
func (r *registry[T]) remove(names ...string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	removed := false
	for _, n := range names {
		if _, ok := r.items[n]; ok {
			delete(r.items, n)
			r.names = slices.DeleteFunc(r.names, func(x string) bool { return x == n })
			r.n.Store(int64(len(r.names)))
			removed = true
		}
	}
	return removed
}

// get returns the entry named name.
func (r *registry[T]) get(name string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.items[name]
	return v, ok
}

// len returns the number of entries.
func (r *registry[T]) len() int { return int(r.n.Load()) }

// all returns every entry in order.
func (r *registry[T]) all() []T {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]T, 0, len(r.names))
	for _, n := range r.names {
		out = append(out, r.items[n])
	}
	return out
}

// page returns up to size entries after the cursor, and the cursor of the
// next page ("" at the end). A cursor names the last entry of the page
// before, so a page stays correct when entries are added or removed
// between calls; a cursor that does not decode is -32602.
func (r *registry[T]) page(cursor string, size int) ([]T, string, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	start := 0
	if cursor != "" {
		raw, err := base64.RawURLEncoding.DecodeString(cursor)
		if err != nil || len(raw) == 0 {
			return nil, "", rpc.InvalidParams("invalid cursor")
		}
		after := string(raw)
		i := slices.Index(r.names, after)
		if i < 0 {
			// The entry it points after was removed meanwhile.
			return nil, "", rpc.InvalidParams("invalid cursor: the page it points after no longer exists")
		}
		start = i + 1
	}
	end := min(start+size, len(r.names))
	out := make([]T, 0, end-start)
	for _, n := range r.names[start:end] {
		out = append(out, r.items[n])
	}
	next := ""
	if end < len(r.names) {
		next = base64.RawURLEncoding.EncodeToString([]byte(r.names[end-1]))
	}
	return out, next, nil
}
