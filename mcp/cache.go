package mcp

import "time"

// CacheScope says who may reuse a cached result of the stateless protocol:
// "private" (only the client that asked, with the same authorization) or
// "public" (any client of the server).
type CacheScope string

// The cache scopes of 2026-07-28.
const (
	CachePrivate CacheScope = "private"
	CachePublic  CacheScope = "public"
)

// CacheHint is the caching advice sent with the cacheable results of the
// stateless protocol (server/discover, the four lists and resources/read) as
// ttlMs and cacheScope. The zero value says "do not reuse" (ttlMs 0,
// private). Sessions of the handshake versions never see it.
type CacheHint struct {
	// TTL is how long the result may be reused; negative counts as 0.
	TTL time.Duration
	// Scope is who may reuse it; "" means private.
	Scope CacheScope
}

// ttlMs is the hint's TTL in whole milliseconds, never negative.
func (h CacheHint) ttlMs() int64 {
	if h.TTL <= 0 {
		return 0
	}
	return h.TTL.Milliseconds()
}

// scope is the hint's scope, private when unset.
func (h CacheHint) scope() CacheScope {
	if h.Scope == CachePublic {
		return CachePublic
	}
	return CachePrivate
}

// narrow combines two hints of results served together (the entries of a
// list page): the shorter lifetime and the narrower scope.
func (h CacheHint) narrow(o CacheHint) CacheHint {
	out := CacheHint{TTL: min(h.TTL, o.TTL), Scope: CachePublic}
	if h.scope() == CachePrivate || o.scope() == CachePrivate {
		out.Scope = CachePrivate
	}
	return out
}

// RegisterOption adjusts one registration (a tool, resource, resource
// template or prompt).
type RegisterOption func(*registration)

// registration is what the options of one registration set.
type registration struct {
	cache           *CacheHint
	inputBeforeTask bool
}

// WithCache sets the caching hint of one registration, for the stateless
// protocol. Registrations without one use the server's default
// (ServerOptions.Cache). resources/read results carry the hint of the
// resource or template that served them; a list page carries the narrowest
// hint of its entries (the shortest TTL; private if any is private).
func WithCache(h CacheHint) RegisterOption {
	return func(r *registration) { r.cache = &h }
}

// applyOptions folds registration options.
func applyOptions(opts []RegisterOption) registration {
	var r registration
	for _, o := range opts {
		if o != nil {
			o(&r)
		}
	}
	return r
}

// pageHint is the caching hint of a list page: the narrowest of its
// entries' hints, each entry without one counting as def; def for an empty
// page.
func pageHint[T any](def CacheHint, page []T, hint func(T) *CacheHint) CacheHint {
	if len(page) == 0 {
		return def
	}
	var out *CacheHint
	for _, e := range page {
		h := def
		if p := hint(e); p != nil {
			h = *p
		}
		if out == nil {
			out = &h
		} else {
			n := out.narrow(h)
			out = &n
		}
	}
	return *out
}
