package mcp

import (
	"bytes"
	"sync/atomic"
)

// A client sends the same _meta on every stateless request (its version,
// its capabilities, its identity), byte for byte. What the server reads of
// it (where its members lie) and what it decides about it (the version,
// the log level) are functions of those bytes alone, so the server
// remembers them for the last _meta it admitted (metaMemo): a request whose
// _meta is the same bytes skips the walk over it and the checks of its
// members. A different _meta is read in full, as if nothing were
// remembered; the tests hold both paths to the same answers and errors
// (statelessmeta_test.go).

// metaMemo remembers one admitted _meta per server. Safe for concurrent
// use: an entry is never changed once published, and readers compare its
// bytes with their own, so whichever entry they see answers for exactly
// the _meta it holds.
type metaMemo struct {
	last atomic.Pointer[admittedMeta]
	// misses counts the admitted requests in a row whose _meta was not
	// the one remembered; past maxMetaMisses the next one replaces it. A
	// client whose _meta changes on every request (a progress token, say)
	// costs a copy once in that many requests, not on each; two clients
	// taking turns keep the first one's.
	misses atomic.Int32
}

// maxMetaMisses is how many admitted requests in a row may miss the
// remembered _meta before the next one replaces it.
const maxMetaMisses = 4

// maxMetaMemo is the largest _meta remembered, in bytes.
const maxMetaMemo = 1024

// admittedMeta is a _meta that admitStateless accepted, with what was read
// and decided from it. Its positions are relative to raw.
type admittedMeta struct {
	raw                        []byte // the _meta value, a copy
	versionAt, capsAt, levelAt span
	version                    string
	emptyCaps                  bool // the capabilities are {}: nothing to decode
	logLevel                   int  // severity of the log level; -1 without one
}

// lookup returns the remembered _meta if meta is the same bytes; nil
// otherwise.
func (m *metaMemo) lookup(meta []byte) *admittedMeta {
	a := m.last.Load()
	if a == nil || !bytes.Equal(a.raw, meta) {
		return nil
	}
	return a
}

// known returns the remembered _meta's bytes, for a walk of params to step
// over a _meta that starts with them (jsonscan.Object.Knowing); nil when
// nothing is remembered.
func (m *metaMemo) known() []byte {
	if a := m.last.Load(); a != nil {
		return a.raw
	}
	return nil
}

// remember notes the _meta of an admitted request, p's, with what
// admission decided of it, unless it is the one remembered already.
func (m *metaMemo) remember(p *statelessParams, version string, emptyCaps bool, logLevel int) {
	meta := p.meta()
	if len(meta) > maxMetaMemo {
		return
	}
	if a := m.last.Load(); a != nil {
		if bytes.Equal(a.raw, meta) {
			if m.misses.Load() != 0 {
				m.misses.Store(0)
			}
			return
		}
		if m.misses.Add(1) <= maxMetaMisses {
			return
		}
	}
	base := p.metaAt.start
	rel := func(s span) span {
		if s.end == 0 {
			return span{}
		}
		return span{s.start - base, s.end - base}
	}
	m.last.Store(&admittedMeta{
		raw:       bytes.Clone(meta),
		versionAt: rel(p.versionAt),
		capsAt:    rel(p.capsAt),
		levelAt:   rel(p.levelAt),
		version:   version,
		emptyCaps: emptyCaps,
		logLevel:  logLevel,
	})
	m.misses.Store(0)
}

// placeMeta sets p's positions of the _meta members the protocol defines
// from a, whose bytes are p's _meta: what scanMeta would find there.
func placeMeta(p *statelessParams, a *admittedMeta) {
	base := p.metaAt.start
	abs := func(s span) span {
		if s.end == 0 {
			return span{}
		}
		return span{s.start + base, s.end + base}
	}
	p.metaObject = true
	p.versionAt, p.capsAt, p.levelAt = abs(a.versionAt), abs(a.capsAt), abs(a.levelAt)
}
