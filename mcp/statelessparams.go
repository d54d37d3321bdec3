package mcp

import (
	"bytes"

	"github.com/schemarpc/schemarpc/internal/jsonscan"
)

// statelessParams are the members of a stateless request's params that the
// protocol itself reads, found in one pass over the params: _meta and the
// members of it the protocol defines, for telling a stateless request
// (scanStatelessRequest) and admitting it (admitStateless), and the
// target, arguments, input responses and request state of a
// multi-round-trip request (openRound). A nil member is absent.
type statelessParams struct {
	object bool // the params are an object, well formed
	meta   []byte
	// metaObject: meta starts as an object, whose members version, caps
	// and level are then (the last of each name, as written).
	metaObject           bool
	version, caps, level []byte
	// targets are name and uri, in the order they came (a repeated one
	// counts once more, as it did when read in place).
	targets  [2]statelessTarget
	ntargets int
	overflow bool // more than two targets
	args     []byte
	inputs   []byte
	state    []byte
}

// statelessTarget is a member naming what a request acts on, and its raw
// value.
type statelessTarget struct {
	name  string
	value []byte
}

// scanStatelessRequest reports whether params are those of a stateless
// request: their _meta names the protocol version. The few bytes that could
// be one are scanned into p (and only they: p is left as it was for any
// other), so that admitting the request reads them no more.
func scanStatelessRequest(params []byte, p *statelessParams) bool {
	if !bytes.Contains(params, []byte(metaProtocolVersion)) {
		return false
	}
	scanStatelessParams(params, p)
	return p.version != nil
}

// scanStatelessParams reads the params' top-level members once, and the
// members of their _meta, into p.
func scanStatelessParams(params []byte, p *statelessParams) {
	*p = statelessParams{}
	o, ok := jsonscan.NewObject(params)
	if !ok {
		return
	}
	for {
		k, v, ok := o.Next()
		if !ok {
			break
		}
		switch {
		case jsonscan.NameIs(k, "_meta"):
			if p.meta == nil {
				p.meta = v
			}
		case jsonscan.NameIs(k, "name"):
			p.addTarget("name", v)
		case jsonscan.NameIs(k, "uri"):
			p.addTarget("uri", v)
		case jsonscan.NameIs(k, "arguments"):
			p.args = v
		case jsonscan.NameIs(k, "inputResponses"):
			p.inputs = v
		case jsonscan.NameIs(k, "requestState"):
			p.state = v
		}
	}
	p.object = !o.Err() && !p.overflow
	scanMeta(p)
}

// scanMeta reads the members of p.meta the protocol defines.
func scanMeta(p *statelessParams) {
	members, isObject := jsonscan.NewObject(p.meta)
	if p.meta == nil || !isObject {
		return
	}
	p.metaObject = true
	for {
		k, v, ok := members.Next()
		if !ok {
			return
		}
		switch {
		case jsonscan.NameIs(k, metaProtocolVersion):
			p.version = v
		case jsonscan.NameIs(k, metaClientCapabilities):
			p.caps = v
		case jsonscan.NameIs(k, metaLogLevel):
			p.level = v
		}
	}
}

// addTarget notes a name or uri member. Past two (a name repeated, which
// the schema check refuses before any handler runs) the params are taken
// as malformed.
func (p *statelessParams) addTarget(name string, v []byte) {
	if p.ntargets == len(p.targets) {
		p.overflow = true
		return
	}
	p.targets[p.ntargets] = statelessTarget{name, v}
	p.ntargets++
}
